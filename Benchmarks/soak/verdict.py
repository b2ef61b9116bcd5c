"""The soak's pass/fail rules, applied to the samples taken after the warm-up.

- Memory, on the heap in use (the allocator's own count, `audiostream_heap_in_use_bytes`) as well as RSS. Neither
  is judged raw: the crowd's size wanders by a tenth over a run (its clients' lifetimes are random, and the daemon
  closes the ones that stall), and the audio queued for it follows the machine's load (a loaded harness reads
  slower; each second queued for a PCM subscriber is hundreds of KiB): more clients and fuller queues are heap
  in use, not a leak, and a rule on raw RSS failed on them alone.
  - Heap: fitted by least squares over the samples after the warm-up as a constant, plus so much per client
    connected, per second of audio queued for them (`audiostream_subscriber_lag_seconds`, summed) and per second
    of the run; that last term over the run, the growth neither the crowd nor its queues explain, may be at most
    5 % of the heap in use after the warm-up.
  - RSS: what RSS holds beyond the heap in use (the code mapped in, the stacks, the pages the allocator keeps
    free) may grow by at most 5 % of RSS after the warm-up: the median of the last minute of samples against
    that of the first minute after the warm-up (medians, because the crowd's queues come and go from one sample
    to the next). RSS beyond that is the heap's growth, judged above.
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

import numpy

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
    `after_crowd`: the daemon's descriptors (`fds`) before the crowd came and once it had left."""
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
    excess_fds = lambda row: row["fds"] - row["subscribers"] - row["listeners"]
    figures = {
        "window_samples": count,
        "rss_after_warmup": median(first, rss), "rss_end": median(last, rss),
        "heap_after_warmup": median(first, heap), "heap_end": median(last, heap),
        "beyond_heap_after_warmup": median(first, lambda row: rss(row) - heap(row)),
        "beyond_heap_end": median(last, lambda row: rss(row) - heap(row)),
        "clients_after_warmup": median(first, clients), "clients_end": median(last, clients),
        "queued_after_warmup": median(first, lambda row: row["queued_seconds"]),
        "queued_end": median(last, lambda row: row["queued_seconds"]),
        "excess_fds_after_warmup": median(first, excess_fds), "excess_fds_end": median(last, excess_fds),
        **_heap_fit(after, clients),
    }
    figures["rss_growth"] = figures["rss_end"] / figures["rss_after_warmup"] - 1
    figures["rss_growth_beyond_heap"] = ((figures["beyond_heap_end"] - figures["beyond_heap_after_warmup"])
                                         / figures["rss_after_warmup"])
    figures["heap_growth_unexplained"] = figures["heap_unexplained_mib"] / figures["heap_after_warmup"]
    if figures["rss_growth_beyond_heap"] > RSS_GROWTH:
        failures.append(
            f"RSS beyond the heap in use grew by {figures['rss_growth_beyond_heap']:.1%} of RSS after the warm-up "
            f"({figures['beyond_heap_after_warmup']:.1f} → {figures['beyond_heap_end']:.1f} MiB; medians of "
            f"{count} samples), more than {RSS_GROWTH:.0%}")
    if figures["heap_growth_unexplained"] > HEAP_GROWTH:
        failures.append(
            f"the heap in use grew {figures['heap_unexplained_mib']:.1f} MiB after the warm-up beyond what the "
            f"clients connected and the audio queued for them explain ({figures['heap_growth_unexplained']:.1%} of "
            f"{figures['heap_after_warmup']:.1f} MiB), more than {HEAP_GROWTH:.0%}")
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


def _heap_fit(rows, clients):
    """The heap in use, by least squares: MiB per client connected, per second of audio queued, and the growth
    over the rows that neither explains."""
    seconds = [row["seconds"] for row in rows]
    terms = numpy.array([[1, clients(row), row["queued_seconds"], row["seconds"]] for row in rows])
    heap = numpy.array([row["heap_mib"] for row in rows])
    fit, *_ = numpy.linalg.lstsq(terms, heap, rcond=None)
    _, per_client, per_queued_second, per_second = fit
    residual = heap - terms @ fit
    return {"heap_per_client_kib": per_client * 1024, "heap_per_queued_second_kib": per_queued_second * 1024,
            "heap_unexplained_mib": per_second * (seconds[-1] - seconds[0]),
            "heap_fit_error_mib": float(numpy.std(residual))}


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
