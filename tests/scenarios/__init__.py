"""Scenario tests."""
