"""Well-behaved clients: they read at once and check that they never miss anything.

A socket subscriber checks what docs/protocol.md promises a reader that keeps up: no `overflow` discontinuity,
and each packet's timestamp is the previous one's plus its frames (each PCM message's likewise), for as long as
it is connected. Its connection may end only with `end`: `restartedByReload` when a reload restarted its
stream (it then connects again at once), `daemonStopping` at the soak's end. An HTTP listener of an MP3 file
stream checks that its body, from the first byte, is the file's bytes looped without a gap (MP3 frames go out
as they are and the files have no tags), and may be closed only when a reload restarted its stream.
"""
import asyncio
import json
import time

import wire

RESTART_GRACE = 10  # seconds after a reload in which a restarted stream's HTTP listeners may be closed
READ_TIMEOUT = 15  # seconds without a message, while the stream is alive, that count as missing ones
LOCATE_BYTES = 256  # bytes of noise-like MP3 that occur once in a file: enough to find where they came from


class Findings:
    """What the well-behaved clients saw; soak.py writes `failures` into the verdict."""

    def __init__(self):
        self.failures, self.reconnects, self.packets, self.hls_parts = [], 0, 0, 0
        self.restarts = {}  # stream name: time of the last reload that restarted it

    def fail(self, who, what):
        stamp = time.strftime("%H:%M:%S")
        self.failures.append(f"{stamp} {who}: {what}")
        print(f"soak: MISSED {who}: {what}", flush=True)

    def restarted_recently(self, stream):
        return time.monotonic() - self.restarts.get(stream, -1e9) < RESTART_GRACE


async def socket_subscriber(findings, census, stopping, stream, path, kinds, silent_for_long=False):
    """Subscribes again and again until the soak stops. `silent_for_long`: the stream may send nothing for a long
    time (random bytes have no packets), so silence is not a loss."""
    who = f"socket subscriber ({','.join(kinds)}) of {stream}"
    while not stopping.is_set():
        try:
            reader, writer = await asyncio.open_unix_connection(path)
        except OSError:  # the stream is restarting: its socket comes back within moments
            await asyncio.sleep(0.2)
            continue
        try:
            with census.holding():
                writer.write(wire.hello(kinds))
                reason = await _follow(findings, who, reader, None if silent_for_long else READ_TIMEOUT)
        except (OSError, asyncio.IncompleteReadError, asyncio.TimeoutError, ValueError) as error:
            reason = None
            if not stopping.is_set():
                findings.fail(who, f"connection lost without an end event ({error!r})")
        finally:
            writer.close()
        if reason == "restartedByReload":
            findings.reconnects += 1
        elif reason is not None and not (reason == "daemonStopping" and stopping.is_set()):
            findings.fail(who, f"end event with reason {reason}")
            await asyncio.sleep(1)


async def _follow(findings, who, reader, timeout):
    """Reads until `end`, checking continuity; returns the end's reason."""
    next_timestamp = {wire.PACKET: None, wire.PCM: None}
    while True:
        kind, payload = await asyncio.wait_for(wire.read_message(reader), timeout)
        if kind in next_timestamp:
            if kind == wire.PACKET:
                _offset, timestamp, frames = wire.packet_header(payload)
                findings.packets += 1
            else:
                timestamp, frames = wire.pcm_frames(payload)
            expected = next_timestamp[kind]
            if expected is not None and timestamp != expected:
                findings.fail(who, f"{'packet' if kind == wire.PACKET else 'pcm'} timestamp {timestamp}, "
                                   f"expected {expected} ({expected - timestamp:+} frames)")
            next_timestamp[kind] = timestamp + frames
        elif kind == wire.EVENT:
            event = json.loads(payload)
            if event["event"] == "discontinuity" and event.get("reason") == "overflow":
                findings.fail(who, f"overflow: {event.get('droppedPackets')} packets dropped")
            elif event["event"] == "end":
                return event["reason"]
        elif kind == wire.ERROR:
            raise ValueError(f"refused: {payload.decode()}")


async def connected(findings, census, stopping, who, port, session, excused=lambda: False):
    """Connects to the daemon's HTTP `port` again and again until the soak stops and runs `session(reader, writer)`
    on each connection. A connection lost before the soak's end is a failure unless `excused()` says why."""
    while not stopping.is_set():
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError as error:
            findings.fail(who, f"cannot connect ({error!r})")
            await asyncio.sleep(1)
            continue
        try:
            with census.holding():
                await session(reader, writer)
        except (OSError, asyncio.IncompleteReadError, asyncio.TimeoutError, ValueError) as error:
            if not stopping.is_set() and not excused():
                findings.fail(who, f"connection lost ({error!r})")
        finally:
            writer.close()
        findings.reconnects += 1
        await asyncio.sleep(0.2)


async def http_listener(findings, census, stopping, stream, port, files):
    who = f"HTTP listener of {stream}"
    loops = [open(path, "rb").read() for path in files]

    async def listen(reader, writer):
        writer.write(f"GET /{stream} HTTP/1.0\r\n\r\n".encode())
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), READ_TIMEOUT)
        if not head.startswith(b"HTTP/1.0 200"):
            raise ValueError(head.split(b"\r\n", 1)[0].decode())
        await _compare(findings, who, reader, loops)

    await connected(findings, census, stopping, who, port, listen, lambda: findings.restarted_recently(stream))


async def _compare(findings, who, reader, loops):
    """Finds where the body starts in one of `loops`, then checks each byte against the file looped; after a
    gap, finds the file again from the bytes that follow it."""
    body, audio = await asyncio.wait_for(reader.readexactly(4096), READ_TIMEOUT), None
    while True:
        if audio is None and len(body) >= LOCATE_BYTES:
            audio, position = _locate(loops, body)
            if audio is None:
                raise ValueError("the body is in none of the files")
        if audio is not None:
            end = position + len(body)
            expected = audio[position:end] if end <= len(audio) else audio[position:] + audio[:end - len(audio)]
            if body == expected:
                position = end % len(audio)
            else:
                differs = next(i for i, (got, want) in enumerate(zip(body, expected)) if got != want)
                findings.fail(who, f"body differs from the file at byte {(position + differs) % len(audio)} of its "
                                   f"loop: a packet missed")
                body, audio = body[differs:], None
                continue
        body = await asyncio.wait_for(reader.read(65536), READ_TIMEOUT)
        if not body:
            raise asyncio.IncompleteReadError(b"", None)


def _locate(loops, body):
    """(the file, the position in it) where `body` starts, the file looped; (None, 0) when in none."""
    for audio in loops:
        found = (audio + audio[:len(body)]).find(body[:4096])
        if found >= 0:
            return audio, found
    return None, 0
