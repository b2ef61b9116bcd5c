"""Turns bench.sh's loudness measurements into the "Loudness" section of docs/benchmarks.md.

Inputs come from BENCH_* environment variables set by bench.sh (see bench_report.py), plus the commands in
BENCH_CMD_AS, BENCH_CMD_TRUE and BENCH_CMD_FFMPEG (in that order in the JSON), the live report in BENCH_LIVE_JSON
(loudness_live.py) with its command in BENCH_CMD_LIVE, and BENCH_V_FFMPEG. Only this section is replaced.
"""
from bench_report import Input, commands, context, cpu, env, results, table, wall, write_section
import json

HEADER = "## Loudness (audiostream loudness, monitor: {loudness: true})"
TOOL_TARGET = 0.5  # our CPU time at most this fraction of ffmpeg's
LIVE_TARGET = 3.0  # percent of a core per monitored stream, decoding included

data = Input()
sample, true, ffmpeg = results()
hours = data.seconds / 3600


def verdict(met):
    return "met" if met else "**not met**"


def row(result):
    return [result["command"], wall(result), f"{cpu(result):.3f}", f"{cpu(result) / cpu(ffmpeg):.2f}×"]


live = json.load(open(env["BENCH_LIVE_JSON"]))
streams, seconds = live["streams"], live["seconds"]
added = live["daemonWith"] - live["daemonWithout"]


def core_percent(cpu_seconds):
    """CPU seconds in the window as percent of one core, per stream."""
    return cpu_seconds / streams / seconds * 100


section = f"""{HEADER}

What knowing the loudness costs. **Files:** `audiostream loudness` (decode, then libebur128: integrated loudness,
range and peak, for ReplayGain 2.0) against `ffmpeg -af ebur128=peak=true -f null -` on the same file, in the same
run. Target: our CPU time (user+sys) at most {TOOL_TARGET:.0%} of ffmpeg's.

{context(env['BENCH_V_FFMPEG'])}

{data.paragraph()}

{commands(env['BENCH_CMD_AS'], env['BENCH_CMD_TRUE'], env['BENCH_CMD_FFMPEG'])}

{table(["Command", "Wall s (mean ± σ)", "CPU s (user+sys)", "CPU vs ffmpeg"], [row(sample), row(true), row(ffmpeg)])}

**audiostream loudness vs ffmpeg:** {cpu(sample) / cpu(ffmpeg):.2f}× ffmpeg's CPU with sample peaks (the
default), target ≤ {TOOL_TARGET}×: {verdict(cpu(sample) / cpu(ffmpeg) <= TOOL_TARGET)}; with `--true-peak`, which
ffmpeg's `peak=true` also computes, {cpu(true) / cpu(ffmpeg):.2f}× ({verdict(cpu(true) / cpu(ffmpeg) <= TOOL_TARGET)}):
libebur128's 4× oversampling of every sample is most of that time, {(cpu(true) - cpu(sample)) / hours:.1f} s per
hour of audio.

**Live:** {streams} streams of the seed read at real time (`pace: realtime`, looped), served by one audiostreamd
without and then with `monitor: {{loudness: true}}` (decoding with libmpg123, momentary, short-term and
integrated loudness, range and true peaks, and their events), against {streams} `ffmpeg -re -stream_loop -1 -i SEED
-af ebur128=peak=true -f null -` processes; CPU (user+sys, from `/proc/PID/stat`) over {seconds:.0f} s after
{live['warmup']:.0f} s of warm-up:

```
{env['BENCH_CMD_LIVE']}
```

{table(["", "CPU s in the window", "% of a core per stream"], [
    ["audiostreamd, loudness monitored", f"{live['daemonWith']:.2f}", f"{core_percent(live['daemonWith']):.2f}"],
    ["audiostreamd, not monitored", f"{live['daemonWithout']:.2f}", f"{core_percent(live['daemonWithout']):.2f}"],
    ["what the meter adds", f"{added:.2f}", f"{core_percent(added):.2f}"],
    [f"{streams} × ffmpeg ebur128", f"{live['ffmpeg']:.2f}", f"{core_percent(live['ffmpeg']):.2f}"],
])}

**Live meter:** {core_percent(added):.2f} % of a core per 128 kb/s MP3 stream, decoding included; target ≤
{LIVE_TARGET:.0f} %: {verdict(core_percent(added) <= LIVE_TARGET)}.
"""

write_section(HEADER, section)
