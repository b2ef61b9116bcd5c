#!/usr/bin/env python3
"""What measuring loudness on the air costs: audiostreamd serving N streams read at real time, without and with
`monitor: {loudness: true}` (decoding included), against N `ffmpeg -re ... -af ebur128=peak=true` processes
decoding and metering the same input, each measured over the same window (CPU time from /proc/PID/stat, after a
warm-up). Writes one JSON report.

    python3 Benchmarks/loudness_live.py --daemon .build/release/audiostreamd --input SEED.mp3 --streams 20 \\
        --seconds 60 --warmup 5 --folder /tmp/DIR --report OUT.json

bench.sh calls it (BENCH_ONLY=loudness); the report is read by loudness_report.py.
"""
import os

from record_live import arguments, daemon, ffmpeg, write

args = arguments()
write(args, {
    "daemonWithout": daemon(args, "", os.path.join(args.folder, "without")),
    "daemonWith": daemon(args, ", monitor: {loudness: true}", os.path.join(args.folder, "with")),
    "ffmpeg": ffmpeg(args, lambda index: ["-af", "ebur128=peak=true", "-f", "null", "-"]),
})
