"""Scenarios: ordered, idempotent steps with declared slot models."""
