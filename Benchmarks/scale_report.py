"""Turns `SubscriberLoad scale`'s JSON reports into the "Many streams and many subscribers" section of
docs/benchmarks.md.

bench.sh sets BENCH_REPORTS (the JSON files, one a run), BENCH_COMMANDS (a file of the commands as they ran),
BENCH_SCALE_WARMUP, and the input's BENCH_INPUT, BENCH_BYTES, BENCH_PACKETS (ffprobe's frame count) and BENCH_MADE,
besides the variables every section shares (see bench_report.py). Only this section is replaced.
"""
import json
import statistics

from bench_report import context, env, table, write_section
from fanout_columns import audiostreamd_count, frames, latencies, losses, no_drops

HEADER = "## Many streams and many subscribers (audiostreamd)"
AFTER = "## Live fan-out: what each subscriber costs (audiostreamd)"
FLAT_LIMIT = 5  # % RSS may grow from the end of the warm-up to the end of the feed, as for the soak
MEDIAN_OF = 10  # seconds of samples whose median stands for "after the warm-up" and "at the end", as for the soak
SHOWN_EVERY = 5  # seconds between the samples the section lists

reports = [json.load(open(path)) for path in env["BENCH_REPORTS"].split()]
input_packets = int(env["BENCH_PACKETS"])
first = reports[0]["run"]
frame_ms = first["frameSeconds"] * 1000
commands = open(env["BENCH_COMMANDS"]).read().strip()
warmup = int(env["BENCH_SCALE_WARMUP"])


def name(r):
    run = r["run"]
    kind = "HTTP listeners" if run["relay"] == "audiostreamd-http" else "socket subscribers"
    per_stream = run["subscribers"] // r["streams"]
    return f"{r['streams']:,} stream{'s' if r['streams'] > 1 else ''} × {per_stream:,} {kind}"


for r in reports:
    run = r["run"]
    if run["inputFrames"] != input_packets:
        raise SystemExit(f"the generator found {run['inputFrames']} frames, ffprobe {input_packets}")
    if run["earlyFrames"]:
        raise SystemExit(f"{name(r)}: {run['earlyFrames']} frames arrived before the write that makes them "
                         "sendable: the latency definition does not hold")

most_on_one = max((r["run"]["subscribers"] for r in reports if r["streams"] == 1), default=0)


def mib(kib):
    return f"{kib / 1024:.1f}"


def warm(r):
    """RSS after the warm-up and at the end of the feed: medians of the first and the last seconds of samples."""
    samples = r["relayMemoryTimeline"]["everySecondKiB"]
    return statistics.median(samples[warmup:warmup + MEDIAN_OF]), statistics.median(samples[-MEDIAN_OF:])


def growth(r):
    """RSS at the end of the feed over RSS after the warm-up, as a percentage."""
    after_warmup, end = warm(r)
    return (end / after_warmup - 1) * 100


def delivery_row(r):
    run = r["run"]
    return [name(r), f"{run['subscribers']:,}", frames(run), losses(run), audiostreamd_count(run), *latencies(run),
            f"{run['relayCPUPercent']:.1f}", f"{run['generatorCPUPercent']:.1f}",
            " / ".join(f"{load:.2f}" for load in r["loadAverage"]), f"{run['connectSeconds']:.1f}"]


def memory_row(r):
    memory, subscribers = r["relayMemoryTimeline"], r["run"]["subscribers"]
    before = memory["beforeSubscribersKiB"]
    after_warmup, end = warm(r)
    return [name(r), mib(before), mib(memory["subscribedKiB"]), mib(after_warmup), mib(end), mib(memory["peakKiB"]),
            f"{(memory['subscribedKiB'] - before) / subscribers:.1f}", f"{(end - before) / subscribers:.1f}",
            f"{growth(r):+.1f} %".replace("-", "−")]


DELIVERY = ["Run", "Subscribers", "Frames received / expected", "Missing / overflow (dropped) / closed early",
            "audiostreamd's own count", "Relay latency ms p50 / p99 / max", "Own-bytes latency ms p50 / p99",
            "audiostreamd CPU % of one core", "Generator CPU %", "Load average 1 / 5 / 15 min", "Connect s"]
MEMORY = ["Run", "RSS MiB: streams, no subscribers", "subscribed, before the feed", "after the warm-up",
          "end of the feed", "peak", "KiB per subscriber: connected", "at the end of the feed",
          "Growth after the warm-up"]


def samples_shown(r):
    samples = r["relayMemoryTimeline"]["everySecondKiB"]
    return f"- {name(r)}: " + ", ".join(mib(kib) for kib in samples[::SHOWN_EVERY])


def verdict(r):
    flat = growth(r) <= FLAT_LIMIT
    samples = r["relayMemoryTimeline"]["everySecondKiB"][warmup:]
    return (f"- {name(r)}: no drops — {'met' if no_drops(r['run']) else '**not met**'}; RSS flat after the "
            f"warm-up — {'met' if flat else '**not met**'} ({growth(r):+.1f} %, limit +{FLAT_LIMIT} %; every "
            f"sample after the warm-up within {mib(min(samples))} to {mib(max(samples))} MiB)")


mismatches = sum(r["run"]["mismatches"] for r in reports)
checked = ("Every packet and every listener read was compared with the bytes fed at its offset: all matched."
           if mismatches == 0 else
           f"**{mismatches} deliveries differed from the bytes fed at their offset** (see the JSON reports).")

section = f"""{HEADER}

Issue 17's third target: 20,000 subscribers on one stream, and 200 streams × 50 subscribers, with no drops, the
memory each subscriber costs, and memory flat after the warm-up. One stream holds {most_on_one:,} here, not 20,000:
the machine's hard limit of open files is 20,000 per process (`ulimit -Hn`, root included), and audiostreamd needs
a few dozen descriptors of its own besides one per subscriber.

{context(timer=None)}

**Input:** `{env['BENCH_INPUT']}`, {int(env['BENCH_BYTES']):,} bytes, 128 kb/s CBR MPEG-1 Layer III, 44.1 kHz,
{input_packets:,} frames (ffprobe; the generator's parser found as many), made as for the sections above:
`{env['BENCH_MADE']}`.

**Commands** (`BENCH_ONLY=scale bash Benchmarks/bench.sh` runs them one after the other, with `ulimit -n` raised to
its hard limit; `BENCH_SCALE`, `BENCH_SCALE_HTTP`, `BENCH_SCALE_WARMUP`, `BENCH_SCALE_WINDOW` and `BENCH_SCALE_MIN`
set the runs):

```
{commands}
```

**How.** `SubscriberLoad scale` (Benchmarks/SubscriberLoad: one thread, non-blocking sockets, epoll) makes a named
pipe per stream, starts audiostreamd with S streams, each `source: file:PIPE` with `pace: none` (read on a thread
of its own, as standard input is), default subscriber limits, and connects N subscribers to each stream in turn
(hello `{{"protocol":1,"kinds":["packets"],"pcm":"s16","burst":0}}`), or N HTTP listeners of each stream's mount
(`GET /NAME` over loopback TCP, `http: {{listen: "127.0.0.1:PORT", formatWait: 600}}`). Once audiostreamd counts
every one (its status on the control socket), the generator writes the MP3 one frame per `write` to every pipe in
turn at real-time pace (a frame every {frame_ms:.1f} ms), reads every subscriber on the same thread, and closes
the pipes after the last frame, which ends the streams and the daemon. Each run feeds {warmup} s of warm-up
(longer than the streams' 10 s of history, which fills over the first 10 s), a measured window of
{first['windowFrames']:,} frames ({first['windowSeconds']:.1f} s), then the rest of the input, over which only
memory and the counts of losses are followed: the generator keeps a latency per subscriber and frame of the window,
so a longer one would take gigabytes at 19,900 subscribers.

**Drops.** Every subscriber checks each packet against the bytes fed at its offset and counts the window's frames it
received: missing is subscribers that lacked any (a packet dropped, a stream stalled or a connection lost all
show there); overflow counts audiostreamd's overflow discontinuity events over the whole feed, with the packets
they said were dropped; closed early, connections that ended before the feed did. audiostreamd's own count is its
status after the feed, summed over its streams. {checked}

**Latency**, as in the fan-out section above (receipt minus the write that made the frame sendable, or the write of
its own bytes), from the write of each frame to the first stream's pipe: for later streams it includes the
generator's writes to the pipes before theirs, so the figures are upper bounds.

**Memory.** VmRSS of audiostreamd from /proc/PID/status: once its streams run but before any subscriber connects,
once it counts every subscriber (before the feed), and every second of the feed; its peak is VmHWM at the last
of those samples. After the warm-up and at the end of the feed are medians of {MEDIAN_OF} samples (the {MEDIAN_OF} s after the
warm-up, the last {MEDIAN_OF} s), as for the soak below. KiB per subscriber: (RSS subscribed − RSS before
subscribers) / subscribers, the cost of the connections themselves; at the end of the feed, the same from the RSS
at its end, which also holds what the streams buffered (their history: 10 s of 128 kb/s, 160 KB a stream) and so
overstates a subscriber's own cost when streams are many. CPU: utime + stime from /proc/PID/stat over the window, as a percentage of one core, on 2 cores
shared with other work: the load average at the end of each run is beside it.

{table(DELIVERY, [delivery_row(r) for r in reports])}

{table(MEMORY, [memory_row(r) for r in reports])}

**RSS every {SHOWN_EVERY} s of the feed** (MiB, from its first write; the warm-up ends at {warmup} s):

{chr(10).join(samples_shown(r) for r in reports)}

**Targets:**

{chr(10).join(verdict(r) for r in reports)}
"""

write_section(HEADER, section, after=AFTER)
