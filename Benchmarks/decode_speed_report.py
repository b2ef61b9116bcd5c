"""Turns bench.sh's hyperfine JSON into the "Decode speed" section of docs/benchmarks.md.

Inputs come from BENCH_* environment variables set by bench.sh (see bench_report.py), plus the
commands in BENCH_CMD_AS and BENCH_CMD_MPG123 (in that order in the JSON), the versions in
BENCH_V_MPG123, BENCH_V_LIBMPG123 and BENCH_DECODER, and the checked output in BENCH_PCM_BYTES and
BENCH_PCM_MD5. Only this section is replaced.
"""
from bench_report import (Input, commands, context, cpu, decode_row, env, percent, results, runs, table, versus,
                          write_section)

HEADER = "## Decode speed (audiostream decode)"
TARGET = 1.05  # audiostream's CPU time at most this times mpg123's
BYTES_PER_FRAME = 2 * 2  # s16 stereo

data = Input()
ours, mpg123 = results()
pcm_bytes = int(env["BENCH_PCM_BYTES"])
cpu_ratio, wall_ratio, verdict = versus(ours, mpg123, TARGET)


def row(r):
    return decode_row(r, mpg123, data)


section = f"""{HEADER}

How fast `audiostream decode --raw` turns a large MP3 into 16-bit PCM (our parser cuts the
packets, libmpg123 decodes them), against the `mpg123` program decoding the same file with the
same library, timed in the same run. Both write raw s16 PCM to standard output, which goes to /dev/null.
Target: `audiostream decode` takes at most {(TARGET - 1) * 100:.0f} % more CPU time (user+sys) than `mpg123`.

{context(env['BENCH_V_MPG123'], f"libmpg123 {env['BENCH_V_LIBMPG123']} for both, with its automatic decoder choice, {env['BENCH_DECODER']}")}

{data.paragraph()}

**Same output, checked before timing:** both commands write {pcm_bytes:,} bytes
({pcm_bytes / BYTES_PER_FRAME / data.rate:,.1f} s of 44.1 kHz stereo s16) with MD5 `{env['BENCH_PCM_MD5']}`;
the benchmark refuses to time them otherwise.

{commands(env['BENCH_CMD_AS'], env['BENCH_CMD_MPG123'], hyperfine_options="--shell=none --output=null")}

{table(["Command", "Wall s (mean ± σ)", "CPU s (user+sys)", "user s", "sys s", "× realtime", "CPU vs mpg123"],
       [row(r) for r in (ours, mpg123)])}

Wall and CPU are whole-process means over {runs} runs (start-up included), standard output to
/dev/null (`--output=null`); × realtime = audio duration / wall time. Per MPEG frame,
`audiostream decode` takes {cpu(ours) / data.packets * 1e6:.2f} µs of CPU, `mpg123` {cpu(mpg123) / data.packets * 1e6:.2f} µs.

**audiostream vs mpg123:** CPU time {cpu_ratio:.3f}× mpg123's ({percent(cpu_ratio)}),
wall time {wall_ratio:.3f}× ({percent(wall_ratio)}). Target ≤ {TARGET:.2f}×: {verdict}.
"""

write_section(HEADER, section)
