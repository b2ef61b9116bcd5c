"""The soak's live DJ: an Icecast source client that pushes an MP3 to the push stream's mount in real time for a
while, leaves, and comes back, so that the stream's fallback takes over and hands back all along the run.

The legacy `SOURCE /MOUNT ICE/1.0` head with Basic auth, as libshout-era clients send it; the daemon answers
`HTTP/1.0 200 OK` and reads the body as the stream until the DJ closes it.
"""
import asyncio
import base64
import time

from pacing import looped, paced

ON_AIR_SECONDS = 20  # how long each visit pushes
AWAY_SECONDS = 25  # how long the fallback plays between visits


async def come_and_go(findings, stopping, port, mount, password, audio, rate):
    """Visits until the soak stops; a refusal or a broken connection is a failure of the daemon's."""
    credentials = base64.b64encode(f"source:{password}".encode()).decode()
    head = (f"SOURCE /{mount} ICE/1.0\r\nAuthorization: Basic {credentials}\r\nContent-Type: audio/mpeg\r\n"
            f"ice-name: Soak DJ\r\n\r\n").encode()
    position = 0
    while not stopping.is_set():
        try:
            await asyncio.wait_for(stopping.wait(), AWAY_SECONDS)
            return
        except asyncio.TimeoutError:
            pass
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError as error:
            findings.fail("DJ", f"cannot connect ({error!r})")
            continue
        try:
            writer.write(head)
            answer = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
            if not answer.startswith(b"HTTP/1.0 200"):
                raise ValueError(answer.split(b"\r\n", 1)[0].decode())
            async for count in paced(rate, until=time.monotonic() + ON_AIR_SECONDS):
                if stopping.is_set():
                    break
                writer.write(looped(audio, position, count))
                position = (position + count) % len(audio)
                await writer.drain()
        except (OSError, asyncio.IncompleteReadError, asyncio.TimeoutError, ValueError) as error:
            if not stopping.is_set():
                findings.fail("DJ", f"pushing failed ({error!r})")
        finally:
            writer.close()
