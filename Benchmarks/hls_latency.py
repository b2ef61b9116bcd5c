#!/usr/bin/env python3
"""How soon a Low-Latency HLS part reaches the players waiting for it: audiostreamd reads a 128 kb/s MP3 from its
standard input, fed at real time by this script, and serves it with `hls: {segment: 2, part: 0.5}`; N clients
each hold a blocking playlist reload (`_HLS_msn`/`_HLS_part`) for the next part, on one kept-alive connection
each, and ask for the next as soon as they are answered.

A part's last packet reaches the daemon with the write that completes its frame and brings the header that
confirms it (the feeder writes frame k's body and frame k+1's header together). Its availability latency is from
that write to each client's whole answer naming the part. The clients are one asyncio process on the same
machine: their own reading is part of the figure. Writes one JSON report.

    python3 Benchmarks/hls_latency.py --daemon .build/release/audiostreamd --clients 1000 --seconds 30 \\
        --folder /tmp/DIR --report OUT.json

bench.sh calls it (BENCH_ONLY=hls); the report is read by hls_report.py.
"""
import argparse
import asyncio
import json
import os
import re
import resource
import socket
import subprocess
import time

BIT_RATES = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320]
SAMPLE_RATES = [44100, 48000, 32000]
FRAMES_PER_PACKET = 1152


def mp3_frames(data):
    """The MPEG-1 Layer III frames of `data`, a stream of nothing else."""
    frames, position = [], 0
    while position + 4 <= len(data):
        header = data[position:position + 4]
        if header[0] != 0xFF or header[1] & 0xFE != 0xFA:
            raise SystemExit(f"no MPEG-1 Layer III frame at {position}")
        rate = BIT_RATES[header[2] >> 4] * 1000
        length = 144 * rate // SAMPLE_RATES[header[2] >> 2 & 3] + (header[2] >> 1 & 1)
        frames.append(data[position:position + length])
        position += length
    return frames


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Feeder:
    """Writes the frames to the daemon at real time, each write frame k's body and frame k+1's header, and
    notes when the write that completed packet k went out."""

    def __init__(self, stdin, frames, sample_rate):
        self.stdin, self.frames, self.interval = stdin, frames, FRAMES_PER_PACKET / sample_rate
        self.completed = {}

    async def run(self, seconds):
        start = time.monotonic()
        count = int(seconds / self.interval)
        self.stdin.write(self.frames[0][:4])
        for index in range(count):
            frame = self.frames[index % len(self.frames)]
            following = self.frames[(index + 1) % len(self.frames)]
            delay = start + index * self.interval - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            self.stdin.write(frame[4:] + following[:4])
            self.stdin.flush()
            self.completed[index] = time.monotonic()


class Client(asyncio.Protocol):
    """One player: holds a blocking reload for the next part, notes when each whole answer came, asks again."""

    def __init__(self, port, results, done):
        self.port, self.results, self.done = port, results, done
        self.buffer = b""
        self.waiting = None

    def connection_made(self, transport):
        self.transport = transport
        self.ask("/hls/live/live.m3u8")

    def ask(self, path):
        self.transport.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n\r\n".encode())

    def data_received(self, data):
        now = time.monotonic()
        self.buffer += data
        end = self.buffer.find(b"\r\n\r\n")
        if end < 0:
            return
        length = int(re.search(rb"Content-Length: (\d+)", self.buffer[:end]).group(1))
        if len(self.buffer) < end + 4 + length:
            return
        body = self.buffer[end + 4:end + 4 + length].decode()
        self.buffer = self.buffer[end + 4 + length:]
        if self.waiting is not None:
            self.results.append((self.waiting, now))
        if self.done.is_set():
            self.transport.close()
            return
        hint = re.search(r'PRELOAD-HINT:TYPE=PART,URI="part-(\d+)\.(\d+)\.mp3"', body)
        self.waiting = (int(hint.group(1)), int(hint.group(2)))
        self.ask(f"/hls/live/live.m3u8?_HLS_msn={self.waiting[0]}&_HLS_part={self.waiting[1]}")


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def measure(arguments, port, daemon, frames):
    feeder = Feeder(daemon.stdin, frames, 44100)
    feeding = asyncio.ensure_future(feeder.run(arguments.seconds + arguments.warmup + 5))
    # The playlist is served once it lists three segments.
    await asyncio.sleep(7)
    results, done = [], asyncio.Event()
    loop = asyncio.get_running_loop()
    for _ in range(arguments.clients):
        await loop.create_connection(lambda: Client(port, results, done), "127.0.0.1", port)
    await asyncio.sleep(arguments.warmup)
    results.clear()
    started = time.monotonic()
    cpu_before = cpu_seconds(daemon.pid)
    await asyncio.sleep(arguments.seconds)
    cpu = cpu_seconds(daemon.pid) - cpu_before
    done.set()
    elapsed = time.monotonic() - started
    await feeding
    # Packets before the first part: a part is 19 packets of 1,152 frames (0.4963 s, at most 0.5), a segment 4 parts.
    latencies = []
    for (msn, part), received in results:
        last_packet = (msn * 4 + part + 1) * 19 - 1
        completed = feeder.completed.get(last_packet)
        if completed is not None:
            latencies.append((received - completed) * 1000)
    return latencies, cpu / elapsed


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run(arguments, clients):
    port = free_port()
    folder = os.path.join(arguments.folder, f"clients-{clients}")
    os.makedirs(folder, exist_ok=True)
    config = os.path.join(folder, "config.yaml")
    with open(config, "w") as file:
        file.write(f'http: {{listen: "127.0.0.1:{port}"}}\nstreams:\n  - name: live\n    source: stdin\n'
                   f"    socket: {folder}/live.sock\n    hls: {{segment: 2, part: 0.5, window: 20}}\n")
    seed = os.path.join(arguments.folder, "seed.mp3")
    if not os.path.exists(seed):
        subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=20",
                        "-ac", "2", "-ar", "44100", "-c:a", "libmp3lame", "-b:a", "128k", "-write_xing", "0",
                        "-id3v2_version", "0", seed], check=True)
    frames = mp3_frames(open(seed, "rb").read())
    with open(os.path.join(folder, "daemon.log"), "w") as log:
        daemon = subprocess.Popen([arguments.daemon, "--config", config], stdin=subprocess.PIPE, stderr=log,
                                  stdout=subprocess.DEVNULL)
        try:
            arguments.clients = clients
            latencies, cpu = asyncio.run(measure(arguments, port, daemon, frames))
        finally:
            daemon.terminate()
            daemon.wait(timeout=30)
    return {
        "clients": clients, "answers": len(latencies), "daemonCPU": round(cpu, 4),
        "p50": round(percentile(latencies, 0.5), 2), "p90": round(percentile(latencies, 0.9), 2),
        "p99": round(percentile(latencies, 0.99), 2), "max": round(max(latencies), 2),
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--daemon", required=True)
    parser.add_argument("--clients", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--warmup", type=float, default=3)
    parser.add_argument("--folder", required=True)
    parser.add_argument("--report", required=True)
    arguments = parser.parse_args()
    # A descriptor per client, beyond the usual 1,024.
    resource.setrlimit(resource.RLIMIT_NOFILE, (resource.getrlimit(resource.RLIMIT_NOFILE)[1],) * 2)
    os.makedirs(arguments.folder, exist_ok=True)
    runs = [run(arguments, count) for count in sorted({1, arguments.clients})]
    with open(arguments.report, "w") as report:
        json.dump({"runs": runs, "seconds": arguments.seconds}, report, indent=2)


if __name__ == "__main__":
    main()
