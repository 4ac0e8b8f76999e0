"""A deliberately awkward, older-style room-booking site beside the reference portal.

Server-rendered, no scripts: a day grid with times down the rows and rooms across the
columns (a booking is one ``rowspan`` cell), numeric building and room ids unrelated to
room numbers, dates as ``DD.MM.YYYY``, times in form fields as seconds since midnight,
a CSRF failure that ends the session, «Мои брони» as a text search and a native
``confirm()`` before a cancel; some labels left in English on purpose.

- ``portal.legacy.server.running_legacy(...)`` serves it in-process, ``serve(...)`` (and
  ``python -m portal.legacy --port 8710``) in the foreground.
- Pages: ``/auth/login``, ``/auth/logout``, ``/schedule?bld=&day=``, ``/reserve?room=&t=&day=``,
  ``/reservation/<id>``, ``/reservation/<id>/cancel`` (POST), ``/my?q=``.
- ``/_test/*`` exists only with ``test_api=True`` (the reference portal's paths and shapes).
"""

__all__: list[str] = []
