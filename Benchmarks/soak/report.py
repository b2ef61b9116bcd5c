#!/usr/bin/env python3
"""Writes the section "## Soak (make soak)" of docs/benchmarks.md from soak.csv and summary.json.

Usage: report.py SOAK_CSV SUMMARY_JSON DOC PLOT_PNG
"""
import csv
import datetime
import json
import os
import subprocess
import sys
import textwrap

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
os.environ.setdefault("BENCH_RUNS", "1")  # bench_report reads bench.sh's environment, unused by write_section
import streams  # noqa: E402
import bench_report  # noqa: E402  (one way of rewriting a section of the report, shared with make bench)

HEADER = "## Soak (make soak)"
ROWS = [  # (what, column, format)
    ("RSS (MiB)", "rss_mib", "{:.1f}"),
    ("heap in use (MiB)", "heap_mib", "{:.1f}"),
    ("open descriptors", "fds", "{:.0f}"),
    ("clients the harness holds open", "harness_connections", "{:.0f}"),
    ("threads", "threads", "{:.0f}"),
    ("socket subscribers", "subscribers", "{:.0f}"),
    ("HTTP listeners", "listeners", "{:.0f}"),
    ("packets dropped for slow clients (running total)", "dropped", "{:,.0f}"),
    ("ICY source reconnects (running total)", "reconnects", "{:.0f}"),
    ("reloads (SIGHUP)", "reloads", "{:.0f}"),
    ("well-behaved clients' reconnects after `restartedByReload`", "checker_reconnects", "{:.0f}"),
]


def paragraph(*sentences):
    return textwrap.fill(" ".join(sentence for sentence in sentences if sentence), width=115)


def main(csv_path, summary_path, doc, plot):
    rows = [{key: float(value) for key, value in row.items()} for row in csv.DictReader(open(csv_path))]
    summary = json.load(open(summary_path))
    warm = next((row for row in rows if row["seconds"] >= summary["warmup_seconds"]), rows[-1])
    cells = lambda column, form: [form.format(row[column]) for row in (rows[0], warm, rows[-1])]
    table = bench_report.table(
        ["", f"start ({rows[0]['seconds']:.0f} s)", f"after warm-up ({warm['seconds']:.0f} s)",
         f"end ({rows[-1]['seconds']:.0f} s)"],
        [[what, *cells(column, form)] for what, column, form in ROWS])
    mean = lambda column: sum(row[column] for row in rows[1:]) / max(1, len(rows) - 1)
    revision = os.environ.get("SOAK_REVISION") or subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    failures = summary["failures"]
    verdict = ("**Passed.**" if not failures else
               "**Failed:**\n" + "\n".join(f"- {failure}" for failure in failures))
    rules = ""
    if "rss_growth" in summary:
        rules = (f"Medians of the first and last {summary['window_samples']} samples after the warm-up: RSS "
                 f"{summary['rss_after_warmup']:.1f} → {summary['rss_end']:.1f} MiB ({summary['rss_growth']:+.1%}), "
                 f"heap in use {summary['heap_after_warmup']:.1f} → {summary['heap_end']:.1f} MiB, RSS beyond the "
                 f"heap {summary['beyond_heap_after_warmup']:.1f} → {summary['beyond_heap_end']:.1f} MiB "
                 f"({summary['rss_growth_beyond_heap']:+.1%} of RSS; limit +5 %), with "
                 f"{summary['clients_after_warmup']:.0f} → {summary['clients_end']:.0f} subscribers and listeners "
                 f"connected and {summary['queued_after_warmup']:.0f} → {summary['queued_end']:.0f} s of audio "
                 f"queued for them. The heap in use, fitted over the run after the warm-up (error "
                 f"{summary['heap_fit_error_mib']:.1f} MiB): {summary['heap_per_client_kib']:.1f} KiB per client, "
                 f"{summary['heap_per_queued_second_kib']:.1f} KiB per second queued, and "
                 f"{summary['heap_unexplained_mib']:+.1f} MiB that neither explains "
                 f"({summary['heap_growth_unexplained']:+.1%}; limit +5 %). Descriptors beyond the daemon's "
                 f"subscribers and listeners {summary['excess_fds_after_warmup']:.0f} → "
                 f"{summary['excess_fds_end']:.0f} (limit +32). Before the crowd came and once it had left: "
                 f"descriptors {summary['fds_before_crowd']} and {summary['fds_after_crowd']} (limit +2), heap in "
                 f"use {summary['heap_before_crowd']:.1f} and {summary['heap_after_crowd']:.1f} MiB (not judged: the "
                 f"first is taken before the crowd's first requests of each kind made what the daemon keeps).")
    checked = (f"The well-behaved socket subscribers checked {summary['checked_packets']:,} packets; the "
               f"{summary.get('hls_players', 0)} HLS players fetched {summary.get('hls_parts', 0):,} parts.")
    cpu = (f"Mean CPU: audiostreamd {mean('daemon_cpu_percent'):.1f} %, the harness (Python asyncio: clients, standard "
           f"input and sampling in one process, the station in another) {mean('harness_cpu_percent'):.1f} % of one core.")
    section = f"""{HEADER}

audiostreamd serving {len(streams.STREAMS)} live streams to {summary['socket_clients']} unruly socket subscribers and
{summary['http_clients']} unruly HTTP listeners for {summary['minutes']:g} minutes, with a reload every minute.

Run on {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC at revision `{revision}` by
`{os.environ.get('SOAK_COMMAND', 'make soak')}` ({os.cpu_count()} CPUs, load average
{open('/proc/loadavg').read().split()[0]} at the end). {verdict}

{table}

{paragraph(rules, checked, cpu)}

![The soak over time]({os.path.relpath(plot, os.path.dirname(doc) or '.')})

**What runs** (Benchmarks/soak/; samples every 5 s in `.build-soak/soak.csv`). Streams: files paced at real time
and looped (128 kb/s CBR MP3, VBR MP3 `lame -V 2`, 64 kb/s mono MP3, AAC-LC at 128 kb/s stereo in ADTS and at 48
kb/s mono in an M4A with its moov first, Ogg Vorbis, Ogg Opus: one minute of pink noise and a tone), an ICY
station on 127.0.0.1 (MP3 with `icy-metaint` titles; it drops
each connection after 5 to 45 s), random bytes over HTTP (16,000 B/s) and standard input (MP3 at real time).
Five streams (VBR MP3, M4A, Vorbis, the ICY station and the push mount) have their loudness measured all along
(`monitor: {{loudness: true}}`), the last two judged for dead air too (`silence:`). Reloads alternate: odd ones move `mp3-swap` to its other file (a restart: its subscribers get
`restartedByReload`), even ones change `ogg-vorbis`'s `queueSeconds` (applied live: nobody is dropped). The crowd:
each client connects to a random stream and, for 2 to 40 s, reads promptly, reads a few KiB every 0.5 to 2 s, or
stalls (through a 4 KiB receive buffer, so the daemon's queue fills), or sends no hello, a bad hello, a request
for a missing mount or half a request head; half leave with a reset; another takes its place. Well-behaved
clients, one socket subscriber per stream (two more of PCM) and one HTTP listener per MP3 file stream, read at
once and check that nothing is missing: no `overflow`, each packet's (and PCM message's) timestamp the
previous one's plus its frames, an HTTP body equal to the file's bytes looped; only a reload's restart may end
them, and they connect again. Five streams are also served as Low-Latency HLS (`mp3-cbr`, `aac-adts`,
`stdin` and `live` packed, `ogg-opus` in fmp4; 2 s segments, 0.5 s parts), each to 20 players that wait for
every part with a blocking reload (delta updates) on a kept-alive connection and fetch it: every reload must be
answered 200, the media sequence never go back, every part listed be fetched whole.

**Fails when**, after the warm-up ({summary['warmup_seconds']:.0f} s: 10 % of the run, at least a minute): RSS
beyond the heap in use grows by more than 5 % of RSS; the heap in use grows by more than 5 % beyond what the
clients connected and the audio queued for them explain (least squares over the samples); descriptors beyond
the clients connected grow by more than 32, or the daemon holds more than 2 descriptors more once the crowd has
left than before it came; a well-behaved client misses anything; a stream's packet count (the random stream's
bytes read, as it never has a packet) stands still for 15 s, since none of the sources ends. Memory is judged on
the heap in use (`audiostream_heap_in_use_bytes`, glibc's own count) as well as RSS, and against the crowd's
size and queues, because the crowd's size wanders by a tenth over a run (its clients' lifetimes are random, and
the daemon closes the ones that stall) and a loaded machine makes the harness read slower, so the daemon's
queues hold more: neither is a leak, and a rule on raw RSS failed on them alone.
"""
    os.environ["BENCH_DOC"] = doc
    bench_report.write_section(HEADER, section)


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    main(*sys.argv[1:])
