"""Turns bench.sh's hyperfine JSON into the "Recording" section of docs/benchmarks.md.

Inputs come from BENCH_* environment variables set by bench.sh (see bench_report.py), plus the commands in
BENCH_CMD_AS and BENCH_CMD_FFMPEG (in that order in the JSON), BENCH_PIECES_AS and BENCH_PIECES_FFMPEG (files
each wrote) and BENCH_V_FFMPEG. Only this section is replaced.
"""
from bench_report import Input, commands, context, cpu, env, results, runs, table, wall, write_section
import json

HEADER = "## Recording (audiostream record)"
TARGET = 10  # ffmpeg's CPU time at least this many times ours

data = Input()
ours, ffmpeg = results()
hours = data.seconds / 3600
ratio = cpu(ffmpeg) / cpu(ours)
verdict = "met" if ratio >= TARGET else "**not met**"


# Each run writes into fresh folders (OUT is bench-data/record-out).
PREPARE = "--shell=none --prepare 'sh -c \"rm -rf OUT; mkdir -p OUT/as OUT/ffmpeg\"'"


def row(result, pieces):
    return [result["command"], pieces, wall(result), f"{cpu(result):.3f}", f"{result['user']:.3f}",
            f"{result['system']:.3f}", f"{cpu(result) / hours:.3f}"]


section = f"""{HEADER}

What it costs to record a stream into files of its own codec without re-encoding: `audiostream record` (the
recorder the daemon runs for `record:`) cuts the input into pieces every 10 minutes of audio, each with its
Xing/LAME header, against `ffmpeg -c copy -f segment` cutting the same input into pieces of the same length, in
the same run. Target: ffmpeg takes at least {TARGET}× our CPU time (user+sys).

{context(env['BENCH_V_FFMPEG'])}

{data.paragraph()}

{commands(env['BENCH_CMD_AS'], env['BENCH_CMD_FFMPEG'], hyperfine_options=PREPARE)}

{table(["Command", "Files", "Wall s (mean ± σ)", "CPU s (user+sys)", "user s", "sys s", "CPU s per hour of audio"],
       [row(ours, env['BENCH_PIECES_AS']), row(ffmpeg, env['BENCH_PIECES_FFMPEG'])])}

Means over {runs} runs, start-up included; the pieces go to a fresh folder on the same file system before each
run. `audiostream record` syncs each piece to the disk before giving it its name (so that a power cut never
leaves a named piece half written); ffmpeg does not, which is most of the difference in system time. A daemon
recording a live stream spends the last column's CPU per hour of it, the parse its subscribers need anyway
included.

**audiostream vs ffmpeg:** ffmpeg takes {ratio:.1f}× our CPU time. Target ≥ {TARGET}×: {verdict}.
"""

live = json.load(open(env["BENCH_LIVE_JSON"]))
streams, seconds = live["streams"], live["seconds"]


def per_stream_hour(cpu_seconds):
    """CPU seconds per recorded stream and hour of audio."""
    return cpu_seconds / streams / seconds * 3600


daemon_with, daemon_without, ffmpeg_live = live["daemonWith"], live["daemonWithout"], live["ffmpeg"]
added = daemon_with - daemon_without
live_ratio = ffmpeg_live / daemon_with
added_ratio = ffmpeg_live / added if added > 0 else float("inf")
# The window's CPU is counted in 10 ms ticks, one or two off on each side of a difference.
added_low, added_high = ffmpeg_live / (added + 0.02), ffmpeg_live / max(added - 0.02, 0.01)


def verdict(ratio):
    return "met" if round(ratio, 1) >= TARGET else "**not met**"

section += f"""
**Live streams.** The daemon's case: {streams} streams of the seed read at real time (`pace: realtime`,
looped), served by one audiostreamd without and then with `record: {{path: …, every: 600}}`, against {streams}
`ffmpeg -re -stream_loop -1 -i SEED -c copy -f segment -segment_time 600` processes recording the same input;
CPU (user+sys, from `/proc/PID/stat`) over {seconds:.0f} s after {live['warmup']:.0f} s of warm-up:

```
{env['BENCH_CMD_LIVE']}
```

{table(["", "CPU s in the window", "CPU s per recorded stream and hour"], [
    ["audiostreamd, streams recorded", f"{daemon_with:.2f}", f"{per_stream_hour(daemon_with):.3f}"],
    ["audiostreamd, streams not recorded", f"{daemon_without:.2f}", f"{per_stream_hour(daemon_without):.3f}"],
    ["what recording adds", f"{added:.2f}", f"{per_stream_hour(added):.3f}"],
    [f"{streams} × ffmpeg -f segment", f"{ffmpeg_live:.2f}", f"{per_stream_hour(ffmpeg_live):.3f}"],
])}

**Live, audiostream vs ffmpeg:** recording a stream the daemon serves anyway adds {added_ratio:.1f}× less CPU than
ffmpeg spends recording it (target ≥ {TARGET}×: {verdict(added_ratio)}; with the kernel's 10 ms ticks, ±0.02 s on
the difference, between {added_low:.1f}× and {added_high:.1f}×); a daemon that only records spends {live_ratio:.1f}×
less than ffmpeg, its reading of the source at real time and its parse included ({verdict(live_ratio)}).
"""

write_section(HEADER, section)
