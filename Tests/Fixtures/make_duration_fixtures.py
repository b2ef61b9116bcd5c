#!/usr/bin/env python3
"""Makes the duration fixtures (duration/) and records what mutagen, ffprobe and ffmpeg's decode say of them.

    python3 Tests/Fixtures/make_duration_fixtures.py      (from anywhere; paths are found from this file)

make-fixtures.sh calls it. Needs sox, lame, flac, opusenc, ffmpeg/ffprobe and mutagen. Each fixture is a case where
`probe`'s duration once disagreed with mutagen and ffprobe on real files (scripts/compare-durations.py):
- alac.m4a: ALAC, whose packets have no constant frame count, without an edit list (as iTunes writes it);
- alac-cut.m4a, alac-no-edits-cut.m4a, aac-cut.m4a, mp3-xing-cut.mp3, flac-cut.flac: the first half of a file whose header (moov,
  Xing/LAME tag, STREAMINFO) states the whole length, which is the duration, as AVAsset's is;
- flac-no-frame.flac: the same cut inside the first frame, where STREAMINFO alone tells the length (mutagen's
  52-overwritten-metadata.flac and flac_application.flac are such files);
- mp3-xing-no-frames.mp3: a Xing tag that counts 0 frames before its audio (as mutagen's bad-xing.mp3);
- mp3-ape-id3v1.mp3: CBR without a Xing tag, then APEv2 and ID3v1 trailers, which are not audio;
- opus.opus and opus-cut.opus: Opus with opusenc's pre-skip of 312 frames, whole and cut in half (no end page);
- aiff-no-sound.aiff: an AIFF whose COMM states its frames and which holds no SSND (exiftool's AIFF.aif, audiotools'
  aiff-nossnd.aiff);
- aiff-format-last.aiff, wav-format-last.wav: the sound chunk before the format chunk (audiotools'
  aiff-misordered.aiff and wav-misordered.wav), read format first from a file;
- aac-stsz-count.m4a, alac-stco-empty.m4a: a moov whose sample table cannot place the packets (a stsz count past
  its box, as infloop.m4a's; a stco of no chunks, as exiftool's QuickTime.m4a; mutagen's nero-chapters.m4b has a
  stsz of no fields): the format and length the other boxes state hold;
- adts-one-frame.aac: one ADTS frame and nothing else (exiftool's AAC.aac);
- mp3-xing-only.mp3: a Xing/LAME frame then 21 bytes of the next (mutagen's bad-POPM-frame.mp3), whose length the
  Xing frame states;
- flac-short-picture.flac: a PICTURE block whose header says 0 bytes (mutagen's 106-short-picture-block-size.flac,
  as a tagger wrote it), so the blocks after it are garbage: STREAMINFO states the length.

Writes expected/duration/NAME.json: `mutagen` (info.length), `ffprobe` (format duration), `decoded` (seconds of
ffmpeg's PCM, gapless) and `truth`, the one of them that states the duration as README ("Duration") defines it:
gapless, and the header's length when a header states one.
"""

import json
import os
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "duration")
EXP = os.path.join(HERE, "expected", "duration")
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts"))
from fixture_folders import remade  # noqa: E402
from make_heaac_fixtures import boxes  # noqa: E402
from make_pcm_fixtures import walk as chunk_walk  # noqa: E402
from mpeg_spec import parse_header  # noqa: E402
compare = __import__("compare-durations")


def run(*command):
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)


def first_half(source, target):
    with open(source, "rb") as file:
        data = file.read()
    with open(target, "wb") as file:
        file.write(data[:len(data) // 2])


def reordered(source, target, kinds):
    """A WAVE or AIFF file with its chunks in the order of `kinds` (ids left out are dropped), its form size anew."""
    with open(source, "rb") as file:
        data = file.read()
    _, chunks = chunk_walk(data)
    big = data[:4] == b"FORM"
    body = b"".join(data[pos:pos + 8 + size + (size & 1)] for kind in kinds for cid, pos, size in chunks if cid == kind)
    with open(target, "wb") as file:
        file.write(data[:4] + struct.pack(">I" if big else "<I", 4 + len(body)) + data[8:12] + body)


def sample_table_box(data, kind):
    """The offset of the first track's sample table box `kind` (ISO/IEC 14496-12 §8.1: moov/trak/mdia/minf/stbl)."""
    start, end = 0, len(data)
    for name in (b"moov", b"trak", b"mdia", b"minf", b"stbl", kind):
        box = next(box for box in boxes(data, start, end) if box[0] == name)
        start, end = box[1] + 8, box[2]
    return start - 8


def damaged(source, target, kind, offset, value):
    """`source` with the 32-bit field `offset` bytes into its sample table box `kind` set to `value`."""
    with open(source, "rb") as file:
        data = bytearray(file.read())
    field = sample_table_box(data, kind) + offset
    data[field:field + 4] = struct.pack(">I", value)
    with open(target, "wb") as file:
        file.write(data)


def main():
    with remade(OUT, EXP) as work:
        wav = os.path.join(work, "source.wav")
        run("sox", "-R", "-n", "-r", "22050", "-c", "1", "-b", "16", wav, "synth", "1", "sine", "220", "sine",
            "330", "gain", "-6")
        wav44 = os.path.join(work, "source44.wav")
        run("sox", "-R", wav, "-r", "44100", wav44)
        wav48 = os.path.join(work, "source48.wav")
        run("sox", "-R", wav, "-r", "48000", wav48)
        made = {}

        def out(name):
            return os.path.join(OUT, name)

        ffmpeg = ["ffmpeg", "-v", "error", "-nostdin", "-y", "-fflags", "+bitexact", "-i"]
        # No edit list, as iTunes writes ALAC: nothing but the packets tells the length.
        run(*ffmpeg, wav, "-c:a", "alac", "-flags", "+bitexact", "-use_editlist", "0", out("alac.m4a"))
        made["alac.m4a"] = ("mutagen", "ffmpeg -c:a alac -use_editlist 0 (moov after the audio)")
        run(*ffmpeg, wav, "-c:a", "alac", "-flags", "+bitexact", "-use_editlist", "0", "-movflags", "+faststart",
            os.path.join(work, "alac-no-edits.m4a"))
        first_half(os.path.join(work, "alac-no-edits.m4a"), out("alac-no-edits-cut.m4a"))
        made["alac-no-edits-cut.m4a"] = ("mutagen", "ffmpeg -c:a alac -use_editlist 0 -movflags +faststart, first half")
        run(*ffmpeg, wav, "-c:a", "alac", "-flags", "+bitexact", "-movflags", "+faststart",
            os.path.join(work, "alac.m4a"))
        first_half(os.path.join(work, "alac.m4a"), out("alac-cut.m4a"))
        made["alac-cut.m4a"] = ("mutagen", "ffmpeg -c:a alac -movflags +faststart, first half")
        run(*ffmpeg, wav, "-c:a", "aac", "-b:a", "32k", "-flags", "+bitexact", "-movflags", "+faststart",
            os.path.join(work, "aac.m4a"))
        first_half(os.path.join(work, "aac.m4a"), out("aac-cut.m4a"))
        # mutagen counts the priming frames the edit list leaves out; ffprobe does not.
        made["aac-cut.m4a"] = ("ffprobe", "ffmpeg -c:a aac -b:a 32k -movflags +faststart, first half")

        mp3 = os.path.join(work, "vbr.mp3")
        run("lame", "--quiet", "--nohist", "-V", "5", wav44, mp3)
        first_half(mp3, out("mp3-xing-cut.mp3"))
        made["mp3-xing-cut.mp3"] = ("mutagen", "lame -V 5, first half")
        with open(mp3, "rb") as file:
            data = bytearray(file.read())
        xing = data.find(b"Xing")
        assert xing > 0 and data[xing + 7] & 1, "lame's Xing tag states its frames"
        data[xing + 8:xing + 12] = bytes(4)
        with open(out("mp3-xing-no-frames.mp3"), "wb") as file:
            file.write(data)
        made["mp3-xing-no-frames.mp3"] = ("decoded", "lame -V 5, the Xing tag's frame count set to 0")

        run("lame", "--quiet", "--nohist", "-t", "-b", "64", wav44, out("mp3-ape-id3v1.mp3"))
        with open(out("mp3-ape-id3v1.mp3"), "ab") as file:
            file.write(b"TAG" + b"Trailer".ljust(30, b"\0") + bytes(30 + 30 + 4 + 30) + bytes([255]))
        from mutagen.apev2 import APEv2
        ape = APEv2()
        ape["Title"] = "Trailer"
        ape["Comment"] = "x" * 2000
        ape.save(out("mp3-ape-id3v1.mp3"))
        made["mp3-ape-id3v1.mp3"] = ("decoded", "lame -t -b 64, then ID3v1, then APEv2 (mutagen) before it")

        run("flac", "-s", "-f", "--no-padding", "-b", "1152", wav44, "-o", os.path.join(work, "source.flac"))
        first_half(os.path.join(work, "source.flac"), out("flac-cut.flac"))
        made["flac-cut.flac"] = ("mutagen", "flac -b 1152, first half")
        with open(os.path.join(work, "source.flac"), "rb") as file:
            data = file.read()
        first_frame = data.find(b"\xff\xf8", 4 + 4 + 34)
        assert first_frame > 0, "flac's first frame follows STREAMINFO"
        with open(out("flac-no-frame.flac"), "wb") as file:
            file.write(data[:first_frame + 100])
        made["flac-no-frame.flac"] = ("mutagen", "flac -b 1152, cut 100 bytes into its first frame")
        pictured = os.path.join(work, "picture.flac")
        run("flac", "-s", "-f", "--no-padding", "-b", "1152", wav44, "-o", pictured)
        from mutagen.flac import FLAC, Picture
        tagged, picture = FLAC(pictured), Picture()
        picture.type, picture.mime, picture.data = 3, "image/png", b"\x89PNG\r\n\x1a\n" + bytes(64)
        tagged.add_picture(picture)
        tagged.save(padding=lambda info: 0)
        with open(pictured, "rb") as file:
            data = bytearray(file.read())
        block = 4
        while data[block] & 0x7F != 6:  # to the PICTURE block, past STREAMINFO, SEEKTABLE and VORBIS_COMMENT
            block += 4 + int.from_bytes(data[block + 1:block + 4], "big")
        data[block + 1:block + 4] = bytes(3)
        with open(out("flac-short-picture.flac"), "wb") as file:
            file.write(data)
        made["flac-short-picture.flac"] = ("mutagen", "flac -b 1152, a PICTURE (mutagen) whose size is set to 0")

        # Pages of 100 ms, so that half the file holds audio pages; opusenc's pre-skip is 312 frames.
        run("opusenc", "--quiet", "--serial", "1", "--max-delay", "100", wav48, out("opus.opus"))
        first_half(out("opus.opus"), out("opus-cut.opus"))
        made["opus.opus"] = ("mutagen", "opusenc (pre-skip 312)")
        made["opus-cut.opus"] = ("mutagen", "opusenc (pre-skip 312), first half: no end page")

        run("sox", "-R", wav, os.path.join(work, "source.aiff"))
        reordered(os.path.join(work, "source.aiff"), out("aiff-no-sound.aiff"), ["COMT", "COMM"])
        made["aiff-no-sound.aiff"] = ("mutagen", "sox, the SSND chunk left out")
        reordered(os.path.join(work, "source.aiff"), out("aiff-format-last.aiff"), ["COMT", "SSND", "COMM"])
        made["aiff-format-last.aiff"] = ("decoded", "sox, COMM moved after SSND")
        reordered(wav, out("wav-format-last.wav"), ["data", "fmt "])
        made["wav-format-last.wav"] = ("decoded", "sox, fmt moved after data")

        aac44 = os.path.join(work, "aac44.m4a")
        run(*ffmpeg, wav44, "-c:a", "aac", "-b:a", "64k", "-flags", "+bitexact", "-movflags", "+faststart", aac44)
        # stsz's version and flags, sample size 0 (a size each) and count: a count of 2^31 - 1 runs past the box.
        damaged(aac44, out("aac-stsz-count.m4a"), b"stsz", 16, 0x7FFFFFFF)
        # ffprobe refuses the file; mutagen counts the priming the edit list leaves out (23 ms at 44.1 kHz).
        made["aac-stsz-count.m4a"] = ("mutagen", "ffmpeg -c:a aac -b:a 64k -movflags +faststart, stsz count 2^31-1")
        damaged(os.path.join(work, "alac-no-edits.m4a"), out("alac-stco-empty.m4a"), b"stco", 12, 0)
        made["alac-stco-empty.m4a"] = ("mutagen", "ffmpeg -c:a alac -use_editlist 0 -movflags +faststart, stco "
                                       "count 0")

        run(*ffmpeg, wav44, "-c:a", "aac", "-b:a", "64k", "-flags", "+bitexact", os.path.join(work, "adts.aac"))
        with open(os.path.join(work, "adts.aac"), "rb") as file:
            data = file.read()

        def adts_length(position):
            # aac_frame_length, 13 bits from bit 30 of the header (ISO/IEC 13818-7 §6.2).
            return (data[position + 3] & 3) << 11 | data[position + 4] << 3 | data[position + 5] >> 5
        second = adts_length(0)
        with open(out("adts-one-frame.aac"), "wb") as file:
            file.write(data[second:second + adts_length(second)])
        made["adts-one-frame.aac"] = ("ffprobe", "ffmpeg -c:a aac -f adts, its second frame alone")

        with open(mp3, "rb") as file:
            data = file.read()
        first = parse_header(data, 0)
        assert first is not None and data.find(b"Xing", 0, first.length) > 0, "lame's first frame is its Xing frame"
        with open(out("mp3-xing-only.mp3"), "wb") as file:
            file.write(data[:first.length + 21])
        made["mp3-xing-only.mp3"] = ("mutagen", "lame -V 5, its Xing frame and 21 bytes")

        for name, (truth, how) in sorted(made.items()):
            path = out(name)
            facts = {"madeWith": how, "mutagen": compare.mutagen_duration(path),
                     "ffprobe": compare.ffprobe(path)[0], "decoded": compare.decoded_duration(path), "truth": truth}
            assert facts[truth] is not None, (name, facts)
            with open(os.path.join(EXP, name.rsplit(".", 1)[0] + ".json"), "w") as file:
                json.dump(facts, file, indent=2)
                file.write("\n")
            print("%-24s %s" % (name, facts))


if __name__ == "__main__":
    main()
