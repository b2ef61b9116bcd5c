#!/usr/bin/env python3
"""Subscribe to an audiostreamd stream and print what arrives as JSON lines, like `audiostream subscribe`.

Usage: python3 subscribe.py SOCKET [KINDS]    KINDS: comma-separated packets,pcm,properties,metadata
The wire protocol is described in docs/protocol.md. Exits 0 after the end event, 1 otherwise.
"""
import json
import socket
import struct
import sys

HELLO, EVENT, PACKET, PCM, ERROR = 1, 3, 4, 5, 6
PCM_ENCODINGS = {1: ("s16", 2), 2: ("f32", 4)}  # wire code: (name, bytes per sample)


def print_line(**fields):
    print(json.dumps(fields, separators=(",", ":")), flush=True)


def main(path, kinds="packets,metadata,properties"):
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    connection.connect(path)
    hello = json.dumps({"protocol": 1, "kinds": kinds.split(","), "pcm": "s16", "burst": 0}).encode()
    # Every message: u32 big-endian length (of the type byte and payload), u8 type, payload.
    connection.sendall(struct.pack(">IB", 1 + len(hello), HELLO) + hello)
    stream = connection.makefile("rb")  # read(n) returns n bytes, or fewer only at the end
    while len(header := stream.read(5)) == 5:
        length, kind = struct.unpack(">IB", header)
        payload = stream.read(length - 1)
        if len(payload) < length - 1:
            break
        if kind == EVENT:  # JSON in the `audiostream events` schema, printed as it came
            print(payload.decode(), flush=True)
            if json.loads(payload)["event"] == "end":
                return 0
        elif kind == PACKET:  # u64 offset, u64 timestamp, u32 frames, then the packet's bytes
            offset, _timestamp, frames = struct.unpack_from(">QQI", payload)
            print_line(event="packet", offset=offset, size=len(payload) - 20, frames=frames)
        elif kind == PCM:  # u64 timestamp, u32 rate, u16 channels, u8 encoding, u8 reserved, samples
            _timestamp, rate, channels, encoding, _ = struct.unpack_from(">QIHBB", payload)
            name, width = PCM_ENCODINGS[encoding]
            frames = (len(payload) - 16) // (channels * width)
            print_line(event="pcm", frames=frames, format=name, sampleRate=rate, channels=channels)
        elif kind == ERROR:
            print("refused:", payload.decode(), file=sys.stderr)
            return 1
        # The welcome, {"protocol":1,"stream":NAME}, needs no answer.
    print("the connection closed before the end of the stream", file=sys.stderr)
    return 1


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    try:
        sys.exit(main(*sys.argv[1:]))
    except OSError as error:  # no such socket, no daemon on it, connection reset
        sys.exit(f"subscribe.py: {error}")
