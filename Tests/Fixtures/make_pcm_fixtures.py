#!/usr/bin/env python3
"""Makes the WAVE, RF64, AIFF and AIFC fixtures and records their expected values.

    python3 Tests/Fixtures/make_pcm_fixtures.py      (from anywhere; paths are found from this file)

make-fixtures.sh calls it after make_flac_fixtures.py. Needs sox and ffmpeg/ffprobe 5.1 and Python 3 with mutagen.
Installs nothing. Output is byte-identical from run to run: the source signal is make-fixtures.sh's (`sox -R`),
ffmpeg writes with `-bitexact`, and the hand-made chunks are packed here.

Writes Tests/Fixtures/pcm/NAME.{wav,aiff,aifc} and, per fixture, expected/pcm/NAME.packets.csv (one row
`offset,size,frames`: the whole sample data, as PCM frames are delivered in batches of any size),
expected/pcm/NAME.json and, for the tagged ones, expected/pcm/NAME.tags.json.

Also Tests/Fixtures/ima4/aifc-ima4-44k-stereo.aifc, AIFC of Apple's IMA4 ADPCM (`ffmpeg -c:a adpcm_ima_qt -f
aiff`: constant 34-byte packets of 64 frames a channel), with expected/ima4/NAME.packets.csv (ffprobe's packets,
one a block: `offset,size,frames`) and expected/ima4/NAME.json (ffprobe's stream, and the walk's COMM fields,
whose frame count AIFC's IMA4 states in packets). It is not PCM, so it is kept apart from pcm/.

The truth: the format (codec, rate, channels, layout, bits, frames) from ffprobe's stream; the data offset from
ffprobe's first packet position and the data size from the sum of its packet sizes; both cross-checked against a
walk of the chunks written here from the RIFF and AIFF specifications, which also gives the raw facts ffprobe does
not print (format tag, channel mask, RF64 sizes, text chunks). Tags come from mutagen (ID3 chunks) and from
ffprobe's format tags beside the walk's raw ids (RIFF INFO, AIFF text chunks). The script stops if they disagree.
"""

import json
import os
import shutil
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "pcm")
EXP = os.path.join(HERE, "expected", "pcm")
IMA4_OUT = os.path.join(HERE, "ima4")
IMA4_EXP = os.path.join(HERE, "expected", "ima4")
sys.path.insert(0, HERE)
from make_codec_fixtures import ffprobe_packets, ffprobe_stream, run, source_wav, write_json  # noqa: E402
from fixture_folders import remade  # noqa: E402

FFMPEG = ["ffmpeg", "-v", "error", "-nostdin", "-y"]

# ---------------------------------------------------------------- chunk walk, from the specifications


def walk(data):
    """The file type and chunks of a RIFF/RF64/BW64 WAVE or an AIFF/AIFC file: [(id, header offset, size)], with
    RF64's 64-bit data size from ds64 and a size of 0 or 0xFFFFFFFF (streaming writers) meaning 'to the end'."""
    big = data[:4] == b"FORM"
    kind = data[:4].decode()
    form = data[8:12].decode()
    assert (kind in ("RIFF", "RF64", "BW64") and form == "WAVE") or (kind == "FORM" and form in ("AIFF", "AIFC"))
    chunks, pos, ds64_data = [], 12, None
    while pos + 8 <= len(data):
        cid = data[pos:pos + 4].decode("latin-1")
        size = struct.unpack(">I" if big else "<I", data[pos + 4:pos + 8])[0]
        if cid == "ds64":
            ds64_data = struct.unpack("<Q", data[pos + 16:pos + 24])[0]
        if cid in ("data", "SSND"):
            if ds64_data is not None and size == 0xFFFFFFFF:
                size = ds64_data
            if size in (0, 0xFFFFFFFF):
                size = len(data) - pos - 8
        chunks.append((cid, pos, size))
        pos += 8 + size + (size & 1)
    return {"FORM": form, "RIFF": "WAVE"}.get(kind, kind), chunks


def chunk(data, chunks, cid):
    return next(((p, s) for c, p, s in chunks if c == cid), None)


def sound_facts(data, file_type, chunks):
    """Data offset and size, and the raw format facts, from the walk."""
    facts = {"fileType": file_type}
    if file_type in ("AIFF", "AIFC"):
        p, s = chunk(data, chunks, "COMM")
        ch, frames, bits = struct.unpack(">hIh", data[p + 8:p + 16])
        exp, mant = struct.unpack(">HQ", data[p + 16:p + 26])
        facts.update(commChannels=ch, commFrames=frames, commBits=bits,
                     commRate=mant * 2.0 ** ((exp & 0x7FFF) - 16383 - 63))
        if file_type == "AIFC":
            facts["compressionType"] = data[p + 26:p + 30].decode("latin-1")
        p, s = chunk(data, chunks, "SSND")
        offset = struct.unpack(">I", data[p + 8:p + 12])[0]
        facts["dataOffset"] = p + 16 + offset
        facts["dataBytes"] = s - 8 - offset
    else:
        p, s = chunk(data, chunks, "fmt ")
        tag, ch, rate, _, align, bits = struct.unpack("<HHIIHH", data[p + 8:p + 24])
        facts.update(formatTag=tag, blockAlign=align)
        if tag == 0xFFFE:
            valid, mask = struct.unpack("<HI", data[p + 26:p + 32])
            facts.update(validBits=valid, channelMask=mask, subformatTag=struct.unpack("<H", data[p + 32:p + 34])[0])
        p, s = chunk(data, chunks, "data")
        facts["dataOffset"] = p + 8
        facts["dataBytes"] = s
    return facts


def text_chunks(data, chunks, big):
    """AIFF text chunks, or a RIFF LIST/INFO's subchunks, as [id, text] in file order."""
    out = []
    for cid, p, s in chunks:
        if big and cid in ("NAME", "AUTH", "(c) ", "ANNO"):
            out.append([cid, data[p + 8:p + 8 + s].split(b"\0")[0].decode()])
        if not big and cid == "LIST" and data[p + 8:p + 12] == b"INFO":
            q, end = p + 12, p + 8 + s
            while q + 8 <= end:
                sid = data[q:q + 4].decode("latin-1")
                n = struct.unpack("<I", data[q + 4:q + 8])[0]
                out.append([sid, data[q + 8:q + 8 + n].split(b"\0")[0].decode()])
                q += 8 + n + (n & 1)
    return out


# ---------------------------------------------------------------- fixtures

SOURCES = {}


def source(work, rate, ch, seconds):
    key = (rate, ch, seconds)
    if key not in SOURCES:
        SOURCES[key] = source_wav(work, rate, ch, seconds, f"src-{rate}-{ch}-{seconds}")
    return SOURCES[key]


def encode(work, name, rate, ch, seconds, codec, fmt="wav", flags=(), pipe=False):
    ext = {"wav": "wav", "aiff": "aiff"}[fmt]
    path = os.path.join(work, f"{name}.{ext}")
    cmd = FFMPEG + ["-i", source(work, rate, ch, seconds), "-bitexact", "-map_metadata", "-1", "-c:a", codec,
                    *flags, "-f", fmt]
    if pipe:
        # What a writer to a pipe leaves: sizes it cannot go back to fill in.
        with open(path, "wb") as f:
            subprocess.run(cmd + ["pipe:"], check=True, stdout=f)
    else:
        run(cmd + [path])
    return path


def insert_odd_chunk(path):
    """The file with a `odd ` chunk of 5 bytes and its pad byte between `fmt ` and `data`."""
    data = open(path, "rb").read()
    _, chunks = walk(data)
    p, _ = chunk(data, chunks, "data")
    odd = b"odd " + struct.pack("<I", 5) + b"\x01\x02\x03\x04\x05" + b"\0"
    body = data[12:p] + odd + data[p:]
    open(path, "wb").write(data[:4] + struct.pack("<I", len(body) + 4) + b"WAVE" + body)


def add_id3(path, kind):
    """An ID3v2 chunk written by mutagen (`id3 ` in WAVE, `ID3 ` in AIFF)."""
    from mutagen.id3 import TALB, TIT2, TPE1, TRCK
    if kind == "wav":
        from mutagen.wave import WAVE as Tagged
    else:
        from mutagen.aiff import AIFF as Tagged
    audio = Tagged(path)
    audio.add_tags()
    audio.tags.add(TIT2(encoding=3, text="Chunk Title"))
    audio.tags.add(TPE1(encoding=3, text="Chunk Artist"))
    audio.tags.add(TALB(encoding=3, text="Chunk Album"))
    audio.tags.add(TRCK(encoding=3, text="3/9"))
    audio.save(v2_version=3)


def mutagen_tags(path, kind):
    if kind == "wav":
        from mutagen.wave import WAVE as Tagged
    else:
        from mutagen.aiff import AIFF as Tagged
    audio = Tagged(path)
    return {"version": "id3v2.%d" % audio.tags.version[1],
            "frames": [[key, str(frame)] for key, frame in sorted(audio.tags.items())]}


def record(path, name, how, tags=None, reference=None):
    """Records the fixture at `path`. ffprobe refuses a streamed AIFF (sizes of 0): its truth is then ffprobe's of
    `reference`, the same samples written to a file, whose sample bytes must be the fixture's."""
    data = open(path, "rb").read()
    file_type, chunks = walk(data)
    facts = sound_facts(data, file_type, chunks)
    probed = reference or path
    stream, fmt = ffprobe_stream(probed)
    packets = ffprobe_packets(probed)
    probed_offset, probed_bytes = packets[0][0], sum(size for _, size, _, _ in packets)
    if reference:
        ref = open(reference, "rb").read()
        at = data[facts["dataOffset"]:facts["dataOffset"] + facts["dataBytes"]]
        assert ref[probed_offset:probed_offset + probed_bytes] == at, name
    else:
        assert probed_offset == facts["dataOffset"], (name, probed_offset, facts["dataOffset"])
        assert probed_bytes == facts["dataBytes"], (name, probed_bytes, facts["dataBytes"])
    frames = sum(d for _, _, d, _ in packets)
    bits = int(stream.get("bits_per_sample") or 0)
    facts.update(
        how=how, codec=stream["codec_name"], sampleRate=int(stream["sample_rate"]), channels=stream["channels"],
        channelLayout=stream.get("channel_layout", ""), bitsPerSample=bits,
        bitsPerRawSample=int(stream.get("bits_per_raw_sample") or 0), frames=frames,
        formatTags=(fmt or {}).get("tags", {}), chunks=[[c, p, s] for c, p, s in chunks])
    text = text_chunks(data, chunks, file_type in ("AIFF", "AIFC"))
    if text:
        facts["textChunks"] = text
    assert facts["dataBytes"] % (frames or 1) == 0 and frames > 0, name
    write_json(os.path.join(EXP, name + ".json"), facts)
    with open(os.path.join(EXP, name + ".packets.csv"), "w") as f:
        f.write("offset,size,frames\n%d,%d,%d\n" % (facts["dataOffset"], facts["dataBytes"], frames))
    if tags:
        write_json(os.path.join(EXP, name + ".tags.json"), tags)
    ext = {"WAVE": "wav", "RF64": "wav", "AIFF": "aiff", "AIFC": "aifc"}[file_type]
    shutil.copyfile(path, os.path.join(OUT, f"{name}.{ext}"))


WAVES = [
    # name, rate, channels, seconds, codec, extra ffmpeg flags
    ("wav-u8-mono", 22050, 1, 0.2, "pcm_u8", []),
    ("wav-s16-stereo", 44100, 2, 0.2, "pcm_s16le", []),
    ("wav-s24-stereo", 48000, 2, 0.1, "pcm_s24le", []),
    ("wav-s32-mono", 44100, 1, 0.1, "pcm_s32le", []),
    ("wav-f32-stereo", 32000, 2, 0.1, "pcm_f32le", []),
    ("wav-f64-mono", 22050, 1, 0.1, "pcm_f64le", []),
    ("wav-mulaw", 8000, 1, 0.3, "pcm_mulaw", []),
    ("wav-alaw", 8000, 1, 0.3, "pcm_alaw", []),
    ("wav-5.1", 48000, 2, 0.1, "pcm_s16le", ["-af", "pan=5.1|FL=c0|FR=c1|FC=c0|LFE=c1|BL=c0|BR=c1"]),
    ("wav-quad", 44100, 2, 0.1, "pcm_s16le", ["-af", "pan=quad|FL=c0|FR=c1|BL=c0|BR=c1"]),
    ("wav-4.0", 44100, 2, 0.1, "pcm_s16le", ["-af", "pan=4.0|FL=c0|FR=c1|FC=c0|BC=c1"]),
    ("rf64-s16-stereo", 44100, 2, 0.1, "pcm_s16le", ["-rf64", "always"]),
]

AIFFS = [
    ("aiff-s16-stereo", 44100, 2, 0.2, "pcm_s16be", []),
    ("aiff-s24-mono", 48000, 1, 0.1, "pcm_s24be", []),
    ("aifc-sowt", 44100, 2, 0.1, "pcm_s16le", []),
    ("aifc-fl32", 32000, 2, 0.1, "pcm_f32be", []),
    ("aifc-fl64", 22050, 1, 0.1, "pcm_f64be", []),
    ("aifc-ulaw", 8000, 1, 0.3, "pcm_mulaw", []),
    ("aifc-alaw", 8000, 1, 0.3, "pcm_alaw", []),
]


def make_ima4(work):
    """The IMA4 AIFC and its expected values: ffprobe's packets as they are, every one a whole block."""
    name = "aifc-ima4-44k-stereo"
    path = encode(work, name, 44100, 2, 0.2, "adpcm_ima_qt", fmt="aiff")
    data = open(path, "rb").read()
    file_type, chunks = walk(data)
    facts = sound_facts(data, file_type, chunks)
    stream, _ = ffprobe_stream(path)
    packets = [(pos, size, duration) for pos, size, duration, _ in ffprobe_packets(path)]
    assert packets[0][0] == facts["dataOffset"] and sum(p[1] for p in packets) == facts["dataBytes"], name
    assert facts["commFrames"] == len(packets), f"{name}: COMM does not count ffprobe's packets"
    facts.update(how="ffmpeg -f aiff -c:a adpcm_ima_qt", codec=stream["codec_name"],
                 codecTag=stream["codec_tag_string"], sampleRate=int(stream["sample_rate"]),
                 channels=stream["channels"], channelLayout=stream.get("channel_layout", ""),
                 packetCount=len(packets), frames=sum(p[2] for p in packets), chunks=[[c, p, s] for c, p, s in chunks])
    write_json(os.path.join(IMA4_EXP, name + ".json"), facts)
    with open(os.path.join(IMA4_EXP, name + ".packets.csv"), "w") as f:
        f.write("offset,size,frames\n")
        f.writelines("%d,%d,%d\n" % row for row in packets)
    shutil.copyfile(path, os.path.join(IMA4_OUT, name + ".aifc"))


def main():
    with remade(OUT, EXP, IMA4_OUT, IMA4_EXP) as work:
        for name, rate, ch, seconds, codec, flags in WAVES:
            path = encode(work, name, rate, ch, seconds, codec, flags=flags)
            record(path, name, f"ffmpeg -c:a {codec} {' '.join(flags)}".strip())
        for name, rate, ch, seconds, codec, flags in AIFFS:
            path = encode(work, name, rate, ch, seconds, codec, fmt="aiff", flags=flags)
            record(path, name, f"ffmpeg -f aiff -c:a {codec}")

        path = encode(work, "wav-streamed", 44100, 2, 0.1, "pcm_s16le", pipe=True)
        record(path, "wav-streamed", "ffmpeg -c:a pcm_s16le -f wav pipe:")
        path = encode(work, "aiff-streamed", 44100, 2, 0.1, "pcm_s16be", fmt="aiff", pipe=True)
        reference = encode(work, "aiff-streamed-file", 44100, 2, 0.1, "pcm_s16be", fmt="aiff")
        record(path, "aiff-streamed", "ffmpeg -c:a pcm_s16be -f aiff pipe:", reference=reference)

        path = encode(work, "wav-odd-chunk", 22050, 1, 0.1, "pcm_s16le")
        insert_odd_chunk(path)
        record(path, "wav-odd-chunk", "ffmpeg -c:a pcm_s16le, then an odd-sized chunk before data")

        info = ["-metadata", "title=Info Title", "-metadata", "artist=Info Artist", "-metadata", "album=Info Album",
                "-metadata", "date=2024", "-metadata", "genre=Ambient", "-metadata", "comment=Info Comment",
                "-metadata", "track=4"]
        path = encode(work, "wav-info", 22050, 1, 0.1, "pcm_s16le", flags=info)
        record(path, "wav-info", "ffmpeg -c:a pcm_s16le " + " ".join(info[1::2]))

        path = encode(work, "wav-id3", 22050, 1, 0.1, "pcm_s16le")
        add_id3(path, "wav")
        record(path, "wav-id3", "ffmpeg -c:a pcm_s16le, then mutagen.wave add_tags", tags=mutagen_tags(path, "wav"))

        path = encode(work, "aiff-id3", 22050, 1, 0.1, "pcm_s16be", fmt="aiff")
        add_id3(path, "aiff")
        record(path, "aiff-id3", "ffmpeg -f aiff, then mutagen.aiff add_tags", tags=mutagen_tags(path, "aiff"))

        text = ["-metadata", "title=Text Name", "-metadata", "author=Text Author", "-metadata",
                "comment=Text Annotation", "-metadata", "copyright=2024 Text"]
        path = encode(work, "aiff-text", 22050, 1, 0.1, "pcm_s16be", fmt="aiff", flags=text)
        record(path, "aiff-text", "ffmpeg -f aiff " + " ".join(text[1::2]))

        make_ima4(work)


if __name__ == "__main__":
    main()
