"""Reference room-booking portal: a standalone web app the booking scenario drives.

Standalone on purpose: it never imports ``core``, ``bot``, ``scenarios`` or ``storage``.

- ``portal.app.create_app(db=":memory:", seed=1, test_api=False, clock=None)`` builds it;
  ``portal.server.running_portal(...)`` serves it in-process, ``serve(...)`` in the foreground.
- Room ids are ``<building>-<number>`` (``main-405``, ``chaikovsky-108``, ``lab-501``).
- Seeding: ``seed=None`` or ``0`` — no bookings; any other integer — the same other users'
  bookings for the same portal "today" (days today…today+14, mostly daytime, evenings
  mostly free). A file database that already holds bookings is never reseeded.
- Pages: ``/login``, ``/logout``, ``/rooms``, ``/book``, ``/booking/<id>``, ``/my``,
  ``/my/<id>/cancel`` (POST), ``/notice``; JSON: ``/api/availability?building=&date=``.
- ``/_test/*`` exists only with ``test_api=True``: see ``portal.views.testapi`` and
  ``portal.quirks`` for the JSON shapes.
"""
