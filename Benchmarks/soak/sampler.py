"""Every few seconds, one CSV row of how the daemon is doing: its memory, descriptors, threads and CPU from
/proc, its heap in use, subscribers, audio queued for them, drops, reconnects and each stream's progress from its
Prometheus metrics, and the harness's own CPU and connections."""
import asyncio
import csv
import os
import re
import time

TICKS = os.sysconf("SC_CLK_TCK")
METRIC_LINE = re.compile(r'^(audiostream_\w+)\{stream="([^"]+)"[^}]*\} (\S+)$', re.M)
HEAP_LINE = re.compile(r'^audiostream_heap_in_use_bytes (\S+)$', re.M)
LAG_LINE = re.compile(r'^audiostream_subscriber_lag_seconds\{[^}]*\} (\S+)$', re.M)
# Counters that a restarted stream starts again from zero: the CSV keeps their sum over the whole run.
RUNNING_TOTALS = {"audiostream_dropped_packets_total": "dropped", "audiostream_reconnects_total": "reconnects"}


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime


def status_fields(pid):
    fields = dict(line.split(":", 1) for line in open(f"/proc/{pid}/status"))
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["Threads"])


async def fetch_metrics(port):
    """{(series, stream): value} from the daemon's /metrics, its heap in use in bytes, and the seconds of audio
    queued for its subscribers and listeners, summed."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"GET /metrics HTTP/1.0\r\n\r\n")
    text = (await asyncio.wait_for(reader.read(), 10)).decode()
    writer.close()
    heap = HEAP_LINE.search(text)
    return ({(name, stream): float(value) for name, stream, value in METRIC_LINE.findall(text)},
            float(heap.group(1)) if heap else float("nan"), sum(float(lag) for lag in LAG_LINE.findall(text)))


class Sampler:
    def __init__(self, path, daemon_pid, helper_pids, metrics_port, streams, census, findings, reloads):
        self.daemon_pid, self.helper_pids, self.metrics_port = daemon_pid, helper_pids, metrics_port
        self.streams = streams
        self.census, self.findings, self.reloads = census, findings, reloads
        self.started = time.monotonic()
        self.totals = dict.fromkeys(RUNNING_TOTALS.values(), 0.0)
        self.previous, self.taken, self.unanswered = {}, [], []
        self.cpu = (self.started, cpu_seconds(daemon_pid), self.harness_cpu())
        self.file = open(path, "w", newline="")
        progress = [f"progress:{stream.name}" for stream in streams]
        self.columns = ["seconds", "rss_mib", "heap_mib", "fds", "threads", "daemon_cpu_percent",
                        "harness_cpu_percent", "harness_connections", "subscribers", "listeners", "queued_seconds",
                        "dropped", "reconnects", "streams", "reloads", "checker_reconnects", "missed", *progress]
        self.writer = csv.DictWriter(self.file, self.columns)
        self.writer.writeheader()

    def harness_cpu(self):
        return sum(cpu_seconds(pid) for pid in ["self", *self.helper_pids])

    async def sample(self):
        metrics, heap, queued = await fetch_metrics(self.metrics_port)
        now, daemon_cpu, harness_cpu = time.monotonic(), cpu_seconds(self.daemon_pid), self.harness_cpu()
        then, daemon_before, harness_before = self.cpu
        self.cpu = (now, daemon_cpu, harness_cpu)
        rss, threads = status_fields(self.daemon_pid)
        total = lambda series: sum(value for (name, _), value in metrics.items() if name == series)
        for series, column in RUNNING_TOTALS.items():
            for (name, stream), value in metrics.items():
                if name == series:
                    before = self.previous.get((name, stream), 0.0)
                    self.totals[column] += value - before if value >= before else value
                    self.previous[(name, stream)] = value
        row = {
            "seconds": round(now - self.started, 1), "rss_mib": round(rss, 2), "heap_mib": round(heap / 2**20, 2),
            "fds": len(os.listdir(f"/proc/{self.daemon_pid}/fd")), "threads": threads,
            "daemon_cpu_percent": round(100 * (daemon_cpu - daemon_before) / (now - then), 1),
            "harness_cpu_percent": round(100 * (harness_cpu - harness_before) / (now - then), 1),
            "harness_connections": self.census.open,
            "subscribers": int(total("audiostream_subscribers")),
            "listeners": int(total("audiostream_http_listeners")), "queued_seconds": round(queued, 1),
            **{column: int(value) for column, value in self.totals.items()},
            "streams": len({stream for name, stream in metrics if name == "audiostream_packets_total"}),
            "reloads": self.reloads[0], "checker_reconnects": self.findings.reconnects,
            "missed": len(self.findings.failures),
        }
        for stream in self.streams:
            series = "audiostream_packets_total" if stream.has_audio else "audiostream_bytes_in_total"
            row[f"progress:{stream.name}"] = int(metrics.get((series, stream.name), -1))  # -1: not running
        self.writer.writerow(row)
        self.file.flush()
        self.taken.append(row)
        return row

    def rows(self):
        return self.taken

    async def run(self, interval, stopping):
        while not stopping.is_set():
            try:
                await asyncio.wait_for(stopping.wait(), interval)
            except asyncio.TimeoutError:
                try:
                    row = await self.sample()
                except (OSError, asyncio.TimeoutError) as error:  # the daemon did not answer: a failure of its own
                    self.unanswered.append(f"{time.monotonic() - self.started:.0f} s: {error!r}")
                    continue
                print(f"soak: {row['seconds']:>6.0f} s  RSS {row['rss_mib']:.1f} MiB  heap {row['heap_mib']:.1f} MiB  "
                      f"fds {row['fds']}  "
                      f"threads {row['threads']}  subscribers {row['subscribers']}+{row['listeners']}  "
                      f"daemon {row['daemon_cpu_percent']} %  harness {row['harness_cpu_percent']} %  "
                      f"missed {row['missed']}", flush=True)
