"""Turns `SubscriberLoad tree`'s and its peer's JSON into the "Relay tree" section of docs/benchmarks.md.

bench.sh sets BENCH_TREE_REPORTS (the tree runs, by listeners at each relay), BENCH_ICECAST_JSON (Icecast with
2,000 listeners), BENCH_ONDEMAND_JSON (ondemand_latency.py's visits), BENCH_COMMANDS (the commands as they ran) and BENCH_V_ICECAST, besides the variables every
section shares (see bench_report.py). Only this section is replaced.
"""
import json

from bench_report import context, env, table, write_section

HEADER = "## Relay tree (audiostreamd)"
TARGET_HOP_MS = 1000      # added latency per hop, beyond the relay's own burst
TARGET_ONDEMAND_MS = 1000  # from a listener's connect to a sleeping on-demand relay to its first audio
FLAT = 1.5                # the origin's CPU with the most listeners at the relays, at most this times the least's

runs = sorted((json.load(open(path)) for path in env["BENCH_TREE_REPORTS"].split()),
              key=lambda run: run["subscribers"])
icecast = json.load(open(env["BENCH_ICECAST_JSON"]))
ondemand = json.load(open(env["BENCH_ONDEMAND_JSON"]))
ondemand_max = ondemand["max"] * 1000
commands = open(env["BENCH_COMMANDS"]).read().strip()
icecast_version = env["BENCH_V_ICECAST"]
for run in runs:
    if run["earlyFrames"] or run["mismatches"] or run["refused"]:
        raise SystemExit(f"tree ×{run['subscribers']}: {run['earlyFrames']} early frames, {run['mismatches']} "
                         f"mismatches, {run['refused']} refused: the run is not a measure")


def per_relay(run):
    return (run["subscribers"] - 20) // len(run["hops"]["relays"])


def hop(run, key):
    """The latency a relay adds: its listeners' against the origin's, at the same percentile."""
    return max(relay[key] for relay in run["hops"]["relays"]) - run["hops"]["origin"][key]


def verdict(met):
    return "met" if met else "**not met**"


def row(run):
    relays = run["hops"]["relays"]
    return [f"{per_relay(run):,}", f"{run['relayCPUPercent']:.1f} ({run['relaySystemCPUPercent']:.1f})",
            " / ".join(f"{cpu:.1f}" for cpu in run["hops"]["relayCPUPercent"]),
            f"{run['receivedFrames']:,} / {run['windowFrames'] * run['subscribers']:,}",
            f"{run['relayView'].get('droppedPackets', 0)} / {run['relayView'].get('slowDisconnects', 0)} / "
            f"{run['closedEarly']}",
            f"{run['hops']['origin']['p50']:.0f} / {run['hops']['origin']['p99']:.0f}",
            " · ".join(f"{relay['p50']:.0f} / {relay['p99']:.0f} / {relay['max']:.0f}" for relay in relays),
            f"{hop(run, 'p50'):.0f} / {hop(run, 'p99'):.0f} / {hop(run, 'max'):.0f}"]


least, most = runs[0], runs[-1]
flat = most["relayCPUPercent"] <= FLAT * max(least["relayCPUPercent"], 0.5)
worst_hop = max(hop(run, "max") for run in runs)
complete = all(run["receivedFrames"] == run["windowFrames"] * run["subscribers"] and not run["closedEarly"]
               for run in runs)
most_relay_cpu = max(most["hops"]["relayCPUPercent"])

section = f"""{HEADER}

One origin feeding two relays, as a radio network grows. `SubscriberLoad tree` starts an origin `audiostreamd`
that reads a 128 kb/s MP3 from its standard input, written frame by frame at real time, with `relayPassword`;
and two `audiostreamd` relays of it, each configured with `relay: {{master: …, interval: 1}}` alone: each reads
the origin's `/admin/streamlist.txt`, relays its mount, and serves it to its own HTTP listeners. The listeners
(one compiled process for all of them) connect before the first byte is fed: N at each relay and 20 at the
origin, whose latency is the hop's baseline. Every byte each listener gets must be the fed frames, in order;
the window is the {most['windowSeconds']:.0f} s after a 5 s warm-up.

- **Latency:** from the write that let the origin confirm a frame (the write carrying the next frame's header) to
  a listener's receipt. A hop adds the relay's share: the origin's write-out to it, its own parse (which confirms
  a frame once the next one's header has come from the origin) and its own write-out. Listeners are at the live
  edge here: a listener who joins later starts with its relay's burst (2 s of recent audio) and then hears it at
  this latency. Target: a hop adds at most {TARGET_HOP_MS / 1000:.0f} s.
- **CPU:** the origin's user and system time over the window, as a share of one core; it must stay flat as the
  relays' listeners grow (two listeners to it, whatever their audience). Each relay's over the same window,
  beside it. The peer, in the same run: {icecast_version} fanning the same MP3 out to {icecast['subscribers']:,}
  listeners (asking for ICY metadata), the job of one relay node, fed by the same generator.
- **On demand:** `ondemand_latency.py` runs an origin playing the MP3 and a relay of it with `onDemand: true,
  idle: 1`; each of {ondemand['visits']} visits waits until the relay has left the origin (the origin counts no
  listener), connects to the relay's mount and times its first audio byte from the connect, listens a second and
  leaves. Target: within {TARGET_ONDEMAND_MS / 1000:.0f} s.

{context(icecast_version, timer=None)}

```sh
{commands}
```

{table(["Listeners at each relay", "Origin CPU % of one core (system)", "Relays' CPU % of one core", "Frames received / expected (all listeners)", "Dropped packets / slow disconnects / closed early", "Origin's listeners ms p50 / p99", "Relays' listeners ms p50 / p99 / max", "Added by the hop ms p50 / p99 / max"], [row(run) for run in runs])}

{table(["Relay node", "Listeners", "CPU % of one core", "Fed by"], [["audiostreamd relay (busiest of two)", f"{per_relay(most):,}", f"{most_relay_cpu:.1f}", "the origin, over HTTP with ICY (parsed again)"], [icecast_version, f"{icecast['subscribers']:,}", f"{icecast['relayCPUPercent']:.1f}", f"the generator, as its source ({icecast['receivedFrames']:,} / {icecast['windowFrames'] * icecast['subscribers']:,} frames received)"]])}

**No drops:** {verdict(complete)}: every listener got every frame of the window, none was dropped or closed.
**The origin's CPU stays flat:** {least['relayCPUPercent']:.1f} % with {per_relay(least):,} listeners at each
relay, {most['relayCPUPercent']:.1f} % with {per_relay(most):,} ({verdict(flat)}; at most {FLAT}× the first).
**On demand:** a sleeping relay's listener hears audio {ondemand['p50'] * 1000:.0f} ms after connecting (p50 of
{ondemand['visits']}), {ondemand_max:.0f} ms at most (target ≤ {TARGET_ONDEMAND_MS} ms:
{verdict(ondemand_max <= TARGET_ONDEMAND_MS)}).
**Per hop:** at most {worst_hop:.0f} ms added (target ≤ {TARGET_HOP_MS} ms: {verdict(worst_hop <= TARGET_HOP_MS)}).
**A relay node against Icecast:** {most_relay_cpu:.1f} % of a core for {per_relay(most):,} listeners (its parse
included), against {icecast['relayCPUPercent']:.1f} % for Icecast's {icecast['subscribers']:,}, fed directly.
"""

write_section(HEADER, section, after="## HLS: availability, listener latency and CPU (audiostreamd)")
