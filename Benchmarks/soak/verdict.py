"""The soak's pass/fail rules, applied to the samples taken after the warm-up.

- Memory, on the heap in use (the allocator's own count, `audiostream_heap_in_use_bytes`) as well as RSS, and per
  client connected: the crowd's size wanders by a tenth over a run (its clients' lifetimes are random, and the
  daemon closes the ones that stall), and a tenth more clients is a tenth more queues, not a leak.
  - Heap: the heap in use beyond what the daemon held before the crowd came, per subscriber and listener
    connected, compared the same way as RSS, may grow by at most 5 %.
  - RSS: the median of the last minute of samples may exceed the median of the first minute after the warm-up
    by at most 5 %, once the heap the clients connected since then hold (at the per-client heap of the first
    minute) is taken off (medians, because the crowd's queues come and go from one sample to the next). What
    RSS holds beyond the heap in use (the code mapped in, the stacks, the pages the allocator keeps free) is so
    judged on its own, and the machine's load cannot bend it: a loaded harness reads slower, so the daemon's
    queues hold more, but that is heap in use, which the crowd accounts for.
  The heap in use before the crowd came and once it had left is reported, not judged: the first is taken 3 s
  after the start, before the crowd's first requests of each kind (PCM in each format, ICY titles, a burst)
  have made what the daemon then keeps for good, so the second is higher by a few MiB whatever the run's length.
- Descriptors, two ways. While the crowd runs: the daemon's descriptors beyond its subscribers and listeners,
  compared the same way, may grow by at most FD_TREND_SLACK (connections still before their hello or request
  head, which the daemon does not count yet, make that figure wander by a few dozen). And exactly: once the
  crowd has left, the daemon must hold no more than FD_QUIET_SLACK descriptors beyond those it held before the
  crowd came (the ICY source's connection may be between two attempts at either moment).
- Missed packets: any failure a well-behaved client reported (checkers.py).
- Stalls: every stream must make progress in every STALL_SECONDS after the warm-up: its packet count grows
  (a restarted stream's count starting again from zero counts as growth once it grows), and for the random
  stream, which never has a packet, its bytes read. None of the soak's sources ends, so a stream that stands
  still or is gone is a stream that stopped by itself.
"""
import statistics

RSS_GROWTH = 0.05
HEAP_GROWTH = 0.05
FD_TREND_SLACK = 32
FD_QUIET_SLACK = 2
STALL_SECONDS = 15
WINDOW_SECONDS = 60


def _window(rows):
    """How many samples make the first and last windows: a minute's, or a quarter of a short run's."""
    interval = (rows[-1]["seconds"] - rows[0]["seconds"]) / max(1, len(rows) - 1)
    return max(1, min(round(WINDOW_SECONDS / max(interval, 1e-9)), len(rows) // 4))


def judge(rows, warmup_seconds, streams, missed, before_crowd, after_crowd):
    """(failures, figures): the reasons the soak fails, and what the report states. `before_crowd` and
    `after_crowd`: the daemon's descriptors and heap in use (MiB) before the crowd came and once it had left."""
    after = [row for row in rows if row["seconds"] >= warmup_seconds]
    failures = [f"a well-behaved client missed something: {what}" for what in missed]
    if after_crowd["fds"] - before_crowd["fds"] > FD_QUIET_SLACK:
        failures.append(f"descriptors leaked: {after_crowd['fds']} once the crowd had left, {before_crowd['fds']} "
                        f"before it came")
    if len(after) < 4:
        return failures + [f"only {len(after)} samples after the {warmup_seconds:.0f} s warm-up: run longer"], {}
    count = _window(after)
    first, last = after[:count], after[-count:]
    median = lambda window, value: statistics.median(value(row) for row in window)
    rss, heap = lambda row: row["rss_mib"], lambda row: row["heap_mib"]
    clients = lambda row: row["subscribers"] + row["listeners"]
    crowd_heap = lambda row: (row["heap_mib"] - before_crowd["heap_mib"]) / max(1, clients(row))
    excess_fds = lambda row: row["fds"] - row["subscribers"] - row["listeners"]
    figures = {
        "window_samples": count,
        "rss_after_warmup": median(first, rss), "rss_end": median(last, rss),
        "heap_after_warmup": median(first, heap), "heap_end": median(last, heap),
        "clients_after_warmup": median(first, clients), "clients_end": median(last, clients),
        "heap_per_client_after_warmup": median(first, crowd_heap), "heap_per_client_end": median(last, crowd_heap),
        "excess_fds_after_warmup": median(first, excess_fds), "excess_fds_end": median(last, excess_fds),
    }
    figures["rss_growth"] = figures["rss_end"] / figures["rss_after_warmup"] - 1
    figures["new_clients"] = figures["clients_end"] - figures["clients_after_warmup"]
    figures["crowd_growth_mib"] = figures["heap_per_client_after_warmup"] * figures["new_clients"]
    figures["rss_growth_beyond_crowd"] = ((figures["rss_end"] - figures["crowd_growth_mib"])
                                          / figures["rss_after_warmup"] - 1)
    figures["heap_per_client_growth"] = figures["heap_per_client_end"] / figures["heap_per_client_after_warmup"] - 1
    if figures["rss_growth_beyond_crowd"] > RSS_GROWTH:
        failures.append(
            f"RSS grew {figures['rss_growth_beyond_crowd']:.1%} after the warm-up beyond the crowd's growth "
            f"({figures['rss_after_warmup']:.1f} → {figures['rss_end']:.1f} MiB, of which "
            f"{figures['crowd_growth_mib']:+.1f} MiB the heap of {figures['new_clients']:+.0f} clients; medians of "
            f"{count} samples), more than {RSS_GROWTH:.0%}")
    if figures["heap_per_client_growth"] > HEAP_GROWTH:
        failures.append(
            f"the heap in use per client grew {figures['heap_per_client_growth']:.1%} after the warm-up "
            f"({figures['heap_per_client_after_warmup'] * 1024:.1f} → "
            f"{figures['heap_per_client_end'] * 1024:.1f} KiB; "
            f"medians of {count} samples), more than {HEAP_GROWTH:.0%}")
    leaked = figures["excess_fds_end"] - figures["excess_fds_after_warmup"]
    if leaked > FD_TREND_SLACK:
        failures.append(f"descriptors beyond the daemon's clients grew by {leaked:.0f} after the warm-up "
                        f"({figures['excess_fds_after_warmup']:.0f} → {figures['excess_fds_end']:.0f}): a leak")
    for stream in streams:
        stall = _first_stall([row[f"progress:{stream.name}"] for row in rows], [row["seconds"] for row in rows],
                             warmup_seconds)
        if stall is not None:
            failures.append(f"stream {stream.name} made no progress for {STALL_SECONDS} s up to {stall:.0f} s "
                            f"while its source is live ({'packets' if stream.has_audio else 'bytes read'})")
    return failures, figures


def _first_stall(progress, seconds, warmup_seconds):
    """The first sample time after the warm-up ending STALL_SECONDS without growth, or None."""
    growth = [0] + [now - before if now >= before >= 0 else max(now, 0) for before, now in zip(progress, progress[1:])]
    for end, time in enumerate(seconds):
        if time < warmup_seconds:
            continue
        start = next(i for i, then in enumerate(seconds) if time - then < STALL_SECONDS + 1e-9)
        if start > 0 and sum(growth[start:end + 1]) == 0:  # growth since the sample before `start`
            return time
    return None
