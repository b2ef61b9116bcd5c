#!/usr/bin/env python3
"""The soak: audiostreamd serving eleven live streams to a crowd for SOAK_MINUTES, with a reload every minute.

Run by soak.sh (`make soak`), which makes the inputs in FOLDER first. Writes FOLDER/soak.csv (a sample every
SOAK_INTERVAL seconds, sampler.py) and FOLDER/summary.json (the verdict, verdict.py, and the figures the report
quotes), and exits 1 with the reasons when the soak fails.

Usage: soak.py FOLDER DAEMON   Environment: SOAK_MINUTES (30), SOAK_WARMUP_SECONDS (10 % of the run, at least
60), SOAK_SOCKET_CLIENTS (500), SOAK_HTTP_CLIENTS (500), SOAK_HLS_PLAYERS (20 per stream served as HLS),
SOAK_RELOAD_SECONDS (60), SOAK_INTERVAL (5).
"""
import asyncio
import json
import os
import resource
import signal
import socket
import sys
import time

import checkers
import dj
import hls_players
import streams
import unruly
import verdict
from census import Census
from pacing import looped, paced
from sampler import Sampler, fetch_metrics

MP3_RATE = 16000  # bytes per second of the 128 kb/s CBR MP3 that the station and standard input play
CHECKED_PCM = ["aac-adts", "ogg-opus"]  # streams whose PCM a well-behaved subscriber also checks
CROWD_DELAY = 3  # seconds between the well-behaved clients' start and the crowd's
QUIET_WAIT = 10  # seconds the daemon gets to notice that the crowd has left


def open_descriptors(pid):
    return len(os.listdir(f"/proc/{pid}/fd"))


async def heap_in_use(metrics_port):
    """The daemon's heap in use, in MiB."""
    return (await fetch_metrics(metrics_port))[1] / 2**20


async def quiet_descriptors(pid, before):
    """The daemon's descriptors once it has closed the crowd's connections: as soon as they are back to
    `before`, else after QUIET_WAIT seconds."""
    deadline = time.monotonic() + QUIET_WAIT
    while (count := open_descriptors(pid)) > before and time.monotonic() < deadline:
        await asyncio.sleep(0.5)
    return count


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def wait_until_serving(folder, metrics_port, daemon):
    """Waits until every stream's socket exists and the metrics answer (the daemon is ready)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and daemon.returncode is None:
        sockets = all(os.path.exists(f"{folder}/{stream.name}.sock") for stream in streams.STREAMS)
        try:
            with socket.create_connection(("127.0.0.1", metrics_port), timeout=1):
                if sockets:
                    return
        except OSError:
            pass
        await asyncio.sleep(0.2)
    raise SystemExit("soak: the daemon did not start (see daemon.log)")


async def feed_stdin(daemon, audio):
    """The `stdin` stream's source: a CBR MP3 at real time, looped, for ever."""
    position = 0
    async for count in paced(MP3_RATE):
        daemon.stdin.write(looped(audio, position, count))
        position = (position + count) % len(audio)
        await daemon.stdin.drain()


async def reload_every(seconds, write_config, daemon, findings, reloads, stopping):
    """Each `seconds`, rewrites the configuration with the next change (streams.py) and sends SIGHUP."""
    while not stopping.is_set():
        try:
            await asyncio.wait_for(stopping.wait(), seconds)
            return
        except asyncio.TimeoutError:
            reloads[0] += 1
            if restarted := streams.restarted_by(reloads[0]):
                findings.restarts[restarted] = time.monotonic()
            write_config(reloads[0])
            daemon.send_signal(signal.SIGHUP)


async def main(folder, daemon_path):
    minutes = float(os.environ.get("SOAK_MINUTES", 30))
    warmup = float(os.environ.get("SOAK_WARMUP_SECONDS", max(60, minutes * 6)))
    socket_clients = int(os.environ.get("SOAK_SOCKET_CLIENTS", 500))
    http_clients = int(os.environ.get("SOAK_HTTP_CLIENTS", 500))
    hls_per_stream = int(os.environ.get("SOAK_HLS_PLAYERS", 20))
    reload_seconds = float(os.environ.get("SOAK_RELOAD_SECONDS", 60))
    interval = float(os.environ.get("SOAK_INTERVAL", 5))
    # A client is one descriptor here and one in the daemon: both need more than the usual 1024.
    resource.setrlimit(resource.RLIMIT_NOFILE, (resource.getrlimit(resource.RLIMIT_NOFILE)[1],) * 2)

    here = os.path.dirname(os.path.abspath(__file__))
    station = await asyncio.create_subprocess_exec(
        sys.executable, f"{here}/icy_server.py", f"{folder}/cbr128.mp3", str(MP3_RATE), "17",
        stdout=asyncio.subprocess.PIPE)
    station_port = int(await station.stdout.readline())
    http_port, metrics_port = free_port(), free_port()
    config = f"{folder}/config.yaml"
    write_config = lambda number: streams.write_config(config, folder, http_port, metrics_port, station_port, number)
    write_config(0)
    with open(f"{folder}/daemon.log", "w") as log:
        daemon = await asyncio.create_subprocess_exec(
            daemon_path, "--config", config, "--log-level", "warning", stdin=asyncio.subprocess.PIPE, stderr=log)
    await wait_until_serving(folder, metrics_port, daemon)

    findings, census, stopping, reloads = checkers.Findings(), Census(), asyncio.Event(), [0]
    sampler = Sampler(f"{folder}/soak.csv", daemon.pid, [station.pid], metrics_port, streams.STREAMS, census,
                      findings, reloads)
    socket_paths = {stream.name: f"{folder}/{stream.name}.sock" for stream in streams.STREAMS}
    well_behaved = [
        *(checkers.socket_subscriber(findings, census, stopping, stream.name, socket_paths[stream.name],
                                     ["packets", "metadata", "properties"], silent_for_long=not stream.has_audio)
          for stream in streams.STREAMS),
        *(checkers.socket_subscriber(findings, census, stopping, name, socket_paths[name], ["pcm"])
          for name in CHECKED_PCM),
        *(checkers.http_listener(findings, census, stopping, stream.name, http_port,
                                 [f"{folder}/{file}" for file in stream.files])
          for stream in streams.STREAMS if stream.files),
        *(hls_players.player(findings, census, stopping, stream.name, http_port, index)
          for stream in streams.STREAMS if stream.hls for index in range(hls_per_stream)),
    ]
    sampling = asyncio.ensure_future(sampler.run(interval, stopping))
    tasks = [sampling, *(asyncio.ensure_future(work) for work in [
        feed_stdin(daemon, open(f"{folder}/cbr128.mp3", "rb").read()),
        dj.come_and_go(findings, stopping, http_port, "live", streams.SOURCE_PASSWORD,
                       open(f"{folder}/cbr128.mp3", "rb").read(), MP3_RATE),
        reload_every(reload_seconds, write_config, daemon, findings, reloads, stopping), *well_behaved])]
    await asyncio.sleep(CROWD_DELAY)  # the well-behaved clients connected: what the daemon holds without the crowd
    before_crowd = {"fds": open_descriptors(daemon.pid), "heap_mib": await heap_in_use(metrics_port)}
    crowd_leaving = asyncio.Event()
    crowd = [asyncio.ensure_future(slot) for slot in [
        *unruly.socket_slots(socket_clients, census, crowd_leaving, socket_paths),
        *unruly.http_slots(http_clients, census, crowd_leaving, [stream.name for stream in streams.STREAMS],
                           http_port)]]
    print(f"soak: {minutes:g} min, warm-up {warmup:.0f} s, {socket_clients} socket and {http_clients} HTTP "
          f"clients, daemon pid {daemon.pid}; samples in {folder}/soak.csv", flush=True)
    ended_early, after_crowd = None, before_crowd
    try:
        await asyncio.wait_for(daemon.wait(), minutes * 60 - CROWD_DELAY)
        ended_early = f"the daemon exited with status {daemon.returncode} during the soak (see daemon.log)"
    except asyncio.TimeoutError:
        sampling.cancel()  # the samples describe the run, not the crowd's leaving
        await sampler.sample()  # the last row, at the end of the run
        crowd_leaving.set()  # set first: asyncio.wait_for can swallow a cancellation that meets a timeout
        for task in crowd:
            task.cancel()
        await asyncio.wait(crowd, timeout=QUIET_WAIT)
        after_crowd = {"fds": await quiet_descriptors(daemon.pid, before_crowd["fds"]),
                       "heap_mib": await heap_in_use(metrics_port)}
    stopping.set()
    crowd_leaving.set()
    for task in tasks + crowd:
        task.cancel()
    await asyncio.wait(tasks + crowd, timeout=QUIET_WAIT)
    if daemon.returncode is None:
        daemon.terminate()  # SIGTERM: subscribers get end (daemonStopping), the daemon exits 0
        try:
            await asyncio.wait_for(daemon.wait(), 15)
        except asyncio.TimeoutError:
            daemon.kill()
            ended_early = "the daemon did not exit within 15 s of SIGTERM"
    station.kill()
    await station.wait()

    rows = sampler.rows()
    failures, figures = verdict.judge(rows, warmup, streams.STREAMS, findings.failures, before_crowd, after_crowd)
    failures += [f"the metrics did not answer at {what}" for what in sampler.unanswered]
    if ended_early:
        failures.insert(0, ended_early)
    elif daemon.returncode != 0:
        failures.insert(0, f"the daemon exited with status {daemon.returncode} after SIGTERM")
    summary = {"minutes": minutes, "warmup_seconds": warmup, "socket_clients": socket_clients,
               "http_clients": http_clients, "reloads": reloads[0], "checked_packets": findings.packets,
               "hls_players": hls_per_stream * sum(1 for stream in streams.STREAMS if stream.hls),
               "hls_parts": findings.hls_parts,
               "fds_before_crowd": before_crowd["fds"], "fds_after_crowd": after_crowd["fds"],
               "heap_before_crowd": before_crowd["heap_mib"], "heap_after_crowd": after_crowd["heap_mib"],
               "failures": failures, **figures}
    with open(f"{folder}/summary.json", "w") as file:
        json.dump(summary, file, indent=1)
    for failure in failures:
        print(f"soak: FAILED: {failure}", file=sys.stderr)
    print("soak: passed" if not failures else f"soak: {len(failures)} failure(s)", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(asyncio.run(main(*sys.argv[1:])))
