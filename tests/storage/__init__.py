"""Storage contract tests."""
