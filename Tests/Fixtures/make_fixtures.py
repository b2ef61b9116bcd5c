"""Second half of make-fixtures.sh: assembles the composed fixtures from the
clean parts the shell script encoded, then records the expected values of
every fixture (and of the ISO conformance streams) from independent tools:
ffprobe, mpg123, soxi and mutagen. See README.md for the file formats."""

import argparse
import hashlib
import io
import json
import os
import random
import subprocess
import sys
from types import SimpleNamespace

from mutagen.mp3._util import LAMEError, VBRIHeader, VBRIHeaderError, XingHeader, XingHeaderError

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mpeg_spec import parse_header, walk  # noqa: E402

# ---------------------------------------------------------------- tools


def run(*cmd):
    return subprocess.run(cmd, check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE).stdout


def ffprobe_packets(path, force_mp3=False):
    """(pos, size) of each packet ffprobe lists; None if ffprobe fails.
    Same rows as `ffprobe -v error -select_streams a:0 -show_packets
    -show_entries packet=pos,size -of csv=p=0`, read as JSON because the CSV
    writer interleaves side-data columns on some rows."""
    cmd = ["ffprobe", "-v", "error"] + (["-f", "mp3"] if force_mp3 else []) + [
        "-select_streams", "a:0", "-show_packets", "-show_entries", "packet=pos,size", "-of", "json", path]
    res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if res.returncode != 0:
        return None
    return [(int(p["pos"]), int(p["size"])) for p in json.loads(res.stdout).get("packets", [])]


def ffprobe_stream(path, force_mp3=False):
    cmd = ["ffprobe", "-v", "error"] + (["-f", "mp3"] if force_mp3 else []) + [
        "-select_streams", "a:0", "-show_streams", "-of", "json", path]
    res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if res.returncode != 0:
        return None
    streams = json.loads(res.stdout).get("streams", [])
    return streams[0] if streams else None


def mpg123_output(path, encoding="s16"):
    """The PCM that `mpg123 -q -s [-e ENCODING] FILE` writes (gapless, the stream's own rate and channels)."""
    res = subprocess.run(["mpg123", "-q", "-s", "-e", encoding, path], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    return res.stdout


def mpg123_bytes(path):
    """Bytes of s16 PCM that `mpg123 -q -s FILE` writes."""
    return len(mpg123_output(path))


def mpg123_md5(path, encoding, parts=None):
    """MD5 of mpg123's PCM, for decoders that must match it bit for bit. With `parts`, of mpg123's PCM of
    each clean part in turn: the right decode of a stream that mpg123 itself gets wrong (see README.md)."""
    return hashlib.md5(b"".join(mpg123_output(p, encoding) for p in parts or [path])).hexdigest()


def soxi_samples(path):
    return int(run("soxi", "-s", path))


# ---------------------------------------------------------------- tag frames


def tag_frame(data, pos):
    """Xing/Info (+LAME) or VBRI tag in the frame at pos, read with mutagen's
    own classes at the offsets mutagen uses. Returns dict or None."""
    h = parse_header(data, pos)
    if h is None or h.layer != 3:
        return None
    info = SimpleNamespace(version={"1": 1, "2": 2, "2.5": 2.5}[h.version], layer=3,
                           mode=["stereo", "joint", "dual", "mono"].index(h.mode))
    f = io.BytesIO(data)
    f.seek(pos + XingHeader.get_offset(info))
    try:
        x = XingHeader(f)
    except (XingHeaderError, LAMEError):
        x = None
    if x is not None:
        lame = x.lame_header
        return {"kind": "xing",
                "xing": {"frames": None if x.frames == -1 else x.frames,
                         "bytes": None if x.bytes == -1 else x.bytes,
                         "hasToc": bool(x.toc), "isInfo": x.is_info},
                "lame": None if lame is None else {"encoderDelay": lame.encoder_delay_start,
                                                   "encoderPadding": lame.encoder_padding_end}}
    f = io.BytesIO(data)
    f.seek(pos + VBRIHeader.get_offset(info))
    try:
        v = VBRIHeader(f)
    except VBRIHeaderError:
        return None
    return {"kind": "vbri",
            "vbri": {"frames": v.frames, "bytes": v.bytes, "tocEntries": len(v.toc),
                     "tocScale": v.toc_scale_factor, "framesPerEntry": v.toc_frames,
                     "quality": v.quality, "version": v.version}}


# ---------------------------------------------------------------- composition
#
# A composed fixture is a list of pieces: ("part", path, start, end) takes
# bytes [start, end) of a clean part; ("bytes", b) inserts crafted bytes.
# Its truth: every packet ffprobe lists for a part that lies wholly inside the
# taken range, shifted to where the range was placed. Tag frames (Xing/Info/
# VBRI) are never packets; they are listed separately.


class Part:
    def __init__(self, path):
        self.path = path
        self.data = open(path, "rb").read()
        frames, stop = walk(self.data)
        assert stop == len(self.data), f"{path}: spec walk stopped at {stop}"
        tags = [p for p, _ in frames if tag_frame(self.data, p)]
        self.packets = [f for f in frames if f[0] not in tags]
        probed = ffprobe_packets(path)
        # ffprobe cannot read free format; everything else it must list as the spec walk does.
        assert probed is None or probed == self.packets, f"{path}: ffprobe != spec walk"
        self.frames = frames
        self.tags = tags


def compose(pieces):
    data, packets, tags, regions = bytearray(), [], [], []
    for piece in pieces:
        at = len(data)
        if piece[0] == "bytes":
            data += piece[1]
            regions.append(("bytes", at, len(data)))
            if len(piece) > 2 and piece[2] == "tag":
                tags.append(at)
            continue
        _, part, start, end = piece
        data += part.data[start:end]
        regions.append(("part", at, len(data)))
        packets += [(p - start + at, s) for p, s in part.packets if p >= start and p + s <= end]
        tags += [p - start + at for p in part.tags if p >= start and p + p_len(part, p) <= end]
    return bytes(data), [f for i, f in enumerate(packets) if is_confirmed(data, packets, i)], tags, regions


def is_confirmed(data, packets, i):
    """The parser's contract: a frame is a packet when a valid header or a tag
    starts where its length says, or the input ends there; or when the frame
    before it is a packet that ends where it starts, in the same stream, and
    its header states its length (its header confirmed that frame, as ffmpeg
    and libmpg123 take it), whatever follows it. So the last whole frame before junk is a packet, and a false
    frame inside junk is not."""
    frame = packets[i]
    q = frame[0] + frame[1]
    if (q + 4 > len(data) or parse_header(data, q) is not None
            or data[q:q + 3] in (b"ID3", b"TAG") or data[q:q + 4] == b"APET"):
        return True
    if i == 0 or packets[i - 1][0] + packets[i - 1][1] != frame[0]:
        return False
    before, head = parse_header(data, packets[i - 1][0]), parse_header(data, frame[0])
    return not head.free_format and head.same_format(before)


def p_len(part, pos):
    return dict(part.frames)[pos]


def false_chains(data, lo, hi, packets):
    """Offsets in [lo, hi) that are not real frames but hold a valid header
    whose successor (at the length it claims) is a valid header or the end of
    the file: places where a resyncing parser could be fooled."""
    real = {p for p, _ in packets}
    bad = []
    for p in range(lo, hi):
        if p in real:
            continue
        h = parse_header(data, p)
        if h is None:
            continue
        if h.free_format:
            bad.append(p)
            continue
        q = p + h.length
        if q >= len(data) or parse_header(data, q) is not None:
            bad.append(p)
    return bad


def junk(seed, size, headers):
    """size seeded random bytes, with a fake sync word every ~60 bytes."""
    rng = random.Random(seed)
    b = bytearray(rng.randbytes(size))
    for p in range(rng.randrange(5, 40), size - 4, 60):
        kind = rng.randrange(4)
        if kind == 0:
            b[p:p + 4] = headers[rng.randrange(len(headers))]  # a copy of a real header
        else:
            b[p:p + 2] = rng.choice([b"\xff\xfb", b"\xff\xe3", b"\xff\xf3", b"\xff\xfa", b"\xff\xfd", b"\xff\xfc",
                                     b"\xff\xf2", b"\xff\xe2", b"\xff\xff"])
    return b


def sanitize_junk(pieces):
    """Break (zero the 0xFF sync byte of) every false chain that starts
    in a junk piece, and any accidental tag magic, until none is left."""
    while True:
        data, packets, _, regions = compose(pieces)
        bad = []
        for (kind, lo, hi), piece in zip(regions, pieces):
            if kind == "bytes" and not (len(piece) > 2 and piece[2] == "tag"):
                bad += [(piece, p - lo) for p in false_chains(data, lo, hi, packets)]
                for magic in (b"ID3", b"TAG", b"APETAGEX", b"Xing", b"Info", b"VBRI", b"LAME"):
                    i = piece[1].find(magic)
                    if i >= 0:
                        bad.append((piece, i))
        if not bad:
            return
        for piece, p in bad:
            piece[1][p] = 0x00 if piece[1][p] == 0xFF else piece[1][p] ^ 0x20


def clean_cut(part, candidates, region_of):
    """First candidate frame index whose leftover bytes hold no false chain."""
    for k in candidates:
        pieces = region_of(k)
        data, packets, _, regions = compose(pieces)
        lo, hi = region_of.garbage(k, regions)
        if not false_chains(data, lo, hi, packets):
            return k, pieces
    raise SystemExit("no clean cut found")


# ---------------------------------------------------------------- VBRI


def vbri_fixture(part):
    """A VBRI frame (layout of Fraunhofer encoders) in front of a `lame -t`
    CBR stream. The frame copies the stream's first header with the padding
    bit cleared, so it is a real frame of the same format and length; its side
    info is all zero (a silent frame), the VBRI block starts at byte 36."""
    head = bytearray(part.data[:4])
    head[2] &= ~0x02
    length = parse_header(bytes(head), 0).length
    frames = part.packets
    per_entry = 4
    toc = [sum(s for _, s in frames[i:i + per_entry]) for i in range(0, len(frames), per_entry)]
    total = length + len(part.data)
    vbri = b"VBRI" + b"".join(x.to_bytes(n, "big") for x, n in [
        (1, 2),            # version
        (576, 2),          # delay (LAME's encoder delay for this stream)
        (75, 2),           # quality
        (total, 4),        # bytes: whole stream, VBRI frame included
        (len(frames), 4),  # frames: audio frames, VBRI frame excluded
        (len(toc), 2),     # TOC entries
        (1, 2),            # TOC scale factor
        (2, 2),            # bytes per TOC entry
        (per_entry, 2),    # frames per TOC entry
    ]) + b"".join(t.to_bytes(2, "big") for t in toc)
    frame = bytearray(length)
    frame[:4] = head
    frame[36:36 + len(vbri)] = vbri
    return bytes(frame)


# ---------------------------------------------------------------- expected files


def write_csv(path, packets):
    with open(path, "w") as f:
        f.write("offset,size\n")
        for p, s in packets:
            f.write(f"{p},{s}\n")


def describe(data, packets, tags, how, probe, conformance=False):
    """The NAME.json object."""
    first = parse_header(data, packets[0][0])
    changes, prev = [], first
    for i, (p, _) in enumerate(packets):
        h = parse_header(data, p)
        if not h.same_format(prev):
            changes.append({"packetIndex": i, "offset": p, "sampleRate": h.sample_rate, "channels": h.channels,
                            "layer": h.layer, "mpegVersion": h.version, "channelMode": h.mode})
        prev = h
    # ffprobe's stream values where it reads the stream and the format stays
    # put (for a splice it reports a mix of both parts); else the header's.
    channels, sample_rate = first.channels, first.sample_rate
    if probe and not changes:
        channels, sample_rate = int(probe["channels"]), int(probe["sample_rate"])
        assert (channels, sample_rate) == (first.channels, first.sample_rate), "ffprobe and header disagree"
    head_tag = None
    if tags and tags[0] < packets[0][0]:
        head_tag = tag_frame(data, tags[0])
    if how.get("crc") is not None:
        assert how["crc"] == first.crc, "CRC flag does not match the header"
    bit_rate = probe.get("bit_rate") if probe else None
    pcm = how["mpg123"]
    return {
        "sampleRate": sample_rate,
        "channels": channels,
        "layer": first.layer,
        "mpegVersion": first.version,
        "channelMode": first.mode,
        "bitRate": int(bit_rate) if bit_rate not in (None, "N/A") else None,
        "crc": first.crc,
        "freeFormat": first.free_format,
        "xing": head_tag["xing"] if head_tag and head_tag["kind"] == "xing" else None,
        "vbri": head_tag["vbri"] if head_tag and head_tag["kind"] == "vbri" else None,
        "lame": head_tag["lame"] if head_tag and head_tag["kind"] == "xing" else None,
        "originalSamples": how.get("originalSamples"),
        "mpg123Samples": None if changes else pcm // (2 * channels),
        "mpg123Bytes": pcm,
        "mpg123S16Md5": how["mpg123Md5"]["s16"],
        "mpg123F32Md5": how["mpg123Md5"]["f32"],
        "decodedS16Md5": how["decodedMd5"]["s16"],
        "decodedF32Md5": how["decodedMd5"]["f32"],
        "packetCount": len(packets),
        "firstPacketOffset": packets[0][0],
        "tagFrames": tags,
        "formatChanges": changes,
        "madeWith": how.get("madeWith"),
    }


def write_expected(exp_dir, name, data, packets, tags, how, path, force_mp3=False):
    probe_packets = ffprobe_packets(path, force_mp3)
    probe = ffprobe_stream(path, force_mp3)
    write_csv(os.path.join(exp_dir, name + ".packets.csv"), packets)
    differs = probe_packets != packets
    if differs:
        write_csv(os.path.join(exp_dir, name + ".ffprobe.csv"), probe_packets or [])
    how["mpg123"] = mpg123_bytes(path)
    how["mpg123Md5"] = {encoding: mpg123_md5(path, encoding) for encoding in ("s16", "f32")}
    how["decodedMd5"] = {encoding: mpg123_md5(path, encoding, how.get("decodeParts"))
                         for encoding in ("s16", "f32")}
    obj = describe(data, packets, tags, how, probe)
    with open(os.path.join(exp_dir, name + ".json"), "w") as f:
        json.dump(obj, f, indent=2)
        f.write("\n")
    return differs, probe_packets


def diff_summary(truth, probe):
    if probe is None:
        return "ffprobe fails"
    t, p = set(truth), set(probe)
    return f"ffprobe extra {sorted(p - t)[:6]}, missing {sorted(t - p)[:6]}"


# ---------------------------------------------------------------- main


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fixtures", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--conformance")
    args = ap.parse_args()
    fix, parts_dir = args.fixtures, os.path.join(args.work, "parts")
    exp = os.path.join(fix, "expected")
    report = []

    # Clean fixtures: truth is ffprobe, checked against a spec walk.
    for line in open(os.path.join(args.work, "clean.tsv")):
        out, src, cmd = line.rstrip("\n").split("\t")
        name = os.path.splitext(os.path.basename(out))[0]
        data = open(out, "rb").read()
        frames, stop = walk(data)
        assert stop == len(data), f"{out}: spec walk stopped at {stop} of {len(data)}"
        tags = [p for p, _ in frames if tag_frame(data, p)]
        walked = [f for f in frames if f[0] not in tags]
        probed = ffprobe_packets(out)
        if probed is not None:
            assert probed == walked, f"{out}: ffprobe and the spec walk disagree"
        how = {"originalSamples": soxi_samples(src), "crc": " -p" in f" {cmd.split(' ', 1)[1]}",
               "madeWith": cmd + " SOURCE.wav " + os.path.basename(out)}
        differs, probe = write_expected(exp, name, data, walked, tags, how, out)
        if differs:
            report.append(f"{name}: {diff_summary(walked, probe)}")

    # Composed fixtures.
    def part(name):
        return Part(os.path.join(parts_dir, name))

    composed = {}
    for fam, ext in (("sweep-l3-mpeg1", "mp3"), ("sweep-l3-mpeg2", "mp3"),
                     ("sweep-l2-stereo", "mp2"), ("sweep-l2-mono", "mp2")):
        names = sorted(n for n in os.listdir(parts_dir) if n.startswith(fam + "-") and n.endswith(".part"))
        ps = [part(n) for n in names]
        composed[f"{fam}.{ext}"] = ([("part", p, 0, len(p.data)) for p in ps],
                                    "concatenation of " + ", ".join(n[len(fam) + 1:-5] for n in names))

    cbr = part("cbr128-noxing.part")
    # mpg123 decodes the VBRI frame as a frame of silence: the right decode is the stream without it.
    composed["l3-vbri.mp3"] = ([("bytes", bytearray(vbri_fixture(cbr)), "tag"), ("part", cbr, 0, len(cbr.data))],
                               "crafted VBRI frame + cbr128-noxing", [cbr])

    headers = [b"\xff\xfb\x90\x64", b"\xff\xfb\x92\x64", b"\xff\xfb\xb0\x44", b"\xff\xf3\x80\xc4",
               b"\xff\xe3\x28\xc4", b"\xff\xfd\x94\x04"]
    vx = part("vbr-v2-xing.part")
    pieces = [("bytes", junk(1, 3000, headers)), ("part", vx, 0, len(vx.data))]
    sanitize_junk(pieces)
    composed["damaged-junk-start.mp3"] = (pieces, "3000 junk bytes + vbr-v2-xing")

    mid = cbr.packets[20][0]
    pieces = [("part", cbr, 0, mid), ("bytes", junk(2, 1500, headers)), ("part", cbr, mid, len(cbr.data))]
    sanitize_junk(pieces)
    composed["damaged-junk-between.mp3"] = (pieces, "cbr128-noxing frames 0-19 + 1500 junk bytes + frames 20-")

    vn = part("vbr-v2-noxing.part")

    class TruncMid:
        def __call__(self, k):
            p, s = vn.packets[k]
            return [("part", vn, 0, p + s // 2), ("part", vn, vn.packets[k + 1][0], len(vn.data))]

        def garbage(self, k, regions):
            p, s = vn.packets[k]
            return regions[0][1] + p, regions[0][1] + p + s // 2
    k, pieces = clean_cut(vn, range(len(vn.packets) // 2, len(vn.packets) - 2), TruncMid())
    composed["damaged-truncated-mid.mp3"] = (pieces, f"vbr-v2-noxing with frame {k} cut to its first half")

    last_pos, last_size = cbr.packets[-1]
    composed["damaged-truncated-end.mp3"] = ([("part", cbr, 0, last_pos + last_size // 2)],
                                             "cbr128-noxing with the last frame cut to its first half")

    a, b = part("cbr128-info-44k-stereo.part"), part("cbr64-info-22k-mono.part")
    assert a.tags == [0] and b.tags == [0]
    # mpg123 stops at the first Info frame's frame count: the right decode is each part's, gapless, in turn.
    composed["splice-xing-44k-stereo-22k-mono.mp3"] = (
        [("part", a, 0, len(a.data)), ("part", b, 0, len(b.data))], "cbr128-info-44k-stereo + cbr64-info-22k-mono",
        [a, b])
    a, b = part("free200-noxing.part"), part("free240-noxing.part")
    composed["splice-freeformat-200k-240k.mp3"] = (
        [("part", a, 0, len(a.data)), ("part", b, 0, len(b.data))], "free200-noxing + free240-noxing", [a, b])
    a, b = part("cbr192-noxing-48k-stereo.part"), part("cbr96-noxing-32k-stereo.part")
    composed["splice-noxing-48k-32k.mp3"] = (
        [("part", a, 0, len(a.data)), ("part", b, 0, len(b.data))], "cbr192-noxing-48k-stereo + cbr96-noxing-32k-stereo")

    class StartMid:
        def __call__(self, cut):
            return [("part", cbr, cut, len(cbr.data))]

        def garbage(self, cut, regions):
            return 0, cbr.packets[1][0] - cut
    cut, pieces = clean_cut(cbr, range(200, 260), StartMid())
    composed["damaged-start-midframe.mp3"] = (pieces, f"cbr128-noxing without its first {cut} bytes")

    for fname, (pieces, recipe, *decode_parts) in composed.items():
        name = os.path.splitext(fname)[0]
        data, packets, tags, _ = compose(pieces)
        path = os.path.join(fix, fname)
        with open(path, "wb") as f:
            f.write(data)
        how = {"madeWith": recipe}
        if decode_parts:
            how["decodeParts"] = [p.path for p in decode_parts[0]]
        differs, probe = write_expected(exp, name, data, packets, tags, how, path)
        if differs:
            report.append(f"{name}: {diff_summary(packets, probe)}")

    # ISO conformance streams, committed under conformance/.
    if args.conformance and os.path.isdir(args.conformance):
        cexp = os.path.join(exp, "conformance")
        os.makedirs(cexp, exist_ok=True)
        for old in os.listdir(cexp):
            os.remove(os.path.join(cexp, old))
        for fname in sorted(os.listdir(args.conformance)):
            if not fname.endswith(".bit"):
                continue
            path = os.path.join(args.conformance, fname)
            data = open(path, "rb").read()
            frames, stop = walk(data)
            if stop != len(data):
                report.append(f"conformance/{fname}: spec walk stops at {stop} of {len(data)} "
                              f"(first frame at {frames[0][0]})")
            tags = [p for p, _ in frames if tag_frame(data, p)]
            walked = [f for f in frames if f[0] not in tags]
            name = fname[:-4]
            differs, probe = write_expected(cexp, name, data, walked, tags,
                                            {"madeWith": "ISO/IEC 11172-4 conformance stream"}, path, force_mp3=True)
            if differs:
                report.append(f"conformance/{name}: {diff_summary(walked, probe)}")
    elif args.conformance:
        print(f"make_fixtures: {args.conformance} not found, conformance expectations left as they are",
              file=sys.stderr)

    for line in report:
        print("make_fixtures:", line)


if __name__ == "__main__":
    main()
