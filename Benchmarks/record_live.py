#!/usr/bin/env python3
"""What recording live streams costs: audiostreamd serving N streams read at real time, without and with
`record:`, against N `ffmpeg -re ... -c copy -f segment` processes recording the same input, each measured over
the same window (CPU time from /proc/PID/stat, after a warm-up). Writes one JSON report.

    python3 Benchmarks/record_live.py --daemon .build/release/audiostreamd --input SEED.mp3 --streams 20 \\
        --seconds 60 --warmup 5 --folder /tmp/DIR --report OUT.json

bench.sh calls it (BENCH_ONLY=record); the report is read by record_report.py.
"""
import argparse
import json
import os
import subprocess
import time

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    """User and system CPU seconds of a process so far."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def measure(processes, warmup, seconds):
    """Summed CPU seconds of `processes` over `seconds`, after `warmup`."""
    time.sleep(warmup)
    before = sum(cpu_seconds(p.pid) for p in processes)
    time.sleep(seconds)
    after = sum(cpu_seconds(p.pid) for p in processes)
    return after - before


def stop(processes):
    for process in processes:
        process.terminate()
    for process in processes:
        process.wait(timeout=30)


RECORD = ", record: {path: 'rec/{stream}-{n}.mp3', every: 600}"


def daemon(args, keys, folder):
    """audiostreamd with `args.streams` streams of the input read at real time, each with the stream `keys` (YAML
    flow text after a comma, or empty); its CPU over the window."""
    os.makedirs(folder)
    streams = []
    for index in range(args.streams):
        streams.append(f"  - {{name: s{index}, source: 'file:{os.path.abspath(args.input)}', pace: realtime, "
                       f"loop: true, socket: s{index}.sock{keys}}}")
    config = os.path.join(folder, "config.yaml")
    with open(config, "w") as file:
        file.write("streams:\n" + "\n".join(streams) + "\n")
    process = subprocess.Popen([args.daemon, "--config", config], stdout=subprocess.DEVNULL,
                               stderr=open(os.path.join(folder, "log"), "w"))
    try:
        return measure([process], args.warmup, args.seconds)
    finally:
        stop([process])


def ffmpeg(args, outputs):
    """`args.streams` ffmpeg processes reading the input at real time, the n-th with `outputs(n)` after it; their
    CPU over the window."""
    processes = [subprocess.Popen(
        ["ffmpeg", "-v", "error", "-re", "-stream_loop", "-1", "-i", args.input] + outputs(index),
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for index in range(args.streams)]
    try:
        return measure(processes, args.warmup, args.seconds)
    finally:
        stop(processes)


def arguments():
    """The options every live benchmark takes."""
    parser = argparse.ArgumentParser()
    for option in ("--daemon", "--input", "--folder", "--report"):
        parser.add_argument(option, required=True)
    parser.add_argument("--streams", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--warmup", type=float, default=5)
    return parser.parse_args()


def write(args, figures):
    """Writes the report: the run's shape and `figures`."""
    report = {"streams": args.streams, "seconds": args.seconds, "warmup": args.warmup, **figures}
    with open(args.report, "w") as file:
        json.dump(report, file, indent=1)
    print(json.dumps(report))


def main():
    args = arguments()
    pieces = os.path.join(args.folder, "ffmpeg")
    os.makedirs(pieces)
    write(args, {
        "daemonWithout": daemon(args, "", os.path.join(args.folder, "without")),
        "daemonWith": daemon(args, RECORD, os.path.join(args.folder, "with")),
        "ffmpeg": ffmpeg(args, lambda index: ["-c", "copy", "-f", "segment", "-segment_time", "600",
                                             os.path.join(pieces, f"ff{index}-%03d.mp3")]),
    })


if __name__ == "__main__":
    main()
