"""Booking system adapters: one package per site, each implementing the port in
``scenarios.booking.port`` (``refportal``: our reference portal)."""
