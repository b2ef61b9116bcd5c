"""Turns SubscriberLoad's JSON reports into the "Live fan-out" section of docs/benchmarks.md.

bench.sh sets BENCH_REPORTS (the JSON files: audiostreamd's with socket subscribers, audiostreamd's with HTTP
listeners, then Icecast's, for each subscriber count), BENCH_FLOORS (`SubscriberLoad floor`'s, on each schedule
for each count),
BENCH_COMMANDS (a file of the commands as they ran), BENCH_SEED_FILE, BENCH_SEED_BYTES, BENCH_SEED_PACKETS
(ffprobe's frame count) and BENCH_V_ICECAST, besides the variables every section shares (see
bench_report.py). Only this section is replaced.
"""
import json

from bench_report import context, env, table, write_section
from fanout_columns import audiostreamd_count, frames, latencies, losses, no_drops

HEADER = "## Live fan-out (audiostreamd)"
TARGET_COUNT = 5000     # subscribers the targets apply to
# CPU at most this share of Icecast's in the same run, by relay; own-bytes latency p99 no worse than Icecast's.
TARGET_CPU_SHARE = {"audiostreamd": 0.55, "audiostreamd-http": 1.0}
TARGET_FLOOR_SHARE = 1.15  # CPU at most this share of the writes alone, on the relay's schedule and mechanism

reports = [json.load(open(path)) for path in env["BENCH_REPORTS"].split()]
floors = [json.load(open(path)) for path in env["BENCH_FLOORS"].split()]
seed_packets = int(env["BENCH_SEED_PACKETS"])
for r in reports:
    if r["inputFrames"] != seed_packets:
        raise SystemExit(f"{r['relay']}: the generator found {r['inputFrames']} frames, ffprobe {seed_packets}")
    if r["earlyFrames"]:
        raise SystemExit(f"{r['relay']} ×{r['subscribers']}: {r['earlyFrames']} frames arrived before the write "
                         "that makes them sendable: the latency definition does not hold")

first = reports[0]
frame_ms = first["frameSeconds"] * 1000
window_frames = first["windowFrames"]
commands = open(env["BENCH_COMMANDS"]).read().strip()
icecast_version = env["BENCH_V_ICECAST"]


def name(r):
    return {"audiostreamd": "audiostreamd (socket subscribers)",
            "audiostreamd-http": "audiostreamd (HTTP listeners)"}.get(r["relay"], icecast_version)


def own_count(r):
    """What the relay says itself about drops and lag."""
    if r["relay"].startswith("audiostreamd"):
        return audiostreamd_count(r)
    return f"{r['relayView']['slowListeners']} slow listeners"


def row(r):
    memory = r["relayMemory"]
    system = r.get("relaySystemCPUPercent")
    cpu = f"{r['relayCPUPercent']:.1f}" + ("" if system is None else f" ({system:.1f})")
    return [name(r), *latencies(r), frames(r), losses(r), own_count(r), cpu,
            f"{memory['residentKiB'] / 1024:.1f} ({memory['peakResidentKiB'] / 1024:.1f})",
            f"{r['generatorCPUPercent']:.1f}", f"{r['connectSeconds']:.1f}"]


HEAD = ["Relay", "Relay latency ms p50 / p99 / max", "Own-bytes latency ms p50 / p99", "Frames received / expected",
        "Missing / overflow (dropped) / closed early", "Relay's own count", "CPU % of one core (system)", "RSS MiB (peak)",
        "Generator CPU %", "Connect s"]

FLOOR_HEAD = ["Writes alone (SubscriberLoad floor)", "Transport", "Sent with", "Bytes per write",
              "Writes per second each", "Writer CPU % of one core", "µs per write", "Short writes"]


def floor_name(f):
    return "Icecast's schedule: whole 1400-byte blocks" if f["bytes"] == 1400 else \
        "audiostreamd's schedule: one write per 0.1 s"


def mechanism(f):
    return f.get("mechanism", "send")


def floor_row(f):
    return [floor_name(f), "loopback TCP" if f["transport"] == "tcp" else "Unix socket",
            "io_uring, a slot a call" if mechanism(f) == "io_uring" else "send(2)", f"{f['bytes']:,}",
            f"{f['rate']:.2f}", f"{f['cpuPercent']:.1f}", f"{f['microsecondsPerWrite']:.2f}", f"{f['shortWrites']}"]


def floor_of(r):
    """The floor measured for a relay's own schedule, transport and way of sending at its subscriber count."""
    transport, size, sent_with = {"audiostreamd": ("unix", 1600, "send"),
                                  "audiostreamd-http": ("tcp", 1600, "io_uring")}.get(r["relay"], ("tcp", 1400, "send"))
    return next((f for f in floors if f["subscribers"] == r["subscribers"] and f["transport"] == transport
                 and f["bytes"] == size and mechanism(f) == sent_with), None)


counts = sorted({r["subscribers"] for r in reports})
tables = "\n\n".join(
    f"### {n:,} subscriber{'s' if n > 1 else ''}\n\n" + table(HEAD, [row(r) for r in reports if r["subscribers"] == n])
    + "\n\n" + table(FLOOR_HEAD, [floor_row(f) for f in floors if f["subscribers"] == n])
    for n in counts)


def verdict():
    icecast = next((r for r in reports if r["relay"] == "icecast2" and r["subscribers"] == TARGET_COUNT), None)
    ours = [r for r in reports if r["relay"].startswith("audiostreamd") and r["subscribers"] == TARGET_COUNT]
    if icecast is None or not ours:
        return f"The targets apply to {TARGET_COUNT:,} subscribers, which this run did not measure."
    def judged(met, shown):
        return f"{'met' if met else '**not met**'} ({shown})"

    lines = []
    for r in ours:
        cpu, p99 = r["relayCPUPercent"], r["ownBytesLatency"]["p99"]
        share = TARGET_CPU_SHARE[r["relay"]]
        limit, icecast_p99 = icecast["relayCPUPercent"] * share, icecast["ownBytesLatency"]["p99"]
        # CPU per subscriber and second of audio: what each listener costs, whatever the writes are made of.
        per_subscriber = cpu / 100 * 1e6 / TARGET_COUNT
        against_icecast = f"{cpu:.1f} % against {limit:.1f} %, {cpu / icecast['relayCPUPercent']:.2f}×"
        floor = floor_of(r)
        # The kernel's part alone (system time) against the floor, which is nearly all system time itself.
        system = r.get("relaySystemCPUPercent")
        kernel_alone = "" if floor is None or system is None else \
            f"; its system time alone, {system:.1f} %, is {system / floor['cpuPercent']:.2f}× the floor"
        beneath = "" if floor is None else (
            f"; within {TARGET_FLOOR_SHARE:.2f}× of its writes alone ({floor['cpuPercent']:.1f} %, "
            f"{'io_uring' if mechanism(floor) == 'io_uring' else 'send(2)'}) — "
            + judged(cpu <= floor["cpuPercent"] * TARGET_FLOOR_SHARE, f"{cpu / floor['cpuPercent']:.2f}×")
            + kernel_alone)
        lines.append(
            f"- {name(r)}: no drops — {'met' if no_drops(r) else '**not met**'}; CPU at most {share:g}× Icecast's "
            f"— {judged(cpu <= limit, against_icecast)}; "
            f"own-bytes latency p99 no worse than Icecast's "
            f"— {judged(p99 <= icecast_p99, f'{p99:.1f} ms against {icecast_p99:.1f} ms')}{beneath}; "
            f"{per_subscriber:.1f} µs of CPU per subscriber and second of audio.")
    icecast_per = icecast["relayCPUPercent"] / 100 * 1e6 / TARGET_COUNT
    icecast_floor = floor_of(icecast)
    icecast_share = "" if icecast_floor is None else \
        f"; its writes alone, on its schedule, cost {icecast_floor['cpuPercent']:.1f} %"
    return (f"**Targets at {TARGET_COUNT:,} subscribers** (Icecast: {icecast_per:.1f} µs of CPU per listener and "
            f"second of audio{icecast_share}):\n\n" + "\n".join(lines))


mismatches = sum(r["mismatches"] for r in reports)
checked = ("Every packet (audiostreamd) and every listener read (Icecast) was compared with the bytes fed at its "
           "offset: all matched." if mismatches == 0 else
           f"**{mismatches} deliveries differed from the bytes fed at their offset** (see the JSON reports).")

section = f"""{HEADER}

One live 128 kb/s stream fanned out to 1, 100, 1,000 and 5,000 local subscribers: latency from input byte
to subscriber receipt, drops, and the relay's CPU and memory, against Icecast with as many HTTP listeners,
measured in the same run by the same load generator.
Targets: at 5,000 subscribers, no drops, own-bytes latency p99 no worse than Icecast's, CPU at most 0.55× Icecast's
for socket subscribers and at most Icecast's for HTTP listeners, and each within 1.15× of what its writes alone
cost on its schedule, sent the way the daemon sends them.

{context(icecast_version, timer=None)}

**Input:** `{env['BENCH_SEED_FILE']}`, {int(env['BENCH_SEED_BYTES']):,} bytes, 128 kb/s CBR MPEG-1 Layer III, 44.1 kHz,
{seed_packets:,} frames (ffprobe; the generator's parser found as many), made as for the sections above:
`{env['BENCH_SEED']}`.

**Commands** (`BENCH_ONLY=daemon make bench` runs them, one count after the other, with `ulimit -n` raised to its
hard limit; each `icecast2` was stopped after its run):

```
{commands}
```

**How.** `SubscriberLoad` (Benchmarks/SubscriberLoad: one thread, non-blocking sockets, epoll) writes the MP3 one
frame per `write` at real-time pace (a frame every {frame_ms:.1f} ms) and reads every subscriber on the same
thread. For audiostreamd it starts the daemon (`audiostreamd --config FOLDER/config.yaml --log-level warning`)
with one stream, `source: stdin`, default subscriber limits (queueSeconds 5, disconnectAfter 10, historySeconds 10,
writeInterval 0.1: each subscriber gets what is due in one write every 0.1 s at most),
feeds its standard input through a pipe, and connects each subscriber to the stream socket with the hello
`{{"protocol":1,"kinds":["packets"],"pcm":"s16","burst":0}}`; in a second run it also serves the stream over
HTTP (`http: {{listen: "127.0.0.1:PORT", formatWait: 600}}`) and connects N HTTP listeners instead, each a
`GET /bench` over loopback TCP as Icecast's listeners do, waiting for the stream's format until the first byte is
fed. For Icecast, bench.sh starts `icecast2` on
127.0.0.1 with a generated configuration (`<clients>` N + 100, `<burst-on-connect>0`, `<burst-size>0`,
`<queue-size>524288` (the default), `<source-timeout>60`); the generator is its source (HTTP `PUT` of
`audio/mpeg` with basic auth, fed the same frames the same way) and its N listeners `GET` the mount over
loopback TCP, one connect per millisecond (Icecast 2.4 listens with a backlog of 5, and a burst of connects
overflows it). Every subscriber is connected, and counted by the relay itself (`audiostream status` on the
control socket; Icecast's `/admin/stats`), before the first byte is fed. Each run feeds 3 s of warm-up, a
measured window of {window_frames:,} frames ({first['windowSeconds']:.1f} s), then 2 s more so the window's last
frames can get out.

**Latency.** *Relay latency*: time of receipt by the subscriber minus the time of the write that
made the frame sendable. audiostreamd's parser emits a frame only once the next frame's header has arrived
(its confirmation rule), so for audiostreamd that is the write carrying the following frame; Icecast 2.4 queues
MP3 in 1400-byte blocks and sends only whole ones (format_mp3.c, `REFBUF_SIZE`), so for Icecast it is the write
that completed the block holding the frame's last byte. *Own-bytes latency*: receipt minus the write of the
frame's own bytes, the target's: what a listener gets, including the wait each design adds (one frame,
{frame_ms:.1f} ms, for audiostreamd's confirmation, then up to its writeInterval; up to a block, 87.5 ms at
16,000 B/s, for Icecast). Both clocks are one
CLOCK_MONOTONIC in one process: a write is timed just before `write()`, a receipt just after the `read()` that
returned it. As the generator reads its sockets in turn, on the same two cores as the relay, a receipt time
includes the wait for its turn: the figures are upper bounds, and the generator's CPU is shown beside the
relay's. Percentiles are nearest-rank over every (subscriber, frame) pair of the window.

**Other columns.** Frames received / expected: the window's frames, over all subscribers. Missing: subscribers
that lacked any of them; overflow: audiostreamd's overflow discontinuity events (with the packets they said were
dropped); closed early: connections that ended before the feed did. Relay's own count: audiostreamd's status
(dropped packets summed over subscribers, largest queue, slow-subscriber disconnects) or Icecast's stats, taken
after the feed. CPU: utime + stime from /proc/PID/stat over the window, as a percentage of one core (in brackets stime alone, the kernel's part); RSS:
VmRSS at the end of the window, peak VmHWM. {checked}

**Writes alone.** Beside each count, `SubscriberLoad floor` measures the least a relay can spend on the same
sends: one thread does nothing but write to N connected sockets (Unix socket pairs, or loopback TCP with
Nagle's delay off), in eight slots spread over each period, while another reads them all through epoll; the
writer's thread CPU clock counts its system calls and, over loopback TCP, the receiving side's protocol work,
which the kernel does within the sender's call. It is run on audiostreamd's schedule (the stream's 16,000 B/s in
one write every writeInterval, 0.1 s), over TCP both with `send(2)` and through io_uring (a slot's writes in one
submission, as the daemon sends to HTTP listeners), and on Icecast's (whole 1400-byte blocks, 11.43 a second), for
{window_frames * frame_ms / 1000:.0f} s each.

{tables}

{verdict()}
"""

write_section(HEADER, section)
