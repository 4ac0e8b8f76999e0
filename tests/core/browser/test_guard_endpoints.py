"""Which endpoints a step's declaration covers (``core.browser.guard.same_endpoint``):
scheme, host and path, with the query and a final slash ignored. The guard lets a change
through only to these, so each part is pinned (issue 31)."""

from __future__ import annotations

import pytest

from core.browser.guard import same_endpoint


@pytest.mark.parametrize(
    ("url", "declared", "same"),
    [
        ("http://h.test/my/book", ["http://h.test/my/book"], True),
        ("http://h.test/my/book?x=1", ["http://h.test/my/book"], True),  # query ignored
        ("http://h.test/my/book/", ["http://h.test/my/book"], True),  # a final / ignored
        ("HTTP://H.Test/my/book", ["http://h.test/my/book"], True),  # scheme, host: any case
        ("http://h.test", ["http://h.test/"], True),  # no path is the root
        ("http://h.test/", ["http://h.test"], True),
        ("http://h.test/My/Book", ["http://h.test/my/book"], False),  # the path's case counts
        ("https://h.test/my/book", ["http://h.test/my/book"], False),
        ("http://h.test:8080/my/book", ["http://h.test/my/book"], False),
        ("http://other.test/my/book", ["http://h.test/my/book"], False),
        ("http://h.test/my/book/x", ["http://h.test/my/book"], False),
        ("http://h.test/my/X", ["http://h.test/my"], False),  # only a slash is trimmed
        ("http://h.test/my/book", ["http://h.test/a", "http://h.test/my/book"], True),
        ("http://h.test/my/book", [], False),
    ],
)
def test_same_endpoint(url: str, declared: list[str], same: bool) -> None:
    assert same_endpoint(url, declared) is same
