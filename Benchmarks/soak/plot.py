#!/usr/bin/env python3
"""The soak's plot: the daemon's RSS and heap in use, descriptors, threads, clients, audio queued for them, drops,
reconnects and CPU over the run, from soak.csv, with the warm-up shaded and each reload marked.

Usage: plot.py SOAK_CSV SUMMARY_JSON OUTPUT_PNG
"""
import csv
import json
import sys

import matplotlib

matplotlib.use("Agg")  # no display: a file only
import matplotlib.pyplot as plt

PANELS = [  # (title, [(column, label)])
    ("memory (MiB)", [("rss_mib", "audiostreamd's RSS"), ("heap_mib", "its heap in use")]),
    ("descriptors", [("fds", "audiostreamd's open fds"), ("harness_connections", "clients connected (harness)")]),
    ("clients", [("subscribers", "socket subscribers"), ("listeners", "HTTP listeners")]),
    ("audio queued (s)", [("queued_seconds", "for all clients, summed")]),
    ("threads", [("threads", "audiostreamd")]),
    ("packets dropped\n(running total)", [("dropped", "for slow clients, summed over them")]),
    ("running totals", [("reconnects", "ICY source reconnects"), ("reloads", "reloads"),
                        ("checker_reconnects", "well-behaved clients' reconnects")]),
    ("CPU (% of one core)", [("daemon_cpu_percent", "audiostreamd"), ("harness_cpu_percent", "harness")]),
]


def main(csv_path, summary_path, output):
    rows = [{key: float(value) for key, value in row.items()} for row in csv.DictReader(open(csv_path))]
    summary = json.load(open(summary_path))
    minutes = [row["seconds"] / 60 for row in rows]
    reloads = [minutes[i] for i in range(1, len(rows)) if rows[i]["reloads"] > rows[i - 1]["reloads"]]
    figure, axes = plt.subplots(len(PANELS), 1, sharex=True, figsize=(9, 2 * len(PANELS)))
    for axis, (title, series) in zip(axes, PANELS):
        for column, label in series:
            axis.plot(minutes, [row[column] for row in rows], label=label, linewidth=1)
        axis.axvspan(0, summary["warmup_seconds"] / 60, color="0.9", label="warm-up")
        for reload in reloads:
            axis.axvline(reload, color="tab:purple", alpha=0.6, linewidth=0.8, linestyle="--")
        axis.set_ylabel(title, fontsize=8)
        axis.set_ylim(bottom=0)
        axis.legend(fontsize=7, loc="lower right")
        axis.grid(alpha=0.3, axis="y")
    axes[-1].set_xlabel("minutes (dashed: a reload, SIGHUP)")
    verdict = "passed" if not summary["failures"] else f"FAILED ({len(summary['failures'])})"
    figure.suptitle(f"audiostreamd soak: {summary['minutes']:g} min, {summary['socket_clients']} socket + "
                    f"{summary['http_clients']} HTTP clients, 10 streams: {verdict}", fontsize=10)
    figure.tight_layout()
    figure.savefig(output, dpi=80)


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
