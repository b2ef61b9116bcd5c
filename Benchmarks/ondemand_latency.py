#!/usr/bin/env python3
"""How soon a listener of a sleeping on-demand relay hears audio: an origin audiostreamd playing an MP3 at real
time, and an audiostreamd relay of it with `relay: {onDemand: true, idle: 1}`. Each visit waits until the relay
has left the origin (the origin counts no listener), connects to the relay's mount, and times the first audio
byte after the response head, from the connect; then it listens for a second and leaves. Writes one JSON
report.

    python3 Benchmarks/ondemand_latency.py --daemon .build/release/audiostreamd --input SEED.mp3 --visits 20 \\
        --folder /tmp/DIR --report OUT.json

bench.sh calls it (BENCH_ONLY=tree); the report is read by tree_report.py.
"""
import argparse
import json
import os
import socket
import subprocess
import time


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def listeners(port):
    """The origin's HTTP listeners of its one stream, as its /status.json counts them."""
    with socket.create_connection(("127.0.0.1", port)) as connection:
        connection.sendall(b"GET /status.json HTTP/1.0\r\n\r\n")
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    streams = json.loads(answer.split(b"\r\n\r\n", 1)[1])["streams"]
    return streams[0]["listeners"] if streams else -1


def wait(what, condition, timeout=30):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if condition():
                return
        except (OSError, ValueError, KeyError, IndexError):
            pass
        time.sleep(0.05)
    raise SystemExit(f"ondemand_latency: timed out waiting for {what}")


def visit(port):
    """Seconds from the connect to the first audio byte of the relay's mount; listens one second more."""
    start = time.monotonic()
    with socket.create_connection(("127.0.0.1", port)) as connection:
        connection.sendall(b"GET /radio HTTP/1.0\r\n\r\n")
        received = b""
        while b"\r\n\r\n" not in received or received.endswith(b"\r\n\r\n"):
            chunk = connection.recv(65536)
            if not chunk:
                raise SystemExit("ondemand_latency: the relay closed the connection")
            received += chunk
        first = time.monotonic() - start
        if not received.startswith(b"HTTP/1.0 200"):
            raise SystemExit(f"ondemand_latency: the relay answered {received[:40]!r}")
        end = time.monotonic() + 1
        while time.monotonic() < end and connection.recv(65536):
            pass
    return first


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--daemon", required=True)
    parser.add_argument("--input", required=True)
    parser.add_argument("--visits", type=int, default=20)
    parser.add_argument("--folder", required=True)
    parser.add_argument("--report", required=True)
    args = parser.parse_args()
    origin_port, relay_port = free_port(), free_port()
    processes = []
    for name, config in [
        ("origin", f'http: {{listen: "127.0.0.1:{origin_port}", relayPassword: bench}}\n'
                   f'streams: [{{name: radio, source: "file:{os.path.abspath(args.input)}", loop: true, '
                   f'socket: radio.sock}}]\n'),
        ("relay", f'http: {{listen: "127.0.0.1:{relay_port}"}}\n'
                  f'relay: {{master: "http://127.0.0.1:{origin_port}", password: bench, interval: 1, '
                  f'onDemand: true, idle: 1, sockets: relay}}\n'),
    ]:
        folder = os.path.join(args.folder, name)
        os.makedirs(folder)
        with open(os.path.join(folder, "config.yaml"), "w") as file:
            file.write(config)
        log = open(os.path.join(folder, "audiostreamd.log"), "w")
        processes.append(subprocess.Popen([args.daemon, "--config", os.path.join(folder, "config.yaml")],
                                          stdout=log, stderr=log))
    try:
        wait("the origin", lambda: listeners(origin_port) == 0)
        times = []
        for _ in range(args.visits):
            wait("the relay to leave the origin", lambda: listeners(origin_port) == 0)
            time.sleep(0.2)
            times.append(visit(relay_port))
    finally:
        for process in processes:
            process.terminate()
            process.wait()
    times.sort()
    with open(args.report, "w") as report:
        json.dump({"visits": len(times), "firstAudioSeconds": times,
                   "p50": times[len(times) // 2], "max": times[-1]}, report)


main()
