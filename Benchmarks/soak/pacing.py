"""Real-time pace for the soak's live sources (the ICY station, random bytes, the daemon's standard input)."""
import asyncio
import time

TICK = 0.1  # seconds between writes: a live source's reads arrive in small pieces, as a radio's do


async def paced(rate, until=float("inf")):
    """Byte counts to send now, every TICK, at `rate` bytes per second by the clock (so without drift), until the
    monotonic time `until`. Each count keeps the receiver a tenth of a second ahead, as a station's buffer does."""
    start, sent = time.monotonic(), 0
    while (now := time.monotonic()) < until:
        due = int((now - start) * rate) + rate // 10
        if due > sent:
            yield due - sent
            sent = due
        await asyncio.sleep(TICK)


def looped(data, position, count):
    """`count` bytes of `data` read from `position` on, starting again at its beginning as often as needed."""
    out = bytearray()
    while count:
        take = min(count, len(data) - position)
        out += data[position:position + take]
        position, count = (position + take) % len(data), count - take
    return bytes(out)
