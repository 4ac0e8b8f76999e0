"""Test helpers shared across suites."""
