#!/usr/bin/env python3
"""Makes the native FLAC fixtures and records their expected values; records the IETF conformance files' too.

    python3 Tests/Fixtures/make_flac_fixtures.py      (from anywhere; paths are found from this file)

make-fixtures.sh calls it after make_codec_fixtures.py. Needs sox, flac/metaflac (1.4), ffmpeg/ffprobe 5.1 and
Python 3 with mutagen. Installs nothing. Output is byte-identical from run to run: the source signal is
make-fixtures.sh's (`sox -R`), every encoder option is spelled out, the PNG is written here, junk comes from a
seeded generator.

Writes Tests/Fixtures/flac-*.flac and, per fixture, expected/NAME.packets.csv (`offset,size,frames`),
expected/NAME.json, expected/NAME.tags.json for the tagged ones, and expected/NAME.ffprobe.csv where ffprobe's
packets differ from the truth; for each committed file in flac-conformance/ (the IETF FLAC test suite, CC0),
expected/flac-conformance/NAME.packets.csv and .json. See README.md ("Native FLAC fixtures").

The truth comes from ffprobe (clean files) or from composition of ffprobe's list of the clean file, never from
our parser; tags come from mutagen. A walk of the frames written from RFC 9639 (header fields, CRC-8 of the
header, CRC-16 of the frame) cross-checks every clean file: every ffprobe packet is one frame whose CRC-16
holds, the next starting where it ends. The script stops if they disagree.
"""

import base64
import hashlib
import json
import os
import random
import struct
import sys
import tempfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
EXP = os.path.join(HERE, "expected")
CONFORMANCE = os.path.join(HERE, "flac-conformance")
sys.path.insert(0, HERE)
from make_codec_fixtures import ffprobe_packets, ffprobe_stream, run, source_wav, write_json  # noqa: E402

FLAC = ["flac", "--silent", "--force", "--no-seektable", "--padding=0"]

# ---------------------------------------------------------------- RFC 9639, independently of the parser

CRC8 = [0] * 256
CRC16 = [0] * 256
for i in range(256):
    c = i
    for _ in range(8):
        c = ((c << 1) ^ 0x07) & 0xFF if c & 0x80 else (c << 1) & 0xFF
    CRC8[i] = c
    c = i << 8
    for _ in range(8):
        c = ((c << 1) ^ 0x8005) & 0xFFFF if c & 0x8000 else (c << 1) & 0xFFFF
    CRC16[i] = c


def crc8(data):
    """§9.1.8: polynomial x^8 + x^2 + x + 1, initial 0."""
    c = 0
    for b in data:
        c = CRC8[c ^ b]
    return c


def crc16(data):
    """§9.3: polynomial x^16 + x^15 + x^2 + 1, initial 0; over a whole frame, its own CRC included, it is 0."""
    c = 0
    for b in data:
        c = ((c << 8) & 0xFFFF) ^ CRC16[(c >> 8) ^ b]
    return c


BLOCK_SIZES = {1: 192, 2: 576, 3: 1152, 4: 2304, 5: 4608}
RATES = {1: 88200, 2: 176400, 3: 192000, 4: 8000, 5: 16000, 6: 22050, 7: 24000, 8: 32000, 9: 44100, 10: 48000,
         11: 96000}
BITS = {0: None, 1: 8, 2: 12, 4: 16, 5: 20, 6: 24, 7: 32}


def frame_header(data, pos):
    """The frame header at data[pos] as a dict (§9.1), or None: sync 0xFFF8/0xFFF9, no reserved code, a
    coded number of 1-6 bytes (7 for a sample number), CRC-8 good."""
    if pos + 6 > len(data) or data[pos] != 0xFF or data[pos + 1] & 0xFE != 0xF8:
        return None
    variable = data[pos + 1] & 1
    bs_code, rate_code = data[pos + 2] >> 4, data[pos + 2] & 15
    ch_code, bits_code, reserved = data[pos + 3] >> 4, (data[pos + 3] >> 1) & 7, data[pos + 3] & 1
    if bs_code == 0 or rate_code == 15 or ch_code > 10 or bits_code == 3 or reserved:
        return None
    p = pos + 4
    first = data[p]
    extra = 0
    while extra < 7 and first & (0x80 >> extra):
        extra += 1
    if extra == 1 or extra > (7 if variable else 6):
        return None
    count = 1 if extra == 0 else extra
    number = first & (0x7F >> extra if extra else 0x7F)
    if p + count > len(data):
        return None
    for b in data[p + 1:p + count]:
        if b & 0xC0 != 0x80:
            return None
        number = number << 6 | (b & 0x3F)
    p += count
    if bs_code == 6:
        block = data[p] + 1 if p < len(data) else None
        p += 1
    elif bs_code == 7:
        block = int.from_bytes(data[p:p + 2], "big") + 1 if p + 2 <= len(data) else None
        p += 2
        if block == 65536:
            return None
    elif bs_code >= 8:
        block = 256 << (bs_code - 8)
    else:
        block = BLOCK_SIZES[bs_code]
    if rate_code == 12:
        rate = data[p] * 1000 if p < len(data) else None
        p += 1
    elif rate_code in (13, 14):
        rate = int.from_bytes(data[p:p + 2], "big") * (1 if rate_code == 13 else 10) if p + 2 <= len(data) else None
        p += 2
    else:
        rate = RATES.get(rate_code)
    if block is None or p >= len(data) or crc8(data[pos:p]) != data[p]:
        return None
    return {"variable": variable, "number": number, "block": block, "rate": rate,
            "channels": ch_code + 1 if ch_code < 8 else 2, "bits": BITS[bits_code], "length": p + 1 - pos,
            "numberBytes": count}


def follows(nxt, cur):
    """Whether header `nxt` continues `cur`: same blocking strategy, frame number + 1 or sample number + block.
    Early encoders (flake 0.11, conformance file subset-27) wrote variable block sizes under the fixed flag with
    sample numbers, so a fixed header may also go on by its block size."""
    if nxt["variable"] != cur["variable"]:
        return False
    return nxt["number"] == cur["number"] + cur["block"] or (not cur["variable"] and nxt["number"] == cur["number"] + 1)


def walk(data, start):
    """Frames from `start` to the end of `data`, each ending where its CRC-16 is 0 and the next header (which
    continues it) or the end of the data sits: [(offset, size, frames, header)]."""
    frames, pos = [], start
    while pos < len(data):
        h = frame_header(data, pos)
        assert h, f"no frame header at {pos}"
        c, end = 0, None
        for q in range(pos, len(data)):
            c = ((c << 8) & 0xFFFF) ^ CRC16[(c >> 8) ^ data[q]]
            if c == 0 and q + 1 > pos + h["length"]:
                nxt = frame_header(data, q + 1)
                if q + 1 == len(data) or (nxt and follows(nxt, h)):
                    end = q + 1
                    break
        assert end, f"frame at {pos} has no end"
        frames.append((pos, end - pos, h["block"], h))
        pos = end
    return frames


def metadata_blocks(data):
    """[(offset, type, length, is_last)] of the blocks after `fLaC`, and the offset of the first frame."""
    assert data[:4] == b"fLaC"
    pos, blocks = 4, []
    while True:
        last, kind, length = data[pos] >> 7, data[pos] & 0x7F, int.from_bytes(data[pos + 1:pos + 4], "big")
        blocks.append((pos, kind, length, bool(last)))
        pos += 4 + length
        if last:
            return blocks, pos


# ---------------------------------------------------------------- expected values


def probe_frames(path):
    """ffprobe's packets as (offset, size, frames): duration is in the stream time base 1/sample rate."""
    rows = ffprobe_packets(path)
    assert rows is not None, path
    return [(pos, size, duration) for pos, size, duration, _ in rows]


def write_packets(stem, rows, suffix=".packets.csv"):
    with open(stem + suffix, "w") as f:
        f.write("offset,size,frames\n")
        for offset, size, frames in rows:
            f.write(f"{offset},{size},{frames}\n")


def extradata(path):
    """ffprobe's extradata of stream a:0 as hex (`-show_data`), empty when none."""
    out = run(["ffprobe", "-v", "error", "-select_streams", "a:0", "-show_streams", "-show_data", path]).decode()
    lines = out.splitlines()
    hexdigits = ""
    if "extradata=" in lines:
        for line in lines[lines.index("extradata=") + 1:]:
            if not line.startswith("0000"):
                break
            hexdigits += "".join(line.split(":", 1)[1].split("  ")[0].split())
    return hexdigits


def stream_facts(path):
    """What ffprobe and metaflac say of the stream: rate, channels, bit depth, STREAMINFO (ffprobe's extradata,
    which is the STREAMINFO body), its total samples and MD5 (metaflac)."""
    stream, _ = ffprobe_stream(path)
    facts = {"sampleRate": int(stream["sample_rate"]), "channels": int(stream["channels"]),
             "bitsPerSample": int(stream["bits_per_raw_sample"]), "streamInfo": extradata(path)}
    with open(path, "rb") as f:
        has_marker = f.read(4) == b"fLaC"
    if has_marker:
        for key, flag in [("totalSamples", "--show-total-samples"), ("maxFrameSize", "--show-max-framesize"),
                          ("maxBlockSize", "--show-max-blocksize")]:
            facts[key] = int(run(["metaflac", flag, path]))
        facts["md5"] = run(["metaflac", "--show-md5sum", path]).decode().strip()
    return facts


def record(name, path, truth, how, extra=None):
    """Writes expected/NAME.packets.csv (the truth), NAME.json, and NAME.ffprobe.csv when ffprobe differs."""
    stem = os.path.join(EXP, name)
    write_packets(stem, truth)
    probed = probe_frames(path)
    if probed != truth:
        write_packets(stem, probed, ".ffprobe.csv")
    facts = stream_facts(path)
    facts.update({"packetCount": len(truth), "firstPacketOffset": truth[0][0], "madeWith": how})
    facts.update(extra or {})
    write_json(stem + ".json", facts)


def checked_truth(path):
    """ffprobe's packets of a clean file, checked against the RFC 9639 walk."""
    data = open(path, "rb").read()
    probed = probe_frames(path)
    start = metadata_blocks(data)[1] if data[:4] == b"fLaC" else 0
    walked = [(o, s, f) for o, s, f, _ in walk(data, start)]
    assert walked == probed, f"{path}: the walk and ffprobe disagree"
    return probed


def mutagen_tags(path):
    """What mutagen reads: the vendor, every comment as (key, value) in order, every PICTURE block."""
    from mutagen.flac import FLAC as MutagenFLAC
    audio = MutagenFLAC(path)
    pictures = [{"type": p.type, "mime": p.mime, "description": p.desc, "size": len(p.data),
                 "md5": hashlib.md5(p.data).hexdigest()} for p in audio.pictures]
    return {"vendor": audio.tags.vendor, "comments": [[k, v] for k, v in audio.tags], "pictures": pictures}


# ---------------------------------------------------------------- the fixtures


def png(width, height):
    """A small RGB PNG (a colour gradient), written here so it is the same on every run."""
    rows = b"".join(b"\x00" + b"".join(bytes((x * 16 % 256, y * 16 % 256, 128)) for x in range(width))
                    for y in range(height))

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")


def picture_block(kind, mime, description, data, width, height):
    """A FLAC PICTURE block body (RFC 9639 §8.8)."""
    mime_bytes, desc = mime.encode(), description.encode()
    return (struct.pack(">II", kind, len(mime_bytes)) + mime_bytes + struct.pack(">I", len(desc)) + desc
            + struct.pack(">IIIII", width, height, 24, 0, len(data)) + data)


def junk(seed, size, headers):
    """Seeded random bytes without 0xFF or 0x0B (no sync of any format), with a fake FLAC sync every 100 bytes:
    a copy of one of `headers` (real frame headers of the stream, CRC-8 good) or FF F8 / FF F9 and random bytes."""
    rnd = random.Random(seed)
    out = bytearray(b if b not in (0xFF, 0x0B) else 0 for b in rnd.randbytes(size))
    for p in range(20, size - 20, 100):
        fake = rnd.choice(headers) if rnd.random() < 0.5 else bytes([0xFF, rnd.choice([0xF8, 0xF9])]) + rnd.randbytes(6)
        out[p:p + len(fake)] = fake
    return bytes(out)


def false_frames(data, lo, hi):
    """Offsets in data[lo:hi] where a header starts whose CRC-16 reaches 0 where a header continuing it, a tag or
    the end of the data sits: a frame a parser could take there."""
    found = []
    for p in range(lo, hi):
        h = frame_header(data, p)
        if not h:
            continue
        c = 0
        for q in range(p, len(data)):
            c = ((c << 8) & 0xFFFF) ^ CRC16[(c >> 8) ^ data[q]]
            if c == 0 and q + 1 > p + h["length"]:
                nxt = frame_header(data, q + 1)
                if q + 1 == len(data) or (nxt and follows(nxt, h)) or data[q + 1:q + 4] in (b"ID3", b"TAG"):
                    found.append(p)
                    break
    return found


def renumber(frame, number):
    """The frame with its coded frame number replaced (UTF-8-like coding, §9.1.5) and both CRCs recomputed."""
    h = frame_header(frame, 0)
    assert h and not h["variable"] and number < 0x80
    head = bytearray(frame[:4]) + bytes([number]) + frame[4 + h["numberBytes"]:h["length"] - 1]
    head.append(crc8(head))
    body = head + frame[h["length"]:-2]
    return bytes(body) + crc16(body).to_bytes(2, "big")


def clean_old():
    for folder, prefix in [(HERE, "flac-"), (EXP, "flac-")]:
        for name in os.listdir(folder):
            if name.startswith(prefix) and os.path.isfile(os.path.join(folder, name)):
                os.remove(os.path.join(folder, name))
    os.makedirs(os.path.join(EXP, "flac-conformance"), exist_ok=True)
    for name in os.listdir(os.path.join(EXP, "flac-conformance")):
        os.remove(os.path.join(EXP, "flac-conformance", name))


def encode(work, name, rate, channels, bits, seconds, flags):
    wav = source_wav(work, rate, channels, seconds, f"{name}-src")
    if bits != 16:
        converted = os.path.join(work, f"{name}-src{bits}.wav")
        run(["sox", "-R", wav, "-b", str(bits), converted])
        wav = converted
    out = os.path.join(HERE, name + ".flac")
    run(FLAC + flags + ["-o", out, wav])
    return out


def make_clean(work):
    made = {}
    recipes = [
        ("flac-44k-stereo", 44100, 2, 16, 1, ["-5"], "1 s 44.1 kHz stereo 16-bit, `flac -5` (4096-sample blocks)"),
        ("flac-small-blocks", 22050, 1, 16, 0.5, ["-5", "--blocksize=256"],
         "0.5 s 22.05 kHz mono 16-bit, `flac -5 --blocksize=256`"),
        ("flac-48k-24bit", 48000, 2, 24, 0.5, ["-8"], "0.5 s 48 kHz stereo 24-bit, `flac -8`"),
    ]
    for name, rate, channels, bits, seconds, flags, how in recipes:
        path = encode(work, name, rate, channels, bits, seconds, flags)
        made[name] = path
        how = how + "; flac options " + " ".join(FLAC[1:] + flags)
        record(name, path, checked_truth(path), how)
    return made


def make_short_last_frame(work):
    """A tone and a silent tail whose last block is 1249 samples of silence: a constant subframe, a frame of
    13 bytes, shorter than the longest frame header."""
    name = "flac-short-last-frame"
    wav = os.path.join(work, name + ".wav")
    run(["sox", "-D", "-n", "-r", "44100", "-c", "1", "-b", "16", wav, "synth", "1", "sine", "440", "pad", "0", "0.05"])
    path = os.path.join(HERE, name + ".flac")
    flags = ["-b", "4096"]
    run(FLAC + flags + ["-o", path, wav])
    truth = checked_truth(path)
    assert truth[-1][1] < 16, f"{path}: the last frame is {truth[-1][1]} bytes"
    record(name, path, truth, "1 s of a 440 Hz sine and 0.05 s of silence, 44.1 kHz mono 16-bit (`sox -D`); flac "
           "options " + " ".join(FLAC[1:] + flags) + f"; its last frame is {truth[-1][1]} bytes")


def make_tagged(work, clean):
    """Tags written by metaflac on a copy of the clean stereo file; values recorded by mutagen."""
    cover = png(16, 12)
    cover_path = os.path.join(work, "cover.png")
    with open(cover_path, "wb") as f:
        f.write(cover)
    # A second picture carried the Ogg way, base64 in a comment, as some taggers write it into FLAC too.
    back = png(4, 4)
    embedded = base64.b64encode(picture_block(4, "image/png", "back", back, 4, 4)).decode()
    sets = {
        "flac-tags-picture": [
            "TITLE=Fixture Title", "ARTIST=First Artist", "ARTIST=Second Artist", "ALBUM=Fixture Album",
            "ALBUMARTIST=Album Band", "DATE=2024-05-01", "TRACKNUMBER=3/12", "DISCNUMBER=1", "DISCTOTAL=2",
            "GENRE=Electronic", "COMPOSER=Composer Name", "DESCRIPTION=Words about it", "BPM=128",
            "GROUPING=Group", "Custom=Ünïcödé ✓", f"METADATA_BLOCK_PICTURE={embedded}"],
        "flac-tags-totals": [
            "title=Lower Case Keys", "TRACKNUMBER=5", "TRACKTOTAL=9", "DISCNUMBER=2", "TOTALDISCS=3",
            "ALBUM ARTIST=Spaced Key", "COMMENT=A comment"],
    }
    for name, tags in sets.items():
        path = os.path.join(HERE, name + ".flac")
        with open(clean, "rb") as src, open(path, "wb") as dst:
            dst.write(src.read())
        run(["metaflac", "--remove-all-tags"] + [f"--set-tag={t}" for t in tags] + [path])
        if name == "flac-tags-picture":
            run(["metaflac", f"--import-picture-from=3|image/png|cover|16x12x24|{cover_path}", path])
        tags_json = mutagen_tags(path)
        tags_json["embeddedPicture"] = {"type": 4, "mime": "image/png", "description": "back", "size": len(back),
                                        "md5": hashlib.md5(back).hexdigest()}
        blocks, _ = metadata_blocks(open(path, "rb").read())
        tags_json["tagOffset"] = next(o for o, kind, _, _ in blocks if kind in (4, 6))
        write_json(os.path.join(EXP, name + ".tags.json"), tags_json)
        record(name, path, checked_truth(path), f"`{os.path.basename(clean)}` + metaflac: "
               + " ".join(f"--set-tag='{t[:40]}'" for t in tags) + " (+ a PNG front cover by "
               "--import-picture-from)" * (name == "flac-tags-picture"))


def make_composed(work, clean_path):
    data = open(clean_path, "rb").read()
    clean = checked_truth(clean_path)
    _, first = metadata_blocks(data)
    frames = walk(data, first)
    name_of = os.path.basename(clean_path)

    # Frames only: what a stream joined at a frame boundary holds. ffprobe needs `-f flac` for it? It reads the
    # frames after its own probing; the truth is the clean list shifted.
    only = data[first:]
    path = os.path.join(HERE, "flac-frames-only.flac")
    with open(path, "wb") as f:
        f.write(only)
    record("flac-frames-only", path, [(o - first, s, n) for o, s, n in clean],
           f"`{name_of}` from its first frame (no `fLaC`, no STREAMINFO)")

    # Junk between frames 3 and 4: frame 3 is then not a packet (nothing confirms where it ends).
    headers = [data[o:o + h["length"]] for o, _, _, h in frames]
    cut = frames[4][0]
    filler = junk(13, 1200, headers)
    composed = data[:cut] + filler + data[cut:]
    assert false_frames(composed, frames[3][0] + 1, cut + len(filler)) == [], "junk holds a frame"
    truth = [r for r in clean if r[0] < frames[3][0]] + [(o + len(filler), s, n) for o, s, n in clean if o >= cut]
    path = os.path.join(HERE, "flac-junk-between.flac")
    with open(path, "wb") as f:
        f.write(composed)
    record("flac-junk-between", path, truth,
           f"`{name_of}` with 1200 junk bytes (seed 13) before frame 4; frame 3, which the junk follows, is no packet",
           {"junkOffset": cut, "junkBytes": len(filler), "droppedFrame": frames[3][0]})

    # The last frame cut in half.
    last = frames[-1]
    composed = data[:last[0] + last[1] // 2]
    path = os.path.join(HERE, "flac-cut-end.flac")
    with open(path, "wb") as f:
        f.write(composed)
    record("flac-cut-end", path, clean[:-1], f"`{name_of}` with its last frame cut to its first half",
           {"cutFrameOffset": last[0]})

    # A STREAMINFO that lies: maximum block size 1024 and frame sizes 100..200, where the frames are 4096-sample
    # frames of thousands of bytes.
    blocks, _ = metadata_blocks(data)
    info = bytearray(data[blocks[0][0] + 4:blocks[0][0] + 38])
    info[2:4] = (1024).to_bytes(2, "big")
    info[4:7] = (100).to_bytes(3, "big")
    info[7:10] = (200).to_bytes(3, "big")
    composed = data[:blocks[0][0] + 4] + bytes(info) + data[blocks[0][0] + 38:]
    path = os.path.join(HERE, "flac-lying-streaminfo.flac")
    with open(path, "wb") as f:
        f.write(composed)
    record("flac-lying-streaminfo", path, clean,
           f"`{name_of}` with STREAMINFO's maximum block size set to 1024 and frame sizes to 100..200",
           {"statedMaxBlockSize": 1024, "statedMinFrameSize": 100, "statedMaxFrameSize": 200})


def make_rate_change(work):
    """Two encodes of whole 1024-sample blocks, the second's frames renumbered to go on from the first's: one
    fixed-blocksize stream whose rate and channels change mid-stream, as RFC 9639 allows (§9.1)."""
    parts = []
    for name, rate, channels, samples in [("first", 44100, 2, 8192), ("second", 22050, 1, 4096)]:
        wav = source_wav(work, rate, channels, 0.5, f"change-{name}")
        trimmed = os.path.join(work, f"change-{name}-trimmed.wav")
        run(["sox", "-R", wav, trimmed, "trim", "0", f"{samples}s"])
        out = os.path.join(work, f"change-{name}.flac")
        run(FLAC + ["-5", "--blocksize=1024", "-o", out, trimmed])
        parts.append(out)
    first_path, second_path = parts
    a, b = open(first_path, "rb").read(), open(second_path, "rb").read()
    _, a_first = metadata_blocks(a)
    _, b_first = metadata_blocks(b)
    a_frames, b_frames = walk(a, a_first), walk(b, b_first)
    out = bytearray(a)
    truth = [(o, s, n) for o, s, n, _ in a_frames]
    for index, (o, s, n, _) in enumerate(b_frames):
        frame = renumber(b[o:o + s], len(a_frames) + index)
        truth.append((len(out), len(frame), n))
        out += frame
    path = os.path.join(HERE, "flac-rate-change.flac")
    with open(path, "wb") as f:
        f.write(out)
    assert [(o, s, n) for o, s, n, _ in walk(bytes(out), a_first)] == truth
    changes = [{"packetIndex": len(a_frames), "sampleRate": frame_header(b, b_first)["rate"],
                "channels": frame_header(b, b_first)["channels"]}]
    record("flac-rate-change", path, truth,
           "8192 samples of 44.1 kHz stereo, then the frames of 4096 samples of 22.05 kHz mono renumbered from 8 "
           "(header CRC-8 and frame CRC-16 recomputed); both `flac -5 --blocksize=1024`",
           {"formatChanges": changes})


def make_id3_before(clean_path):
    """An ID3v2.4 tag before `fLaC`, as some taggers write one (mutagen's ID3.save inserts it)."""
    from mutagen.id3 import ID3, TIT2
    path = os.path.join(HERE, "flac-id3-before.flac")
    with open(clean_path, "rb") as src, open(path, "wb") as dst:
        dst.write(src.read())
    tag = ID3()
    tag.add(TIT2(encoding=3, text=["ID3 Title"]))
    tag.save(path, v2_version=4, padding=lambda info: 0)
    data = open(path, "rb").read()
    tag_length = data.index(b"fLaC")
    truth = [(o + tag_length, s, n) for o, s, n in checked_truth(clean_path)]
    record("flac-id3-before", path, truth, f"`{os.path.basename(clean_path)}` behind an ID3v2.4 tag (TIT2, "
           "mutagen ID3.save, no padding)", {"id3Bytes": tag_length, "id3Title": "ID3 Title"})


def record_conformance():
    folder = os.path.join(EXP, "flac-conformance")
    for name in sorted(os.listdir(CONFORMANCE)):
        if not name.endswith(".flac"):
            continue
        path = os.path.join(CONFORMANCE, name)
        stem = os.path.join(folder, name[:-5])
        truth = checked_truth(path)
        write_packets(stem, truth)
        facts = stream_facts(path)
        facts.update({"packetCount": len(truth), "firstPacketOffset": truth[0][0]})
        write_json(stem + ".json", facts)


def main():
    clean_old()
    with tempfile.TemporaryDirectory() as work:
        clean = make_clean(work)
        make_short_last_frame(work)
        make_tagged(work, clean["flac-44k-stereo"])
        make_composed(work, clean["flac-44k-stereo"])
        make_rate_change(work)
        make_id3_before(clean["flac-44k-stereo"])
    record_conformance()
    print("make_flac_fixtures: done")


if __name__ == "__main__":
    main()
