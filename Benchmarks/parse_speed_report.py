"""Turns bench.sh's hyperfine JSON into a parse speed section of docs/benchmarks.md: "Parse speed" for
BENCH_FORMAT mpeg, "ADTS parse speed" for adts, "FLAC parse speed" for flac, "Ogg Opus parse speed" for ogg,
"WAVE parse speed" for wave, "M4A parse speed" for m4a.

Inputs come from BENCH_* environment variables set by bench.sh (see bench_report.py), plus the
commands in BENCH_CMD_AS, BENCH_CMD_FF and BENCH_CMD_GST (empty when GStreamer was not timed), and, when
instructions were counted, BENCH_IR_FILE and BENCH_IR_COMMANDS (see count_instructions in bench.sh),
BENCH_IR_SKIPPED, BENCH_IR_SEED, BENCH_IR_SEED_PACKETS, BENCH_IR_INPUT, BENCH_IR_BYTES, BENCH_IR_PACKETS and
BENCH_V_VALGRIND.
Only this section is replaced.
"""
from bench_report import Input, commands, context, cpu, env, results, runs, table, wall, write_section

TARGET = 10.0  # audiostream must be at least this many times faster than the faster peer
SECTIONS = {  # BENCH_FORMAT: (heading, what is parsed, the section it follows in the report)
    "mpeg": ("## Parse speed (audiostream scan)", "a large MP3", None),
    "adts": ("## ADTS parse speed (audiostream scan)", "a large AAC file in ADTS framing (as AAC radio stations send it)",
             "## Parse speed (audiostream scan)"),
    "flac": ("## FLAC parse speed (audiostream scan)", "a large native FLAC file",
             "## ADTS parse speed (audiostream scan)"),
    "ogg": ("## Ogg Opus parse speed (audiostream scan)", "a large Ogg Opus file (as Icecast Ogg stations send it)",
            "## FLAC parse speed (audiostream scan)"),
    "wave": ("## WAVE parse speed (audiostream scan)", "a large WAVE file (16-bit PCM)",
             "## Ogg Opus parse speed (audiostream scan)"),
    "m4a": ("## M4A parse speed (audiostream scan)", "a large M4A (AAC with its moov first, as podcasts serve it)",
            "## WAVE parse speed (audiostream scan)"),
}
NOTES = {  # BENCH_FORMAT: what the reader should know to compare the figures
    "flac": "\n\nNot the same work: `audiostream scan` runs every frame's CRC-16 (RFC 9639 §9.3) over all its bytes, "
            "the check that keeps a sync lookalike in the audio from splitting a packet; GStreamer's flacparse skips it "
            "by default (`check-frame-checksums` is false).",
    "wave": "\n\nNot the same work: PCM frames need no parsing, so `audiostream scan` maps the file and reads only its "
            "chunk headers (the samples' pages are never touched), while `ffmpeg -c copy` reads every byte into its "
            "packets. Read the figure as what each tool costs to find the frames, not as copying speed.",
}

data = Input()
header, what, after = SECTIONS[env["BENCH_FORMAT"]]
timed = results()
peer_commands = [env["BENCH_CMD_FF"], *filter(None, [env["BENCH_CMD_GST"]])]
peer_names = " and ".join(["FFmpeg", "GStreamer"][:len(peer_commands)])
versions = [env["BENCH_V_FFMPEG"], *([env["BENCH_V_GST"]] if env["BENCH_CMD_GST"] else [])]


def row(r):
    return [r["command"], wall(r), f"{cpu(r):.3f}", f"{data.bytes / 1e6 / r['mean']:,.0f}",
            f"{data.packets / r['mean']:,.0f}", f"{data.realtime(r):,.0f}×"]


def instructions():
    """The callgrind paragraph, or nothing when bench.sh did not count."""
    path = env.get("BENCH_IR_FILE")
    counts = [line.split("\t") for line in open(path).read().splitlines()] if path else []
    if not counts:
        return ""
    seed_packets, packets = int(env["BENCH_IR_SEED_PACKETS"]), int(env["BENCH_IR_PACKETS"])
    per_frame = {rev: (int(ir) - int(ir_seed)) / (packets - seed_packets) for rev, ir_seed, ir in counts}
    ours = counts[0][0]
    rows = [[f"`{rev}`", f"{int(ir_seed):,}", f"{int(ir):,}", f"{per_frame[rev]:,.0f}",
             f"{per_frame[rev] / per_frame[ours]:.3f}×"] for rev, ir_seed, ir in counts]
    frame = data.format.frames[:-1]
    baseline = "".join(f" `audiostream-{rev}` is a release build of the earlier revision `{rev}`, stripped the same way."
                       for rev, _, _ in counts[1:])
    if env.get("BENCH_IR_SKIPPED"):
        baseline += f" Not counted: {env['BENCH_IR_SKIPPED']}."
    verdicts = "".join(f"\n\n**Per {frame}, `{ours}` executes {per_frame[ours] / per_frame[rev]:.2f}× the instructions of"
                       f" `{rev}`** ({(per_frame[ours] / per_frame[rev] - 1) * 100:+.1f} %)."
                       for rev, _, _ in counts[1:])
    return f"""

**Instructions**, which unlike wall time a busy machine does not move ({env['BENCH_V_VALGRIND']}):
`audiostream scan` of the seed `{env['BENCH_IR_SEED']}` ({seed_packets:,} {data.format.frames}) and of
`{env['BENCH_IR_INPUT']}` ({int(env['BENCH_IR_BYTES']):,} bytes, {packets:,} {data.format.frames}; every binary
counted found as many as ffprobe). Per {frame}: the difference over the {packets - seed_packets:,} frames the larger
input adds, so start-up is left out. The binaries counted are copies without debug information (valgrind 3.19
cannot read Swift 6's DWARF 5; the code is the same).{baseline}

```
{open(env['BENCH_IR_COMMANDS']).read().strip()}
```

{table(["Revision", "Ir, seed", "Ir, larger input", f"Ir per {frame}", f"per {frame} vs `{ours}`"], rows)}{verdicts}"""


ours = timed[0]
peer = min(timed[1:], key=lambda r: r["mean"])
speedup = peer["mean"] / ours["mean"]
cpu_ratio = cpu(peer) / cpu(ours)
verdict = "met" if speedup >= TARGET else "**not met**"

section = f"""{header}

How fast the parser cuts {what} into packets,
against the parsers of {peer_names} doing the same job (demux/parse, no decode), timed in the same run.
Target: `audiostream scan` at least {TARGET:.0f}× faster (wall time) than the faster peer.

{context(*versions)}

{data.paragraph()}

{commands(env['BENCH_CMD_AS'], *peer_commands)}

{table(["Command", "Wall s (mean ± σ)", "CPU s (user+sys)", "MB/s", f"{data.format.frames}/s", "× realtime"],
       [row(r) for r in timed])}

Wall and CPU are whole-process means over {runs} runs (start-up included); MB = 10⁶ bytes;
× realtime = audio duration / wall time. Per frame, `audiostream scan` takes
{ours['mean'] / data.packets * 1e9:,.0f} ns (wall).

**audiostream vs the faster peer ({peer['command']}):** {speedup:.1f}× faster in wall time,
{cpu_ratio:.1f}× less CPU. Target ≥ {TARGET:.0f}×: {verdict}.{NOTES.get(env["BENCH_FORMAT"], "")}{instructions()}
"""

write_section(header, section, after)
