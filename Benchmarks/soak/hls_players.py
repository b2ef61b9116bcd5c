"""Well-behaved Low-Latency HLS players: each holds a kept-alive connection to a stream's `/hls/NAME/`, waits for
every part with a blocking playlist reload (`_HLS_msn`, `_HLS_part`, delta updates) and fetches it, and checks
what RFC 8216bis promises it: every reload answered 200 (a stream whose source never ends never holds one for
three target durations), the media sequence never going back, every part listed fetched whole, none leaving the
playlist before its player had it. The connection may end only at the soak's end; a player then connects again.
"""
import asyncio
import re

import checkers

READ_TIMEOUT = 10  # seconds: more than three target durations of 2 s, after which the daemon answers 503


async def player(findings, census, stopping, stream, port, index):
    who = f"HLS player {index} of {stream}"
    await checkers.connected(findings, census, stopping, who, port,
                             lambda reader, writer: _play(findings, who, stream, reader, writer, stopping))


async def _play(findings, who, stream, reader, writer, stopping):
    folder = f"/hls/{stream}/"
    status, text = await _get(reader, writer, folder + "live.m3u8")
    if status == 503:
        return  # the stream is starting: its first playlist waits for three segments, a request for two
    if status != 200:
        raise ValueError(f"the playlist answered {status}")
    sequence, following, parts = _read(text.decode())
    last = parts[-1] if parts else None
    while not stopping.is_set():
        query = f"?_HLS_msn={following[0]}&_HLS_part={following[1]}&_HLS_skip=YES"
        status, text = await _get(reader, writer, folder + "live.m3u8" + query)
        if status != 200:
            raise ValueError(f"a blocking reload answered {status}")
        previous = sequence
        sequence, following, parts = _read(text.decode())
        if sequence < previous:
            findings.fail(who, f"the media sequence went back from {previous} to {sequence}")
        if last is not None and last not in parts:
            raise ValueError(f"{last} left the playlist before the next part was fetched")
        for name in parts[parts.index(last) + 1 if last in parts else 0:]:
            status, body = await _get(reader, writer, folder + name)
            if status != 200 or not body:
                findings.fail(who, f"{name}, listed, answered {status} with {len(body)} bytes")
            findings.hls_parts += 1
            last = name


def _read(text):
    """(media sequence, the (segment, part) after the last part listed, the parts listed) of a playlist."""
    sequence = int(re.search(r"#EXT-X-MEDIA-SEQUENCE:(\d+)", text).group(1))
    skipped = re.search(r"SKIPPED-SEGMENTS=(\d+)", text)
    segments, in_segment, parts = int(skipped.group(1)) if skipped else 0, 0, []
    for line in text.splitlines():
        if line.startswith("#EXT-X-PART:"):
            parts.append(re.search(r'URI="([^"]+)"', line).group(1))
            in_segment += 1
        elif line.startswith("#EXTINF"):
            segments += 1
            in_segment = 0
    return sequence, (sequence + segments, in_segment), parts


async def _get(reader, writer, path):
    """(status, body) of a GET on the kept-alive connection."""
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: soak\r\n\r\n".encode())
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), READ_TIMEOUT)
    status = int(head.split(b" ", 2)[1])
    length = re.search(rb"(?i)\r\ncontent-length: *(\d+)", head)
    body = await asyncio.wait_for(reader.readexactly(int(length.group(1))), READ_TIMEOUT) if length else b""
    return status, body
