"""CPU per Redis command: redis-py's plain asyncio client next to our auto-pipelining one,
with N tasks issuing commands at once (as N chats do under load), against a real
redis-server started here.

    python -m bench.redis_pipelining [--commands 4000]
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

import redis.asyncio as aioredis

from storage.redis_pipelining import PipeliningRedis
from tests.support.servers import running_redis


async def cpu_per_command(client: aioredis.Redis, concurrency: int, commands: int) -> float:
    await client.set("bench:key", "x" * 100)
    rounds = commands // concurrency
    started = time.process_time()
    for _ in range(rounds):
        await asyncio.gather(*(client.get("bench:key") for _ in range(concurrency)))
    return (time.process_time() - started) / (rounds * concurrency)


async def main(url: str, commands: int) -> None:
    plain = aioredis.Redis.from_url(url)
    piped = PipeliningRedis.from_url(url)
    try:
        for concurrency in (1, 10, 50):
            # Alternate and take the best of three: the machine's noise only adds time.
            a, b = [], []
            for _ in range(3):
                a.append(await cpu_per_command(plain, concurrency, commands))
                b.append(await cpu_per_command(piped, concurrency, commands))
            print(
                f"{concurrency:3} at once: plain {min(a) * 1e6:6.1f} µs CPU/command, "
                f"pipelining {min(b) * 1e6:6.1f} µs, ratio x{min(a) / min(b):.1f}"
            )
    finally:
        await plain.aclose()
        await piped.aclose()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commands", type=int, default=4000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, running_redis(Path(tmp)) as redis_url:
        asyncio.run(main(redis_url, args.commands))
