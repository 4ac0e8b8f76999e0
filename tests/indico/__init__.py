"""Tests against a real Indico 3.2.9 server (scripts/indico)."""
