"""Turns hls_latency.py's JSON into the "HLS availability latency" section of docs/benchmarks.md.

Inputs come from BENCH_* environment variables set by bench.sh (see bench_report.py), plus BENCH_HLS_JSON (the
report) and BENCH_CMD_HLS (the command that made it). Only this section is replaced.
"""
from bench_report import context, env, table, write_section
import json

HEADER = "## HLS availability latency (audiostreamd)"
TARGET_P99 = 20  # milliseconds, with 1,000 blocked clients

report = json.load(open(env["BENCH_HLS_JSON"]))
runs = report["runs"]
most = max(runs, key=lambda run: run["clients"])
verdict = "met" if most["p99"] <= TARGET_P99 else "**not met**"


def row(run):
    return [f"{run['clients']:,}", f"{run['answers']:,}", f"{run['p50']:.2f}", f"{run['p90']:.2f}",
            f"{run['p99']:.2f}", f"{run['max']:.2f}", f"{run['daemonCPU'] * 100:.1f} %"]


section = f"""{HEADER}

How soon a Low-Latency HLS part reaches the players waiting for it. `audiostreamd` reads a 128 kb/s MP3 from its
standard input, written at real time by the benchmark, and serves it with `hls: {{segment: 2, part: 0.5}}`; each
client holds a blocking playlist reload (`_HLS_msn`, `_HLS_part`) for the next part on one kept-alive connection
and asks for the next one as soon as it is answered. A part's last packet reaches the daemon with the write that
completes its frame and brings the header that confirms it; the latency runs from that write to a client's whole
answer listing the part. The clients are one Python asyncio process on the same machine, so their own reading is
in the figures; one client gives the floor. Target: p99 ≤ {TARGET_P99} ms with 1,000 clients.

{context(timer=None)}

```sh
{env['BENCH_CMD_HLS']}
```

{table(["Clients", "Answers", "p50 ms", "p90 ms", "p99 ms", "max ms", "daemon CPU"], [row(run) for run in runs])}

Over {report['seconds']:.0f} s after a warm-up; the daemon's CPU is its user and system time over that window, as a
share of one core.

**p99 with {most['clients']:,} blocked clients:** {most['p99']:.2f} ms. Target ≤ {TARGET_P99} ms: {verdict}.
"""

write_section(HEADER, section, after="## Recording (audiostream record)")
