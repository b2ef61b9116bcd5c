#!/usr/bin/env python3
"""Makes the Ogg fixtures (Vorbis, Opus, chained, multiplexed and damaged streams) and records their expected
values.

    python3 Tests/Fixtures/make_ogg_fixtures.py      (from anywhere; paths are found from this file)

make-fixtures.sh calls it. Needs sox, ffmpeg/ffprobe, oggenc (vorbis-tools), opusenc and opusinfo (opus-tools)
and Python 3 with mutagen. Output is byte-identical from run to run: the source signal is make-fixtures.sh's
(`sox -R`), every serial number is given, junk comes from a seeded generator.

Writes Tests/Fixtures/ogg/NAME.{ogg,opus} and, per fixture, expected/ogg/NAME.packets.csv (`page,size,frames`:
the offset of the page the packet starts on, its size, its frames or -1 where ffprobe does not give the codec's
count) and expected/ogg/NAME.json (facts from ffmpeg, opusinfo and mutagen). See README.md ("Ogg").

The truth comes from ffprobe (clean files) or from composition of ffprobe's lists of clean parts (chained,
junk, damaged), never from our parser:
- ffprobe's packet `pos` is the page on which the packet starts;
- ffprobe's duration is the codec's frame count except where it trims: a Vorbis stream's first packet (which
  decodes to nothing, Vorbis I §4.3.8, while ffprobe gives it half a block) and the last packet of a Vorbis or
  Opus stream (ffprobe cuts it to the final granule position). Those are written as -1, and the totals in
  NAME.json check them: `validFrames` is the stream's length (ffprobe's duration_ts less pre-skip; for Opus
  also what `ffmpeg -f s16le` outputs, `decodedFrames`), `lastPacketTrimmedFrames` ffprobe's duration of the
  last packet, cut to the final granule position (the packet's frames less the stream's remainder).
"""

import base64
import hashlib
import json
import os
import random
import struct
import subprocess
import sys
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "ogg")
EXP = os.path.join(HERE, "expected", "ogg")
sys.path.insert(0, HERE)
from make_codec_fixtures import source_wav, run, write_json  # noqa: E402
from fixture_folders import remade  # noqa: E402

FFMPEG = ["ffmpeg", "-v", "error", "-nostdin", "-y"]


def pages(data):
    """(offset, length, flags, serial, lacing) of every page of a clean file (RFC 3533 §6)."""
    out, p = [], 0
    while p < len(data):
        assert data[p:p + 4] == b"OggS", p
        n = data[p + 26]
        lacing = list(data[p + 27:p + 27 + n])
        length = 27 + n + sum(lacing)
        out.append((p, length, data[p + 5], struct.unpack_from("<I", data, p + 14)[0], lacing))
        p += length
    return out


def ogg_crc(data):
    """The page CRC (RFC 3533 §6: polynomial 0x04C11DB7, not reflected, initial 0, no final XOR), bit by bit."""
    crc = 0
    for byte in data:
        crc ^= byte << 24
        for _ in range(8):
            crc = (crc << 1 ^ 0x04C11DB7 if crc & 0x80000000 else crc << 1) & 0xFFFFFFFF
    return crc


def opus_frames(packet):
    """48 kHz samples of an Opus packet, from its TOC byte (RFC 6716 §3.1)."""
    config, code = packet[0] >> 3, packet[0] & 3
    if config < 12:
        size = [480, 960, 1920, 2880][config & 3]
    elif config < 16:
        size = 480 if config % 2 == 0 else 960
    else:
        size = [120, 240, 480, 960][config & 3]
    return size * (1 if code == 0 else 2 if code < 3 else packet[1] & 0x3F)


def repaginate(data, body_limit):
    """An Opus file's packets laid out again on pages of at most `body_limit` body bytes, so that packets run on
    across pages (continued flag) as long pages of other muxers make them; granule positions recounted from the
    packets' TOC bytes, the last page keeping the original end."""
    packets, current = [], b""
    for page, _, _, _, lacing in pages(data):
        body = 27 + len(lacing)
        for value in lacing:
            current += data[page + body:page + body + value]
            body += value
            if value < 255:
                packets.append(current)
                current = b""
    walked = pages(data)
    final_granule = struct.unpack_from("<q", data, walked[-1][0] + 6)[0]
    serial = walked[0][3]
    out, sequence = bytearray(), 0

    def page(body_pieces, flags, granule):
        nonlocal sequence
        lacing, body = [], b""
        for piece, ends in body_pieces:
            lacing += [255] * (len(piece) // 255) + ([len(piece) % 255] if ends else [])
            body += piece
        assert len(lacing) <= 255
        header = b"OggS" + bytes([0, flags]) + struct.pack("<qIII", granule, serial, sequence, 0) + bytes([len(lacing)])
        raw = bytearray(header + bytes(lacing) + body)
        struct.pack_into("<I", raw, 22, ogg_crc(raw))
        out.extend(raw)
        sequence += 1

    page([(packets[0], True)], 2, 0)
    page([(packets[1], True)], 0, 0)
    pieces, size, flags, granule, page_granule = [], 0, 0, 0, -1
    for packet in packets[2:]:
        granule += opus_frames(packet)
        rest = packet
        while len(rest) > body_limit - size:
            # Fill the page with whole segments of the packet; it goes on on the next page.
            room = body_limit - size
            take = room - room % 255
            if take:
                pieces.append((rest[:take], False))
                rest = rest[take:]
            page(pieces, flags, page_granule)
            pieces, size, flags, page_granule = [], 0, 1 if take else 0, -1
        pieces.append((rest, True))
        size += len(rest)
        page_granule = granule
    page(pieces, flags | 4, final_granule)
    return bytes(out)


def page_offsets(data):
    """The offset of every page whose CRC matches, wherever it is (junk and damaged pages are not pages)."""
    out, p = [], data.find(b"OggS")
    while 0 <= p and p + 27 <= len(data):
        n = data[p + 26]
        length = 27 + n + sum(data[p + 27:p + 27 + n])
        page = bytearray(data[p:p + length])
        stored = struct.unpack_from("<I", page, 22)[0] if len(page) == length else None
        page[22:26] = b"\0\0\0\0"
        if stored is not None and ogg_crc(page) == stored:
            out.append(p)
            p += length
        else:
            p = data.find(b"OggS", p + 1)
    return out


def ffprobe_packets(path):
    out = json.loads(run(["ffprobe", "-v", "error", "-select_streams", "a:0", "-show_packets", "-show_entries",
                          "packet=pos,size,duration", "-of", "json", path]))
    return [[int(p["pos"]), int(p["size"]), int(p.get("duration", -1))] for p in out.get("packets", [])]


def ffprobe_stream(path):
    out = json.loads(run(["ffprobe", "-v", "error", "-select_streams", "a:0", "-show_streams", "-of", "json", path]))
    return out["streams"][0]


def decoded_frames(path, channels):
    pcm = run(FFMPEG + ["-i", path, "-map", "0:a:0", "-f", "s16le", "-"])
    return len(pcm) // (2 * channels)


def opus_preskip(path):
    for line in run(["opusinfo", path]).decode().splitlines():
        if "Pre-skip:" in line:
            return int(line.split(":")[1])
    raise ValueError(path)


def mutagen_view(path):
    """Each comment as written and each picture (METADATA_BLOCK_PICTURE decoded), as mutagen reads them."""
    import mutagen
    import mutagen.flac
    f = mutagen.File(path)
    comments, pictures = [], []
    for key, value in f.tags:
        if key.lower() == "metadata_block_picture":
            pic = mutagen.flac.Picture(base64.b64decode(value))
            pictures.append({"type": pic.type, "mime": pic.mime, "description": pic.desc, "size": len(pic.data),
                             "md5": hashlib.md5(pic.data).hexdigest()})
        else:
            comments.append([key, value])
    return {"comments": comments, "pictures": pictures}


def facts(path, codec, probe, parts=None):
    stream = ffprobe_stream(path)
    channels = int(stream["channels"])
    out = {"codec": codec, "sampleRate": int(stream["sample_rate"]), "channels": channels,
           "decodedFrames": decoded_frames(path, channels), "packets": len(probe)}
    if codec == "flac":
        out["bitsPerSample"] = int(stream["bits_per_raw_sample"])
    if codec == "opus":
        out["primingFrames"] = opus_preskip(path)
        out["validFrames"] = int(stream["duration_ts"]) - out["primingFrames"]
    else:
        out["validFrames"] = int(stream["duration_ts"])
    # ffprobe cuts the last packet to the final granule position: what it cut is the stream's remainder.
    out["lastPacketTrimmedFrames"] = probe[-1][2]
    if parts is None:
        out["tags"] = mutagen_view(path)
    return out


def trusted(probe, codec):
    """ffprobe's rows with the frame counts it does not give the codec's way marked -1."""
    rows = [list(r) for r in probe]
    if codec == "flac":
        return rows
    rows[-1][2] = -1
    if codec == "vorbis":
        rows[0][2] = -1
    return rows


def without_page(rows, walked, page):
    """The rows left when the page at `page` is lost: those of packets starting on it go, and so does the packet
    it continues, if it is a continued page."""
    continued = next(w[2] & 1 for w in walked if w[0] == page)
    before = [i for i, r in enumerate(rows) if r[0] < page]
    lost = {i for i, r in enumerate(rows) if r[0] == page} | ({before[-1]} if continued and before else set())
    return [r for i, r in enumerate(rows) if i not in lost]


def write_expected(name, rows, fact):
    data = open(next(os.path.join(OUT, f) for f in os.listdir(OUT) if f.rsplit(".", 1)[0] == name), "rb").read()
    fact["pageOffsets"] = page_offsets(data)
    with open(os.path.join(EXP, name + ".packets.csv"), "w") as f:
        f.write("page,size,frames\n")
        for page, size, frames in rows:
            f.write(f"{page},{size},{frames}\n")
    write_json(os.path.join(EXP, name + ".json"), fact)


def png(width=8, height=8):
    """A small PNG, made here so the picture bytes never change."""
    raw = b"".join(b"\x00" + bytes(c for x in range(width) for c in (x * 32, y * 32, 128)) for y in range(height))

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def vorbis(work, name, rate, ch, dur, quality, serial, tags=(), folder=OUT):
    src = source_wav(work, rate, ch, dur, name)
    path = os.path.join(folder, name + ".ogg")
    run(["oggenc", "-Q", "-q", str(quality), "-s", str(serial)] + list(tags) + ["-o", path, src])
    return path


def opus(work, name, rate, ch, dur, kbps, serial, tags=(), folder=OUT):
    src = source_wav(work, rate, ch, dur, name)
    path = os.path.join(folder, name + ".opus")
    run(["opusenc", "--quiet", "--bitrate", str(kbps), "--serial", str(serial)] + list(tags) + [src, path])
    return path


def flac_in_ogg(work, name, rate, ch, dur, bits, block, serial):
    """FLAC in Ogg by ffmpeg (one frame a packet); large blocks of noise make packets run on across pages."""
    src = source_wav(work, rate, ch, dur, name)
    path = os.path.join(OUT, name + ".oga")
    run(FFMPEG + ["-i", src, "-c:a", "flac", "-sample_fmt", "s32" if bits > 16 else "s16",
                  "-bits_per_raw_sample", str(bits), "-frame_size", str(block), "-fflags", "+bitexact",
                  "-flags:a", "+bitexact", "-serial_offset", str(serial), "-f", "ogg", path])
    return path


def clean(name, path, codec):
    probe = ffprobe_packets(path)
    write_expected(name, trusted(probe, codec), facts(path, codec, probe))


def composed(name, ext, pieces, codec):
    """Writes the concatenation of `pieces` (bytes, expected rows or None for junk) and its expected rows: each
    part's rows moved by where the part starts."""
    data, rows, starts = b"", [], []
    for piece, piece_rows in pieces:
        starts.append(len(data))
        rows += [[page + len(data), size, frames] for page, size, frames in piece_rows or []]
        data += piece
    path = os.path.join(OUT, name + ext)
    open(path, "wb").write(data)
    write_expected(name, rows, {"codec": codec, "packets": len(rows), "partOffsets": starts})


def junk(seed, size):
    """Seeded random bytes with capture patterns that start no valid page."""
    rng = random.Random(seed)
    out = bytearray(rng.randrange(256) for _ in range(size))
    for at in range(0, size - 40, 97):
        out[at:at + 4] = b"OggS"
        out[at + 4] = 0
    return bytes(out)


def main():
    with remade(OUT, EXP) as work:
        make_all(work)


def make_all(work):
    picture = os.path.join(work, "cover.png")
    open(picture, "wb").write(png())
    made = {
        "ogg-vorbis-q0-44k-stereo": (vorbis(work, "ogg-vorbis-q0-44k-stereo", 44100, 2, 2.0, 0, 101), "vorbis"),
        "ogg-vorbis-q8-48k-stereo": (vorbis(work, "ogg-vorbis-q8-48k-stereo", 48000, 2, 2.0, 8, 102), "vorbis"),
        "ogg-vorbis-22k-mono": (vorbis(work, "ogg-vorbis-22k-mono", 22050, 1, 1.5, 3, 103), "vorbis"),
        "ogg-opus-16k-mono": (opus(work, "ogg-opus-16k-mono", 16000, 1, 2.0, 16, 201), "opus"),
        "ogg-opus-64k-stereo": (opus(work, "ogg-opus-64k-stereo", 44100, 2, 2.0, 64, 202), "opus"),
        "ogg-opus-500k-stereo": (opus(work, "ogg-opus-500k-stereo", 48000, 2, 2.0, 500, 203), "opus"),
        "ogg-vorbis-tags": (vorbis(work, "ogg-vorbis-tags", 44100, 2, 1.0, 2, 104, [
            "-t", "Vorbis Title ünïcödé", "-a", "Artist One", "-a", "Artist Two", "-l", "The Album", "-N", "7",
            "-G", "Jazz", "-d", "2023-05-01", "-c", "ALBUMARTIST=Various", "-c", "TRACKTOTAL=12",
            "-c", "DISCNUMBER=2", "-c", "DISCTOTAL=3", "-c", "COMPOSER=Composer", "-c", "DESCRIPTION=A comment",
            "-c", "BPM=120", "-c", "GROUPING=Group", "-c", "CUSTOM=kept as written"]), "vorbis"),
        "ogg-opus-tags": (opus(work, "ogg-opus-tags", 48000, 2, 1.0, 64, 204, [
            "--title", "Opus Title", "--artist", "Opus Artist", "--album", "Opus Album", "--date", "2024",
            "--genre", "Electronic", "--comment", "TRACKNUMBER=3/12", "--comment", "COMMENT=hello",
            "--picture", f"3||Front cover|8x8x24|{picture}"]), "opus"),
    }
    made["ogg-flac-44k-stereo"] = (flac_in_ogg(work, "ogg-flac-44k-stereo", 44100, 2, 1.5, 16, 4608, 501), "flac")
    made["ogg-flac-96k-24bit-large-blocks"] = (
        flac_in_ogg(work, "ogg-flac-96k-24bit-large-blocks", 96000, 2, 1.0, 24, 16384, 502), "flac")
    for name, (path, codec) in made.items():
        clean(name, path, codec)

    # Packets running on across pages: the 500 kb/s stream laid out on pages of at most 1000 body bytes.
    path = os.path.join(OUT, "ogg-opus-continued.opus")
    open(path, "wb").write(repaginate(open(made["ogg-opus-500k-stereo"][0], "rb").read(), 1000))
    clean("ogg-opus-continued", path, "opus")
    made["ogg-opus-continued"] = (path, "opus")

    def part(name, path, codec):
        return open(path, "rb").read(), trusted(ffprobe_packets(path), codec)

    # Chained streams: two logical streams one after the other (a title change on an Icecast Ogg mount).
    # Pages of 100 ms, as a live encoder writes them (opusenc's default is up to 1 s).
    first = opus(work, "chain-a", 48000, 2, 2.0, 64, 301, ["--title", "First", "--max-delay", "100"], work)
    second = opus(work, "chain-b", 48000, 2, 2.0, 96, 302, ["--title", "Second", "--max-delay", "100"], work)
    composed("ogg-opus-chained", ".opus", [part("a", first, "opus"), part("b", second, "opus")], "opus")
    first = vorbis(work, "chain-c", 44100, 2, 1.0, 2, 303, ["-t", "First"], work)
    second = vorbis(work, "chain-d", 22050, 1, 1.0, 2, 304, ["-t", "Second"], work)
    composed("ogg-vorbis-chained-rate", ".ogg", [part("c", first, "vorbis"), part("d", second, "vorbis")],
             "vorbis")

    # Multiplexed: two audio logical streams in one group; the first is followed (ffprobe's a:0).
    a = made["ogg-opus-64k-stereo"][0]
    b = made["ogg-vorbis-q0-44k-stereo"][0]
    path = os.path.join(OUT, "ogg-multiplexed.ogg")
    run(FFMPEG + ["-i", a, "-i", b, "-map", "0:a", "-map", "1:a", "-c", "copy", "-fflags", "+bitexact",
                  "-serial_offset", "400", "-f", "ogg", path])
    probe = ffprobe_packets(path)
    write_expected("ogg-multiplexed", trusted(probe, "opus"), {"codec": "opus", "packets": len(probe),
                                                              "logicalStreams": 2})

    # Damaged streams, composed from a clean one's pages.
    base = made["ogg-opus-continued"][0]
    data = open(base, "rb").read()
    rows = trusted(ffprobe_packets(base), "opus")
    walked = pages(data)
    # Junk between two pages in the middle.
    cut = walked[len(walked) // 2][0]
    composed("ogg-opus-junk-between", ".opus",
             [(data[:cut], [r for r in rows if r[0] < cut]), (junk(7, 700), None),
              (data[cut:], [[r[0] - cut, r[1], r[2]] for r in rows if r[0] >= cut])], "opus")
    # One page's CRC broken (a body byte flipped): the packets starting on it are lost, and so is the packet it
    # continues.
    page, length = walked[len(walked) // 3][:2]
    broken = bytearray(data)
    broken[page + length - 5] ^= 0x5A
    composed("ogg-opus-bad-crc", ".opus", [(bytes(broken), without_page(rows, walked, page))], "opus")
    # Cut in the middle of the last page: its packets are lost, and so is the one it continues.
    page, length = walked[-1][:2]
    composed("ogg-opus-cut", ".opus", [(data[:page + length // 2], without_page(rows, walked, page))], "opus")
    # The first page (BOS, OpusHead) missing: nothing can be decoded.
    composed("ogg-opus-no-bos", ".opus", [(data[walked[1][0]:], [])], "opus")
    print(f"make_ogg_fixtures: {len(os.listdir(OUT))} fixtures in {OUT}")


if __name__ == "__main__":
    main()
