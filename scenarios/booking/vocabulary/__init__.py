"""How people ask for the booking job, in Russian and English: its intents, their rule
scores and the reading of a whole command into a ``Decision``, built from the engine's
parsing primitives (``core.nlu``)."""

from scenarios.booking.vocabulary.intents import BookingIntent, score_intents
from scenarios.booking.vocabulary.reading import MIN_CONFIDENCE, BookingReader, parse
from scenarios.booking.vocabulary.words import booking_lexicon

__all__ = [
    "MIN_CONFIDENCE",
    "BookingIntent",
    "BookingReader",
    "booking_lexicon",
    "parse",
    "score_intents",
]
