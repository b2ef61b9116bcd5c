"""Turns bench.sh's hyperfine JSON into the "Parse speed" section of docs/benchmarks.md.

Inputs come from BENCH_* environment variables set by bench.sh (see bench_report.py), plus the
commands in BENCH_CMD_AS, BENCH_CMD_FF and BENCH_CMD_GST. Only this section is replaced.
"""
from bench_report import Input, commands, context, cpu, env, results, runs, table, wall, write_section

HEADER = "## Parse speed (audiostream scan)"
TARGET = 10.0  # audiostream must be at least this many times faster than the faster peer

data = Input()
timed = results()


def row(r):
    return [r["command"], wall(r), f"{cpu(r):.3f}", f"{data.bytes / 1e6 / r['mean']:,.0f}",
            f"{data.packets / r['mean']:,.0f}", f"{data.realtime(r):,.0f}×"]


ours = timed[0]
peer = min(timed[1:], key=lambda r: r["mean"])
speedup = peer["mean"] / ours["mean"]
cpu_ratio = cpu(peer) / cpu(ours)
verdict = "met" if speedup >= TARGET else "**not met**"

section = f"""{HEADER}

How fast the parser cuts a large MP3 into packets, against the parsers of FFmpeg
and GStreamer doing the same job (demux/parse, no decode), timed in the same run.
Target: `audiostream scan` at least {TARGET:.0f}× faster (wall time) than the faster peer.

{context(env['BENCH_V_FFMPEG'], env['BENCH_V_GST'])}

{data.paragraph()}

{commands(env['BENCH_CMD_AS'], env['BENCH_CMD_FF'], env['BENCH_CMD_GST'])}

{table(["Command", "Wall s (mean ± σ)", "CPU s (user+sys)", "MB/s", "MPEG frames/s", "× realtime"],
       [row(r) for r in timed])}

Wall and CPU are whole-process means over {runs} runs (start-up included); MB = 10⁶ bytes;
× realtime = audio duration / wall time. Per frame, `audiostream scan` takes
{ours['mean'] / data.packets * 1e9:,.0f} ns (wall).

**audiostream vs the faster peer ({peer['command']}):** {speedup:.1f}× faster in wall time,
{cpu_ratio:.1f}× less CPU. Target ≥ {TARGET:.0f}×: {verdict}.
"""

write_section(HEADER, section)
