"""``python -m portal.legacy [--host H] [--port 8710] [--seed N] [--test-api]``."""

from __future__ import annotations

import argparse

from portal.legacy.server import serve

__all__ = ["main"]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m portal.legacy", description="Serve the legacy room-booking test site."
    )
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8710)
    parser.add_argument("--seed", type=int, default=1, help="0: no seeded bookings")
    parser.add_argument("--test-api", action="store_true", help="mount /_test/*")
    args = parser.parse_args(argv)
    serve(host=args.host, port=args.port, seed=args.seed, test_api=args.test_api)


if __name__ == "__main__":
    main()
