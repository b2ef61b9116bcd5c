"""The soak's pass/fail rules, applied to the samples taken after the warm-up.

- RSS: the median of the last minute of samples may exceed the median of the first minute after the warm-up
  by at most 5 % (medians, because the crowd's queues come and go from one sample to the next).
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
FD_TREND_SLACK = 32
FD_QUIET_SLACK = 2
STALL_SECONDS = 15
WINDOW_SECONDS = 60


def _window(rows):
    """How many samples make the first and last windows: a minute's, or a quarter of a short run's."""
    interval = (rows[-1]["seconds"] - rows[0]["seconds"]) / max(1, len(rows) - 1)
    return max(1, min(round(WINDOW_SECONDS / max(interval, 1e-9)), len(rows) // 4))


def judge(rows, warmup_seconds, streams, missed, fds_before_crowd, fds_after_crowd):
    """(failures, figures): the reasons the soak fails, and what the report states."""
    after = [row for row in rows if row["seconds"] >= warmup_seconds]
    failures = [f"a well-behaved client missed something: {what}" for what in missed]
    if fds_after_crowd - fds_before_crowd > FD_QUIET_SLACK:
        failures.append(f"descriptors leaked: {fds_after_crowd} once the crowd had left, {fds_before_crowd} before "
                        f"it came")
    if len(after) < 4:
        return failures + [f"only {len(after)} samples after the {warmup_seconds:.0f} s warm-up: run longer"], {}
    count = _window(after)
    first, last = after[:count], after[-count:]
    median = lambda window, value: statistics.median(value(row) for row in window)
    rss = lambda row: row["rss_mib"]
    excess_fds = lambda row: row["fds"] - row["subscribers"] - row["listeners"]
    figures = {
        "window_samples": count,
        "rss_after_warmup": median(first, rss), "rss_end": median(last, rss),
        "excess_fds_after_warmup": median(first, excess_fds), "excess_fds_end": median(last, excess_fds),
    }
    growth = figures["rss_end"] / figures["rss_after_warmup"] - 1
    figures["rss_growth"] = growth
    if growth > RSS_GROWTH:
        failures.append(f"RSS grew {growth:.1%} after the warm-up ({figures['rss_after_warmup']:.1f} → "
                        f"{figures['rss_end']:.1f} MiB, medians of {count} samples), more than {RSS_GROWTH:.0%}")
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
