"""Tests of core/."""
