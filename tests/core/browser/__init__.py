"""Browser pool tests."""
