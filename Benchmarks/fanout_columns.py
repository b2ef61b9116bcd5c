"""The cells the audiostreamd load sections share (daemon_report.py, scale_report.py), from SubscriberLoad's JSON
reports of a run: what was lost, what the relay says itself, and whether that adds up to no drops."""


def latencies(r):
    """Relay latency p50 / p99 / max and own-bytes latency p50 / p99, in ms."""
    relay, own = r["relayLatency"], r["ownBytesLatency"]
    return [f"{relay['p50']:.2f} / {relay['p99']:.2f} / {relay['max']:.2f}", f"{own['p50']:.1f} / {own['p99']:.1f}"]


def frames(r):
    """The window's frames received over all subscribers, against what they should have received."""
    return f"{r['receivedFrames']:,} / {r['windowFrames'] * r['subscribers']:,}"


def losses(r):
    """Subscribers missing frames / overflow events (packets they said were dropped) / closed early."""
    return (f"{r['subscribersMissingFrames']} / {r['overflowEvents']} ({r['droppedPacketsReported']}) / "
            f"{r['closedEarly']}")


def audiostreamd_count(r):
    """What audiostreamd's status says itself about drops and lag, summed over its streams."""
    view = r["relayView"]
    return (f"{view['droppedPackets']} dropped, lag ≤ {view['maxLagSeconds']:.2f} s, "
            f"{view['slowDisconnects']} slow disconnects")


def no_drops(r):
    """Every subscriber got every frame of the window, and neither side counted a loss."""
    view = r["relayView"]
    return (r["subscribersMissingFrames"] == 0 and r["overflowEvents"] == 0 and r["closedEarly"] == 0
            and r["refused"] == 0 and view.get("droppedPackets", 0) == 0 and view.get("slowDisconnects", 0) == 0)
