"""Benchmarks that print numbers."""
