"""The daemon's Unix-socket protocol (docs/protocol.md), as the soak's asyncio clients speak it."""
import json
import struct

HELLO, EVENT, PACKET, PCM, ERROR = 1, 3, 4, 5, 6  # the message types the soak sends or reads
LARGEST_MESSAGE = 16 * 1024 * 1024  # a longer length is a broken peer (docs/protocol.md, Framing)


def frame(kind, payload):
    """One message: u32 big-endian length of the type byte and payload, the type, the payload."""
    return struct.pack(">IB", 1 + len(payload), kind) + payload


def hello(kinds, burst=0.0):
    return frame(HELLO, json.dumps({"protocol": 1, "kinds": kinds, "burst": burst}).encode())


async def read_message(reader):
    """(type, payload) of the next message; asyncio.IncompleteReadError at the end of the connection."""
    length, kind = struct.unpack(">IB", await reader.readexactly(5))
    if not 1 <= length <= LARGEST_MESSAGE:
        raise ValueError(f"broken framing: length {length}")
    return kind, await reader.readexactly(length - 1)


def packet_header(payload):
    """(offset, timestamp, frames) of a packet message."""
    return struct.unpack_from(">QQI", payload)


def pcm_frames(payload):
    """(timestamp, frames) of a pcm message: samples are s16 or f32, interleaved."""
    timestamp, _rate, channels, encoding, _ = struct.unpack_from(">QIHBB", payload)
    width = 2 if encoding == 1 else 4
    return timestamp, (len(payload) - 16) // (channels * width)
