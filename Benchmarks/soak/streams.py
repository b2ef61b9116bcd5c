"""The soak's eleven streams, the configuration that serves them, and the change each reload makes.

Every kind of source the daemon has is here: files paced at real time and looped (MP3 CBR and VBR, AAC in ADTS
and in an M4A, Ogg Vorbis, Ogg Opus), an ICY station that drops its listeners (icy_server.py), random bytes over
HTTP, standard input (fed by soak.py), and a push mount whose DJ comes and goes (dj.py) over a looped fallback.
Five streams have their sound measured all along (`monitor:`), two of them judged for dead air (`silence:`).
"""
import os
from typing import NamedTuple


class Stream(NamedTuple):
    name: str
    source: str  # as config.yaml says it; FILE: and HTTP: are filled in by `source_line`
    files: tuple = ()  # input files whose bytes an MP3 mount serves unchanged (checked by HTTP listeners)
    has_audio: bool = True  # false: random bytes; it is alive while bytes come in, as it never makes a packet
    hls: str = ""  # the stream's `hls:` settings, when it is served as HLS too (checked by hls_players.py)
    # The stream's sound measured on the side (`monitor:`, `silence:`): its decoder and meter run all along.
    monitor: tuple = ()


LOUDNESS = ("monitor: {loudness: true}",)
DEAD_AIR = LOUDNESS + ("silence: {below: -50, after: 5, back: 2}",)


STREAMS = [
    Stream("mp3-cbr", "FILE:cbr128.mp3", ("cbr128.mp3",), hls="{segment: 2, part: 0.5, window: 30}"),
    Stream("mp3-vbr", "FILE:vbr-v2.mp3", ("vbr-v2.mp3",), monitor=LOUDNESS),
    # Each odd-numbered reload moves this one between two files: its source changed, so it restarts.
    Stream("mp3-swap", "FILE:mono64.mp3", ("mono64.mp3", "cbr128.mp3")),
    Stream("aac-adts", "FILE:aac128.aac", hls="{segment: 2, part: 0.5, window: 30}"),
    # A container whose header places its packets: each pass is read as a new file.
    Stream("aac-m4a", "FILE:aac48-mono.m4a", monitor=LOUDNESS),
    Stream("ogg-vorbis", "FILE:vorbis-q3.ogg", monitor=LOUDNESS),
    Stream("ogg-opus", "FILE:opus64.opus", hls="{segment: 2, part: 0.5, window: 30, container: fmp4}"),
    Stream("icy", "HTTP:/radio.mp3", monitor=DEAD_AIR),
    Stream("random", "HTTP:/random", has_audio=False),
    Stream("stdin", "stdin", hls="{segment: 2, part: 0.5, window: 30}"),
    Stream("live", "PUSH:vbr-v2.mp3", hls="{segment: 2, part: 0.5, window: 30}", monitor=DEAD_AIR),
]
SWAPPED, RETUNED = "mp3-swap", "ogg-vorbis"
SOURCE_PASSWORD = "soak-dj"  # what the DJ (dj.py) sends as user source


def restarted_by(reload_number):
    """The stream a reload restarts (odd reloads swap mp3-swap's file), or None (even reloads change only
    ogg-vorbis's queueSeconds, which the running stream takes without dropping anyone)."""
    return SWAPPED if reload_number % 2 else None


def write_config(path, folder, http_port, metrics_port, station_port, reload_number):
    """config.yaml for the state after `reload_number` reloads (0: the start)."""
    lines = [
        f"control: {folder}/control.sock",
        f"metrics: 127.0.0.1:{metrics_port}",
        f"http: {{listen: \"127.0.0.1:{http_port}\", headerTimeout: 10, formatWait: 10, "
        f"sourcePassword: {SOURCE_PASSWORD}}}",
        "streams:",
    ]
    for stream in STREAMS:
        source = stream.source
        if stream.name == SWAPPED:
            source = f"FILE:{stream.files[(reload_number + 1) // 2 % 2]}"
        lines += [f"  - name: {stream.name}", f"    socket: {folder}/{stream.name}.sock"]
        if source.startswith("FILE:"):
            lines += [f"    source: file:{folder}/{source[5:]}", "    pace: realtime", "    loop: true"]
        elif source.startswith("PUSH:"):
            # The fallback plays whenever the DJ is away: from the start, and after each visit.
            lines += ["    source: push", f"    fallback: {{source: \"file:{folder}/{source[5:]}\", pace: realtime, "
                      "loop: true}"]
        elif source.startswith("HTTP:"):
            # Short waits, so the station's drops cost seconds, not the minute of the default backoff.
            lines += [f"    source: http://127.0.0.1:{station_port}{source[5:]}", "    stallTimeout: 5",
                      "    reconnect: {initialDelay: 0.5, maxDelay: 2}"]
        else:
            lines += [f"    source: {source}"]
        if stream.hls:
            lines += [f"    hls: {stream.hls}"]
        lines += [f"    {line}" for line in stream.monitor]
        if stream.name == RETUNED:
            lines += [f"    queueSeconds: {5 + reload_number // 2 % 2}"]
    text = "\n".join(lines) + "\n"
    with open(path + ".new", "w") as file:
        file.write(text)
    os.replace(path + ".new", path)  # the daemon never reads half a file
