"""Booking system adapters: one package per site, each implementing the port in
``core.booking`` (``refportal``: our reference portal)."""
