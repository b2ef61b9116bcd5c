#!/usr/bin/env python3
"""Makes the HE-AAC and HE-AACv2 fixtures by explicit signalling, and records their expected values.

    python3 Tests/Fixtures/make_heaac_fixtures.py      (from anywhere; paths are found from this file)

make-fixtures.sh calls it after make_mp4_fixtures.py. Needs sox and ffmpeg/ffprobe 5.1 (Debian). Installs nothing.

No HE-AAC encoder is at hand (Debian's FFmpeg has no libfdk_aac, and no wheel on PyPI bundles one), so these are
AAC-LC streams from ffmpeg's own encoder (22050 Hz, `-fflags +bitexact`) whose AudioSpecificConfig is rewritten
to signal SBR, and PS for mono, explicitly (ISO/IEC 14496-3 §1.6.2.1 and §1.6.6): a decoder then runs its SBR
(and PS) tool and outputs 44100 Hz (stereo for PS), although the frames carry no SBR or PS data. Every other byte
is ffmpeg's. Both signalling forms are made:
- heaac-sbr-stereo.m4a: backward-compatible signalling, the LC config then the sync extension 0x2b7,
  audioObjectType 5, sbrPresentFlag 1 and the extension's sampling frequency index (44100);
- heaacv2-ps-mono.m4a: hierarchical signalling, audioObjectType 29 (PS), the extension's rate, then the
  core's audioObjectType 2 and GASpecificConfig.
- caf-heaac-sbr-stereo.caf: the packets of heaac-sbr-stereo.m4a (at the offsets ffprobe lists) and its config in
  CAF, laid out as afconvert writes HE-AAC: a desc of 'aach' at SBR's rate with 2048 frames a packet, kuki (an
  ES_Descriptor around the config), pakt (the MP4 edit's priming and length, counted at SBR's rate), data.
  ffmpeg 5.1's CAF demuxer does not know 'aach', so its truth is the MP4's: the same packets, config and trimming
  must decode to ffmpeg's PCM of the MP4 (expected/heaac/NAME.json names that reference).

The MP4s are ffmpeg's faststart files with the `esds` box of the audio track rebuilt around the new config: the
boxes that hold it grow, and the chunk offsets (`stco`) move by as much, since the movie box precedes the media.

Writes Tests/Fixtures/heaac/ and, per fixture, expected/heaac/NAME.packets.csv (`offset,size,frames`: ffprobe's
packets) and expected/heaac/NAME.json: what ffprobe says of the stream (codec, profile, the output rate and
channels, extradata) with the signalled config and the core's rate and channels written here. The decode
references are make_decode_references.py's. See README.md ("HE-AAC").
"""

import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "heaac")
EXP = os.path.join(HERE, "expected", "heaac")
sys.path.insert(0, HERE)
from make_codec_fixtures import FFMPEG, run, source_wav, write_json  # noqa: E402
from make_caf_fixtures import chunk, chunks, es_descriptor, varint  # noqa: E402
from make_mp4_fixtures import BITEXACT, FASTSTART, extradata_hex, ffprobe_json, packets  # noqa: E402
from fixture_folders import remade  # noqa: E402

CORE_RATE, OUTPUT_RATE, BITRATE = 22050, 44100, 32000
# Table 1.18's sampling frequency indices.
RATE_INDEX = {44100: 4, 22050: 7}


class Bits:
    """Writes fields most significant bit first, as MPEG-4 audio reads them."""

    def __init__(self):
        self.bits = ""

    def put(self, value, count):
        self.bits += format(value, "0%db" % count)
        return self

    def bytes(self):
        padded = self.bits + "0" * (-len(self.bits) % 8)
        return bytes(int(padded[i:i + 8], 2) for i in range(0, len(padded), 8))


def backward_compatible_sbr(channels):
    """LC config (object type 2, core rate, channels, GASpecificConfig 000), then syncExtensionType 0x2b7,
    extensionAudioObjectType 5, sbrPresentFlag 1, extensionSamplingFrequencyIndex (§1.6.6.2)."""
    return (Bits().put(2, 5).put(RATE_INDEX[CORE_RATE], 4).put(channels, 4).put(0, 3)
            .put(0x2B7, 11).put(5, 5).put(1, 1).put(RATE_INDEX[OUTPUT_RATE], 4).bytes())


def hierarchical_ps():
    """audioObjectType 29 (PS), core rate, one channel, extensionSamplingFrequencyIndex, then the core's object
    type 2 and its GASpecificConfig 000 (§1.6.2.1)."""
    return (Bits().put(29, 5).put(RATE_INDEX[CORE_RATE], 4).put(1, 4).put(RATE_INDEX[OUTPUT_RATE], 4)
            .put(2, 5).put(0, 3).bytes())


# ---------------------------------------------------------------- MP4 boxes (ISO/IEC 14496-12 §4.2)

CONTAINERS = {b"moov", b"trak", b"mdia", b"minf", b"stbl"}
# Bytes before a box's children: stsd's version, flags and entry count; a sound sample entry's fields (§12.2.3).
PREFIXED = {b"stsd": 8, b"mp4a": 28}


def boxes(data, start, end):
    """(type, start, end) of each box in data[start:end]; none here uses 64-bit or to-the-end sizes."""
    out = []
    while start + 8 <= end:
        size = struct.unpack(">I", data[start:start + 4])[0]
        out.append((data[start + 4:start + 8], start, start + size))
        start += size
    return out


def rebuilt(data, start, end, esds, offset_shift):
    """data[start:end] with every `esds` box's content replaced by `esds` and `stco` offsets moved by
    `offset_shift`, the sizes of the boxes around them written anew."""
    out = b""
    for kind, box_start, box_end in boxes(data, start, end):
        if kind in CONTAINERS or kind in PREFIXED:
            prefix = PREFIXED.get(kind, 0)
            body = data[box_start + 8:box_start + 8 + prefix] + rebuilt(data, box_start + 8 + prefix, box_end, esds,
                                                                       offset_shift)
        elif kind == b"esds":
            body = esds
        elif kind == b"stco":
            count = struct.unpack(">I", data[box_start + 12:box_start + 16])[0]
            offsets = struct.unpack(">%dI" % count, data[box_start + 16:box_start + 16 + 4 * count])
            body = data[box_start + 8:box_start + 16] + struct.pack(">%dI" % count, *(o + offset_shift for o in offsets))
        else:
            body = data[box_start + 8:box_end]
        out += struct.pack(">I", 8 + len(body)) + kind + body
    return out


def with_config(data, asc):
    """The faststart MP4 `data` with its AAC config replaced by `asc`."""
    esds = b"\x00\x00\x00\x00" + es_descriptor(asc, BITRATE)
    top = boxes(data, 0, len(data))
    kinds = [kind for kind, _, _ in top]
    assert kinds.index(b"moov") < kinds.index(b"mdat"), "not a faststart file"
    _, moov_start, moov_end = top[kinds.index(b"moov")]
    shift = len(rebuilt(data, moov_start, moov_end, esds, 0)) - (moov_end - moov_start)
    return data[:moov_start] + rebuilt(data, moov_start, moov_end, esds, shift) + data[moov_end:]


# ---------------------------------------------------------------- expected values


def record(name, path, asc, core_channels, how):
    rows, skip = packets(path)
    audio = next(s for s in ffprobe_json(path, "-show_streams", "-show_data")["streams"]
                 if s["codec_type"] == "audio")
    assert extradata_hex(audio.get("extradata")) == asc.hex(), f"{name}: ffprobe reads another config"
    with open(os.path.join(EXP, name + ".packets.csv"), "w") as f:
        f.write("offset,size,frames\n")
        f.writelines("%d,%d,%d\n" % tuple(row) for row in rows)
    write_json(os.path.join(EXP, name + ".json"), {
        "madeWith": how, "ffprobeCodec": audio["codec_name"],
        "sampleRate": int(audio["sample_rate"]), "channels": int(audio["channels"]),
        "extradata": extradata_hex(audio.get("extradata")), "packets": len(rows), "skipSamples": skip,
        "coreSampleRate": CORE_RATE, "coreChannels": core_channels,
    })
    print("make_heaac_fixtures: %s (%d bytes, %d packets, %s Hz, %s channels)" % (
        os.path.basename(path), os.path.getsize(path), len(rows), audio["sample_rate"], audio["channels"]))


def make_mp4(work, name, channels, asc, signalling):
    wav = source_wav(work, CORE_RATE, channels, 1, name)
    lc = os.path.join(work, name + ".lc.m4a")
    encode = ["-c:a", "aac", "-b:a", str(BITRATE)]
    run(FFMPEG + ["-i", wav, *encode, *FASTSTART, *BITEXACT, lc])
    path = os.path.join(OUT, name + ".m4a")
    open(path, "wb").write(with_config(open(lc, "rb").read(), asc))
    record(name, path, asc, channels, "1 s %d Hz %d ch, ffmpeg %s -movflags +faststart; config %s (%s)" % (
        CORE_RATE, channels, " ".join(encode), asc.hex(), signalling))


def make_caf(name, mp4_name, asc):
    """The MP4's packets and config in afconvert's CAF layout (see the module comment)."""
    mp4 = os.path.join(OUT, mp4_name + ".m4a")
    data = open(mp4, "rb").read()
    rows, skip = packets(mp4)
    units = [data[offset:offset + size] for offset, size, _ in rows]
    stream = ffprobe_json(mp4, "-select_streams", "a:0", "-show_entries", "stream=duration_ts,channels")["streams"][0]
    ratio = OUTPUT_RATE // CORE_RATE
    # The edit's priming (ffprobe's skip samples) and length (duration_ts), in core frames, at SBR's rate.
    priming, valid = skip * ratio, int(stream["duration_ts"]) * ratio
    remainder = len(units) * 2048 - priming - valid
    channels = int(stream["channels"])
    desc = struct.pack(">d4sIIIII", OUTPUT_RATE, b"aach", 5, 0, 2048, channels, 0)  # flags: object type 5 (SBR)
    pakt = struct.pack(">qqii", len(units), valid, priming, remainder) + b"".join(varint(len(u)) for u in units)
    body = (chunk("desc", desc) + chunk("kuki", es_descriptor(asc, BITRATE)) + chunk("pakt", pakt)
            + chunk("data", b"\x00\x00\x00\x00" + b"".join(units)))
    path = os.path.join(OUT, name + ".caf")
    open(path, "wb").write(b"caff\x00\x01\x00\x00" + body)
    layout = chunks(open(path, "rb").read())
    data_start = next(pos for kind, pos, _ in layout if kind == "data") + 12 + 4  # after the edit count
    offsets = [data_start + sum(len(u) for u in units[:index]) for index in range(len(units))]
    with open(os.path.join(EXP, name + ".packets.csv"), "w") as f:
        f.write("offset,size,frames\n")
        f.writelines("%d,%d,%d\n" % (offset, len(unit), 2048) for offset, unit in zip(offsets, units))
    write_json(os.path.join(EXP, name + ".json"), {
        "madeWith": "the packets and config of %s.m4a: desc aach, kuki, pakt, data" % mp4_name,
        "sampleRate": OUTPUT_RATE, "channels": channels, "audioSpecificConfig": asc.hex(),
        "packetTableInfo": {"validFrames": valid, "primingFrames": priming, "remainderFrames": remainder},
        "decodesAs": mp4_name, "chunks": [[kind, pos, size] for kind, pos, size in layout],
    })
    print("make_heaac_fixtures: %s (%d bytes, %d packets)" % (os.path.basename(path), os.path.getsize(path), len(units)))


def main():
    with remade(OUT, EXP) as work:
        make_mp4(work, "heaac-sbr-stereo", 2, backward_compatible_sbr(2), "backward-compatible SBR")
        make_mp4(work, "heaacv2-ps-mono", 1, hierarchical_ps(), "hierarchical PS")
        make_caf("caf-heaac-sbr-stereo", "heaac-sbr-stereo", backward_compatible_sbr(2))


if __name__ == "__main__":
    main()
