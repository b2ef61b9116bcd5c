#!/usr/bin/env python3
"""The soak's radio station on 127.0.0.1: two endpoints for audiostreamd's HTTP sources.

  GET /radio.mp3   a CBR MP3 played as a live station (the position follows the clock, as a radio's does), with
                   ICY metadata every METAINT bytes when asked (Icy-MetaData: 1) and a new title every 10 s;
                   each connection is dropped after a random 5 to 45 s, so the daemon reconnects all the time.
  GET /random      random bytes at the same rate, never audio, never dropped: the parser skips them as junk.

Usage: icy_server.py MP3 BYTES_PER_SECOND SEED. Prints the port it listens on, then serves until killed.
"""
import asyncio
import os
import random
import sys
import time

from pacing import looped, paced

METAINT = 8192


def metadata_block(title):
    """An ICY block: one length byte (in 16-byte units), then the text padded with NULs."""
    text = f"StreamTitle='{title}';".encode()
    units = (len(text) + 15) // 16
    return bytes([units]) + text.ljust(units * 16, b"\0")


class Station:
    def __init__(self, audio, rate, seed):
        self.audio, self.rate, self.random = audio, rate, random.Random(seed)
        self.started = time.monotonic()

    def live_position(self):
        return int((time.monotonic() - self.started) * self.rate) % len(self.audio)

    def title(self):
        return f"Soak station - song {int((time.monotonic() - self.started) // 10)}"

    async def serve(self, reader, writer):
        try:
            request = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
            path = request.split(b" ", 2)[1]
            if path == b"/radio.mp3":
                await self.radio(writer, b"icy-metadata: 1" in request.lower())
            elif path == b"/random":
                await self.random_bytes(writer)
            else:
                writer.write(b"HTTP/1.0 404 Not Found\r\n\r\n")
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, asyncio.TimeoutError, IndexError):
            pass  # the daemon went away or sent nonsense: the station goes on for the others
        finally:
            writer.close()

    async def radio(self, writer, with_metadata):
        head = "ICY 200 OK\r\nicy-name: Soak station\r\nicy-genre: Test\r\ncontent-type: audio/mpeg\r\n"
        if with_metadata:
            head += f"icy-metaint: {METAINT}\r\n"
        writer.write((head + "\r\n").encode())
        position, until_block = self.live_position(), METAINT
        async for count in paced(self.rate, until=time.monotonic() + self.random.uniform(5, 45)):
            while count:
                take = min(count, until_block)
                writer.write(looped(self.audio, position, take))
                position, count, until_block = (position + take) % len(self.audio), count - take, until_block - take
                if until_block == 0:
                    if with_metadata:
                        writer.write(metadata_block(self.title()))
                    until_block = METAINT
            await writer.drain()

    async def random_bytes(self, writer):
        writer.write(b"HTTP/1.0 200 OK\r\ncontent-type: application/octet-stream\r\n\r\n")
        async for count in paced(self.rate):
            writer.write(os.urandom(count))
            await writer.drain()


async def main(path, rate, seed):
    station = Station(open(path, "rb").read(), int(rate), int(seed))
    server = await asyncio.start_server(station.serve, "127.0.0.1", 0)
    print(server.sockets[0].getsockname()[1], flush=True)
    await server.serve_forever()


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    asyncio.run(main(*sys.argv[1:]))
