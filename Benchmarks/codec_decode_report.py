"""Turns bench.sh's hyperfine JSON for one codec (BENCH_FORMAT: adts or opus) into its "AAC decode speed" or
"Opus decode speed" section of docs/benchmarks.md.

Inputs come from BENCH_* environment variables set by bench.sh (see bench_report.py), plus the commands in
BENCH_CMD_AS and BENCH_CMD_FF (in that order in the JSON), the versions in BENCH_V_FFMPEG and BENCH_V_LIBAVCODEC,
the checked output in BENCH_PCM_BYTES and BENCH_PCM_MD5 and, when valgrind counted them, the instructions in
BENCH_IR_FILE (a line a command, ours then ffmpeg's: on the seed, then on the larger input BENCH_IR_INPUT), with
the commands as run in BENCH_IR_COMMANDS. Only this section is replaced.
"""
from bench_report import (Input, commands, context, cpu, decode_row, env, percent, results, runs, table, versus,
                          write_section)

HEADERS = {"adts": "## AAC decode speed (audiostream decode)", "opus": "## Opus decode speed (audiostream decode)"}
CODECS = {"adts": "AAC-LC", "opus": "Opus"}
AFTER = {"adts": "## Decode speed (audiostream decode)", "opus": HEADERS["adts"]}
TARGET = 1.05  # audiostream's CPU time at most this times ffmpeg's (issue 16)
BYTES_PER_FRAME = 2 * 2  # s16 stereo

format_name = env["BENCH_FORMAT"]
header, codec = HEADERS[format_name], CODECS[format_name]
data = Input()
ours, ffmpeg = results()
pcm_bytes = int(env["BENCH_PCM_BYTES"])
cpu_ratio, wall_ratio, verdict = versus(ours, ffmpeg, TARGET)
output_rate = 48000 if format_name == "opus" else data.rate


def row(r):
    return decode_row(r, ffmpeg, data)


def instructions():
    """The callgrind paragraph, or a line saying why there is none."""
    path = env.get("BENCH_IR_FILE")
    if not path:
        return "Instructions were not counted (valgrind not installed, or BENCH_CODEC_COUNT_MIN=0)."
    (ours_seed, ours_large), (ff_seed, ff_large) = [map(int, line.split("\t")) for line in open(path).read().split("\n") if line]
    seed_packets, large_packets = int(env["BENCH_IR_SEED_PACKETS"]), int(env["BENCH_IR_PACKETS"])
    added = large_packets - seed_packets
    per_packet = lambda seed, large: (large - seed) / added
    start_up = lambda seed, large: seed - per_packet(seed, large) * seed_packets
    ours_packet, ff_packet = per_packet(ours_seed, ours_large), per_packet(ff_seed, ff_large)
    rows = [["audiostream decode --raw", f"{ours_seed:,}", f"{ours_large:,}", f"{ours_packet:,.0f}",
             f"{start_up(ours_seed, ours_large) / 1e6:,.1f} M", f"{ours_packet / ff_packet:.3f}×"],
            ["ffmpeg -f s16le", f"{ff_seed:,}", f"{ff_large:,}", f"{ff_packet:,.0f}",
             f"{start_up(ff_seed, ff_large) / 1e6:,.1f} M", "1.000×"]]
    commands_run = open(env["BENCH_IR_COMMANDS"]).read().strip()
    return f"""**Instructions** ({env['BENCH_V_VALGRIND']}, callgrind; a count that, unlike time, a busy machine does not
move), on the seed `{env['BENCH_IR_SEED']}` ({seed_packets:,} packets) and on `{env['BENCH_IR_INPUT']}`
({large_packets:,} packets); the difference over the {added:,} packets the larger input adds is the cost of a
packet, start-up excluded; start-up is what is left of the seed's count. Ours runs as a copy without debug
information (valgrind cannot read Swift's DWARF 5); the code is the same.

```
{commands_run}
```

{table(["Command", "Instructions (seed)", "Instructions (larger)", "Per packet", "Start-up", "Per packet vs ffmpeg"],
       rows)}"""


section = f"""{header}

How fast `audiostream decode --raw` turns a large {codec} stream into 16-bit PCM (our parser cuts the packets,
libavcodec decodes them, our conversion makes s16) against `ffmpeg`, whose demuxer feeds the same libavcodec
decoder and whose libswresample converts, timed in the same run. Both write raw s16le PCM to /dev/null.
Target (issue 16): `audiostream decode` takes at most {(TARGET - 1) * 100:.0f} % more CPU time (user+sys) than `ffmpeg`.

{context(env['BENCH_V_FFMPEG'], f"libavcodec {env['BENCH_V_LIBAVCODEC']} for both")}

{data.paragraph()}

**Same output, checked before timing:** both commands write {pcm_bytes:,} bytes
({pcm_bytes / BYTES_PER_FRAME / output_rate:,.1f} s of {output_rate / 1000:g} kHz stereo s16) with MD5
`{env['BENCH_PCM_MD5']}`; the benchmark refuses to time them otherwise.

{commands(env['BENCH_CMD_AS'], env['BENCH_CMD_FF'], hyperfine_options="--shell=none --output=null")}

{table(["Command", "Wall s (mean ± σ)", "CPU s (user+sys)", "user s", "sys s", "× realtime", "CPU vs ffmpeg"],
       [row(r) for r in (ours, ffmpeg)])}

Wall and CPU are whole-process means over {runs} runs (start-up included), output to /dev/null; × realtime =
audio duration / wall time. Per packet, `audiostream decode` takes {cpu(ours) / data.packets * 1e6:.2f} µs of CPU,
`ffmpeg` {cpu(ffmpeg) / data.packets * 1e6:.2f} µs.

**audiostream vs ffmpeg:** CPU time {cpu_ratio:.3f}× ffmpeg's ({percent(cpu_ratio)}),
wall time {wall_ratio:.3f}× ({percent(wall_ratio)}). Target ≤ {TARGET:.2f}×: {verdict}.

{instructions()}
"""

write_section(header, section, after=AFTER[format_name])
