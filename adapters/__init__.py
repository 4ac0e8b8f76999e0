"""Adapters from our ports to real outside systems."""
