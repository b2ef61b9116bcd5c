#!/usr/bin/env python3
"""Makes the CAF fixtures and records their expected values.

    python3 Tests/Fixtures/make_caf_fixtures.py      (from anywhere; paths are found from this file)

make-fixtures.sh calls it after make_flac_fixtures.py. Needs sox and ffmpeg/ffprobe 5.1 (Debian). Installs
nothing. Output is byte-identical from run to run: the source signal is make-fixtures.sh's (`sox -R`), every
encoder option is spelled out, ffmpeg runs with `-fflags +bitexact -flags:a +bitexact`.

Writes Tests/Fixtures/caf/caf-*.caf and, per fixture, expected/caf/NAME.packets.csv (`offset,size,frames`: the
packets ffprobe lists; for PCM, ffprobe's groups of frames, which tests only sum) and expected/caf/NAME.json (what
ffprobe says of the stream and its tags, and the chunk layout).

What ffmpeg 5.1's CAF muxer writes, and so what is made here:
- PCM (`lpcm` s16le, s24be, f32le; `ulaw`, `alaw`) and IMA4 (`ima4`, constant 68-byte packets of 64 frames):
  desc, chan, info, data; to a pipe, a data chunk of size -1 (caf-s16le-streamed).
- ALAC and Opus: the packet table (`pakt`) after the data, which a stream cannot cut (Apple's "not optimized").
  caf-alac-pakt-at-end is kept as ffmpeg wrote it; caf-alac-* and caf-opus-* have their pakt moved before the
  data, as Apple's afconvert writes it (the chunks are moved whole: every byte is ffmpeg's). ffmpeg writes no
  `kuki` for Opus.
- AAC: ffmpeg's CAF muxer refuses it ("muxing codec currently unsupported"), so caf-aac-44k-stereo is composed
  here from ffmpeg's own AAC encode (ADTS headers stripped, the AudioSpecificConfig as ffmpeg writes it into an
  MP4 esds) in the layout afconvert writes: desc, chan, kuki (an ES_Descriptor whose lengths use the 4-byte form,
  as Apple's writers do), pakt (with priming and remainder), data. ffprobe then reads the composed file: its
  packets, and its extradata (the AudioSpecificConfig it finds in the kuki), are the expected values.
- FLAC: ffmpeg 5.1 writes a desc with 0x55555556 frames per packet and a zero-size last packet: not a file to
  test against, so there is none.

PacketTableInfo facts come from a small pakt-header reader written here from Apple's CAF specification (three
big-endian fields after the packet count), cross-checked against ffprobe's nb_frames (their sum).
"""

import json
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "caf")
EXP = os.path.join(HERE, "expected", "caf")
sys.path.insert(0, HERE)
from make_codec_fixtures import (FFMPEG, adts_walk, ffprobe_packets, ffprobe_stream, mp4_extradata, run,  # noqa: E402
                                 source_wav, write_json)
from make_flac_fixtures import extradata  # noqa: E402
from fixture_folders import remade  # noqa: E402

BITEXACT = ["-fflags", "+bitexact", "-flags:a", "+bitexact"]

# ---------------------------------------------------------------- CAF, from Apple's specification


def chunks(data):
    """[(type, offset, size)] of the chunks after the 8-byte file header; a size of -1 runs to the end."""
    assert data[:8] == b"caff\x00\x01\x00\x00"
    out, pos = [], 8
    while pos + 12 <= len(data):
        kind, size = data[pos:pos + 4].decode("latin-1"), struct.unpack(">q", data[pos + 4:pos + 12])[0]
        out.append((kind, pos, size))
        if size < 0:
            break
        pos += 12 + size
    return out


def chunk(kind, body):
    return kind.encode() + struct.pack(">q", len(body)) + body


def chunk_body(data, kind):
    for k, pos, size in chunks(data):
        if k == kind:
            return data[pos + 12:pos + 12 + size] if size >= 0 else data[pos + 12:]
    return None


def pakt_header(body):
    """(packets, valid frames, priming, remainder) of a pakt chunk body."""
    return struct.unpack(">qqii", body[:24])


def varint(value):
    """A BER-style unsigned integer: 7 bits a byte, high bit set on all but the last."""
    out = [value & 0x7F]
    value >>= 7
    while value:
        out.append(0x80 | value & 0x7F)
        value >>= 7
    return bytes(reversed(out))


def with_pakt_first(data):
    """The file with its pakt chunk moved before its data chunk, every chunk otherwise as it was."""
    parts = {k: data[pos:pos + 12 + size] for k, pos, size in chunks(data)}
    order = [k for k, _, _ in chunks(data) if k != "pakt"]
    at = order.index("data")
    order.insert(at, "pakt")
    return data[:8] + b"".join(parts[k] for k in order)


def descriptor(tag, body):
    """An MPEG-4 descriptor (ISO/IEC 14496-1 8.3.3) with its length in the 4-byte form Apple's writers use."""
    n = len(body)
    return bytes([tag, 0x80 | n >> 21 & 0x7F, 0x80 | n >> 14 & 0x7F, 0x80 | n >> 7 & 0x7F, n & 0x7F]) + body


def es_descriptor(asc, bitrate):
    """The ES_Descriptor of an AAC stream (14496-1 7.2.6.5): ES_ID 0, no flags; DecoderConfigDescriptor for
    Audio ISO/IEC 14496-3 (0x40), stream type audio (0x15); DecoderSpecificInfo = the AudioSpecificConfig;
    SLConfigDescriptor predefined 2."""
    config = bytes([0x40, 0x15, 0, 0, 0]) + struct.pack(">II", bitrate, bitrate) + descriptor(5, asc)
    return descriptor(3, b"\x00\x00\x00" + descriptor(4, config) + descriptor(6, b"\x02"))


# ---------------------------------------------------------------- expected values


def probed_packets(path, stream):
    """(offset, size, frames) of every packet ffprobe lists. Where ffprobe gives no duration (packets cut by a
    pakt), a packet's frames are the distance to the next one's pts, and the last one's to duration_ts."""
    cmd = ["ffprobe", "-v", "error", "-select_streams", "a:0", "-show_entries", "packet=pos,size,pts,duration",
           "-of", "json", path]
    rows = json.loads(run(cmd))["packets"]
    pts = [int(p["pts"]) for p in rows] + [int(stream["duration_ts"])]
    out = []
    for i, p in enumerate(rows):
        frames = int(p["duration"]) if p.get("duration") not in (None, "N/A") else pts[i + 1] - pts[i]
        out.append((int(p["pos"]), int(p["size"]), frames))
    return out


def record(name, path, how, extra=None):
    data = open(path, "rb").read()
    stream, fmt = ffprobe_stream(path)
    packets = probed_packets(path, stream)
    with open(os.path.join(EXP, name + ".packets.csv"), "w") as f:
        f.write("offset,size,frames\n")
        for row in packets:
            f.write("%d,%d,%d\n" % row)
    facts = {
        "madeWith": how,
        "codec": stream["codec_name"], "codecTag": stream["codec_tag_string"],
        "sampleRate": int(stream["sample_rate"]), "channels": int(stream["channels"]),
        "channelLayout": stream.get("channel_layout"),
        "extradata": extradata(path),
        "packetCount": len(packets), "firstPacketOffset": packets[0][0],
        "byteCount": sum(size for _, size, _ in packets), "frameCount": sum(f for _, _, f in packets),
        "chunks": [[k, pos, size] for k, pos, size in chunks(data)],
        "tags": (fmt or {}).get("tags", {}),
    }
    pakt = chunk_body(data, "pakt")
    if pakt is not None:
        count, valid, priming, remainder = pakt_header(pakt)
        assert count == len(packets), f"{name}: pakt and ffprobe disagree on the packet count"
        # ffmpeg's CAF demuxer counts priming and remainder in nb_frames.
        assert stream.get("nb_frames") in (None, str(valid + priming + remainder)), f"{name}: pakt and ffprobe disagree"
        facts["packetTableInfo"] = {"validFrames": valid, "primingFrames": priming, "remainderFrames": remainder}
    facts.update(extra or {})
    write_json(os.path.join(EXP, name + ".json"), facts)


# ---------------------------------------------------------------- the fixtures


def ffmpeg_caf(wav, out, args, pipe=False):
    cmd = FFMPEG + ["-i", wav] + args + BITEXACT + ["-f", "caf", "pipe:" if pipe else out]
    if pipe:
        with open(out, "wb") as f:
            f.write(run(cmd))
    else:
        run(cmd)


def make(work):
    recipes = [
        # name, rate, channels, seconds, ffmpeg arguments, what it covers
        ("caf-s16le-44k-stereo", 44100, 2, 0.2, ["-c:a", "pcm_s16le"], "lpcm 16-bit little-endian"),
        ("caf-s24be-48k-mono", 48000, 1, 0.2, ["-c:a", "pcm_s24be"], "lpcm 24-bit big-endian"),
        ("caf-f32le-22k-mono", 22050, 1, 0.2, ["-c:a", "pcm_f32le"], "lpcm 32-bit float little-endian"),
        ("caf-ulaw-8k-mono", 8000, 1, 0.3, ["-c:a", "pcm_mulaw"], "G.711 mu-law"),
        ("caf-alaw-8k-stereo", 8000, 2, 0.3, ["-c:a", "pcm_alaw"], "G.711 A-law"),
        ("caf-ima4-44k-stereo", 44100, 2, 0.2, ["-c:a", "adpcm_ima_qt"], "IMA4: constant 68-byte packets"),
        ("caf-s16le-22k-5.1", 22050, 6, 0.1, ["-c:a", "pcm_s16le", "-channel_layout", "5.1"], "5.1 chan chunk"),
        ("caf-tags", 22050, 1, 0.1, ["-c:a", "pcm_s16le", "-metadata", "title=Fixture Title",
                                     "-metadata", "artist=Fixture Artist", "-metadata", "album=Fixture Album",
                                     "-metadata", "year=2024", "-metadata", "genre=Electronic",
                                     "-metadata", "track number=3/12", "-metadata", "comments=A comment",
                                     "-metadata", "composer=Fixture Composer", "-metadata", "tempo=120",
                                     "-metadata", "lyricist=Fixture Lyricist"], "info chunk, Apple's keys"),
        ("caf-alac-44k-stereo", 44100, 2, 0.3, ["-c:a", "alac"], "ALAC, kuki frma/alac atoms, pakt first"),
        ("caf-alac-pakt-at-end", 44100, 2, 0.3, ["-c:a", "alac"], "ALAC as ffmpeg writes it: pakt after data"),
        ("caf-opus-48k-stereo", 48000, 2, 0.3, ["-c:a", "libopus", "-b:a", "64k"], "Opus, pakt first, no kuki"),
    ]
    for name, rate, channels, seconds, args, covers in recipes:
        wav = source_wav(work, rate, channels, seconds, name)
        path = os.path.join(OUT, name + ".caf")
        ffmpeg_caf(wav, path, args)
        how = f"{covers}: {seconds} s {rate} Hz {channels} ch, ffmpeg {' '.join(args)} -f caf"
        if name in ("caf-alac-44k-stereo", "caf-opus-48k-stereo"):
            data = open(path, "rb").read()
            open(path, "wb").write(with_pakt_first(data))
            how += "; pakt moved before data"
        record(name, path, how, {"paktAfterData": name == "caf-alac-pakt-at-end"})

    wav = source_wav(work, 44100, 2, 0.2, "streamed")
    path = os.path.join(OUT, "caf-s16le-streamed.caf")
    ffmpeg_caf(wav, path, ["-c:a", "pcm_s16le"], pipe=True)
    assert chunks(open(path, "rb").read())[-1][2] == -1, "ffmpeg wrote a data size to a pipe"
    record("caf-s16le-streamed", path, "0.2 s 44100 Hz 2 ch, ffmpeg -c:a pcm_s16le -f caf pipe: (data size -1)")

    make_aac(work)


def make_aac(work):
    """AAC-LC composed in afconvert's layout from ffmpeg's encode (see the module comment)."""
    rate, channels, bitrate = 44100, 2, 64000
    wav = source_wav(work, rate, channels, 0.3, "aac")
    adts = os.path.join(work, "aac.aac")
    run(FFMPEG + ["-i", wav, "-c:a", "aac", "-b:a", str(bitrate)] + BITEXACT + ["-f", "adts", adts])
    data = open(adts, "rb").read()
    frames, end = adts_walk(data)
    assert end == len(data), "the ADTS walk did not reach the end"
    units = [data[pos + h.header_size:pos + length] for pos, length, h in frames]
    asc = bytes.fromhex(mp4_extradata(adts, work))
    samples = int(run(["soxi", "-s", wav]))
    priming = 1024  # ffmpeg's AAC encoder delay, as it writes it into an MP4 edit list
    remainder = len(units) * 1024 - priming - samples
    desc = struct.pack(">d4sIIIII", rate, b"aac ", 2, 0, 1024, channels, 0)  # flags: object type 2 (LC)
    pakt = struct.pack(">qqii", len(units), samples, priming, remainder) + b"".join(varint(len(u)) for u in units)
    body = (chunk("desc", desc) + chunk("chan", struct.pack(">III", 101 << 16 | 2, 0, 0))
            + chunk("kuki", es_descriptor(asc, bitrate)) + chunk("pakt", pakt)
            + chunk("data", b"\x00\x00\x00\x00" + b"".join(units)))
    path = os.path.join(OUT, "caf-aac-44k-stereo.caf")
    open(path, "wb").write(b"caff\x00\x01\x00\x00" + body)
    record("caf-aac-44k-stereo", path, "AAC-LC composed from ffmpeg -c:a aac -b:a 64k -f adts (0.3 s 44100 Hz "
           "stereo): desc, chan, kuki (ES_Descriptor), pakt, data", {"audioSpecificConfig": asc.hex()})


def main():
    with remade(OUT, EXP) as work:
        make(work)


if __name__ == "__main__":
    main()
