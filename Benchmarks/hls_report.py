"""Turns `SubscriberLoad hls`'s and its peers' JSON into the "HLS" section of docs/benchmarks.md.

bench.sh sets BENCH_HLS_REPORTS (the LL-HLS runs, by player count), BENCH_ICECAST_JSON and BENCH_ICY_JSON (1,000
ICY listeners of Icecast and of audiostreamd), BENCH_COMMANDS (the commands as they ran) and BENCH_V_ICECAST,
besides the variables every section shares (see bench_report.py). Only this section is replaced.
"""
import json

from bench_report import context, env, table, write_section

HEADER = "## HLS: availability, listener latency and CPU (audiostreamd)"
TARGET_AVAILABILITY_P99 = 20      # ms, with 1,000 players
TARGET_PLAYER_LATENCY = 1500      # ms from the daemon receiving a frame to a player playing it
TARGET_PLAYERS = 1000

runs = [json.load(open(path)) for path in env["BENCH_HLS_REPORTS"].split()]
icecast = json.load(open(env["BENCH_ICECAST_JSON"]))
icy = json.load(open(env["BENCH_ICY_JSON"]))
commands = open(env["BENCH_COMMANDS"]).read().strip()
icecast_version = env["BENCH_V_ICECAST"]
for report in runs:
    run = report["run"]
    if run["earlyFrames"] or run["mismatches"] or run["refused"]:
        raise SystemExit(f"HLS ×{run['subscribers']}: {run['earlyFrames']} early frames, {run['mismatches']} "
                         f"mismatches, {run['refused']} refused: the run is not a measure")
most = max(runs, key=lambda report: report["run"]["subscribers"])
alone = min(runs, key=lambda report: report["run"]["subscribers"])


def verdict(met):
    return "met" if met else "**not met**"


def hls_row(report):
    run, availability, read = report["run"], report["availability"], report["availabilityRead"]
    return [f"{run['subscribers']:,}",
            f"{availability['p50']:.2f} / {availability['p99']:.2f} / {availability['max']:.2f}",
            f"{read['p50']:.2f} / {read['p99']:.2f}",
            f"{run['ownBytesLatency']['p50']:.0f} / {run['ownBytesLatency']['p99']:.0f} / "
            f"{run['ownBytesLatency']['max']:.0f}",
            f"{run['relayLatency']['p50']:.0f} / {run['relayLatency']['p99']:.0f}",
            f"{run['receivedFrames']:,} / {run['windowFrames'] * run['subscribers']:,}", f"{report['stalls']}",
            f"{run['relayView'].get('hlsListeners', 0):,}", f"{run['relayCPUPercent']:.1f} ({run['relaySystemCPUPercent']:.1f})",
            f"{run['relayMemory']['residentKiB'] / 1024:.1f}", f"{run['generatorCPUPercent']:.1f}"]


def listener_row(name, run):
    return [name, f"{run['subscribers']:,}", f"{run['relayCPUPercent']:.1f} ({run['relaySystemCPUPercent']:.1f})",
            f"{run['relayMemory']['residentKiB'] / 1024:.1f}",
            f"{run['receivedFrames']:,} / {run['windowFrames'] * run['subscribers']:,}",
            f"{run['ownBytesLatency']['p50']:.1f} / {run['ownBytesLatency']['p99']:.1f}"]


hls_cpu = most["run"]["relayCPUPercent"]
availability_p99 = most["availability"]["p99"]
player_alone = alone["run"]["ownBytesLatency"]["max"]
player_most = most["run"]["ownBytesLatency"]["p99"]

section = f"""{HEADER}

What Low-Latency HLS players of one stream get and cost. `audiostreamd` reads a 128 kb/s MP3 from its standard
input, written frame by frame at real time by `SubscriberLoad`, and serves it with `hls: {{segment: 2, part: 0.5,
window: 20}}` (parts of 19 frames, 0.496 s; `PART-HOLD-BACK` three of them). Each player (`SubscriberLoad hls`,
one compiled process for all of them) asks for the playlist, waits for the next part with a blocking reload,
starts `PART-HOLD-BACK` from the end of that answer, then fetches every part and waits for the next with blocking
reloads and delta updates (`_HLS_skip=YES`), on one kept-alive connection. The players join one after another
over 2 s, from 7 s into the feed; the window is the {most['run']['windowSeconds']:.0f} s after a 10 s warm-up.
Every part a player fetches must be the fed frames byte for byte.

- **Availability:** from the write that lets the daemon confirm a part's last frame (the write carrying the next
  frame's header) to a player's whole answer to the blocking reload that lists the part, as the kernel stamped
  its receipt for the player (`SO_TIMESTAMPING`): on loopback, the moment the daemon's write delivered it. Target:
  p99 ≤ {TARGET_AVAILABILITY_P99} ms with {TARGET_PLAYERS:,} players. The column beside it counts to when the
  players' one process read the answer, which adds each socket's turn among a thousand.
- **Listener to player:** from the write that brought a frame's own bytes to the daemon to the moment its player
  plays it (players play in real time from the receipt of their first part; a part that comes after its turn is
  a stall). Target
  ≤ {TARGET_PLAYER_LATENCY / 1000:.1f} s. The column beside it counts from the write that let the daemon confirm
  the frame instead.
- **CPU:** the daemon's user and system time over the window, as a share of one core, against Icecast with as
  many listeners asking for ICY metadata, fed the same frames by the same generator in the same run (Icecast
  with burst-on-connect off; the configuration of "Live fan-out"), and audiostreamd's own ICY listeners.

{context(icecast_version, timer=None)}

```sh
{commands}
```

{table(["Players", "Availability ms p50 / p99 / max", "Read by the players ms p50 / p99", "Listener to player ms p50 / p99 / max", "From confirmation ms p50 / p99", "Frames played / expected", "Stalls", "Daemon's HLS listener count", "Daemon CPU % of one core (system)", "Daemon RSS MiB", "Generator CPU %"], [hls_row(report) for report in runs])}

{table(["Relay", "Listeners", "CPU % of one core (system)", "RSS MiB", "Frames received / expected", "Own-bytes latency ms p50 / p99"], [listener_row("audiostreamd, LL-HLS players", most["run"]), listener_row(icecast_version + ", ICY listeners", icecast), listener_row("audiostreamd, ICY listeners", icy)])}

**Availability p99 with {most['run']['subscribers']:,} players:** {availability_p99:.2f} ms; target ≤
{TARGET_AVAILABILITY_P99} ms: {verdict(availability_p99 <= TARGET_AVAILABILITY_P99)}.
**Listener to player:** {player_alone:.0f} ms at most for one player (target ≤ {TARGET_PLAYER_LATENCY} ms:
{verdict(player_alone <= TARGET_PLAYER_LATENCY)}); p99 {player_most:.0f} ms for {most['run']['subscribers']:,}
players, whose latency is set when they start, while the others start too
({verdict(player_most <= TARGET_PLAYER_LATENCY)}).
**CPU of {most['run']['subscribers']:,} LL-HLS players:** {hls_cpu:.1f} % of a core, against
{icecast['relayCPUPercent']:.1f} % for Icecast's {icecast['subscribers']:,} ICY listeners (target: no more:
{verdict(hls_cpu <= icecast['relayCPUPercent'])}).
"""

write_section(HEADER, section, after="## Recording (audiostream record)")
