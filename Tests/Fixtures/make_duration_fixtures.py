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
- opus.opus and opus-cut.opus: Opus with opusenc's pre-skip of 312 frames, whole and cut in half (no end page).

Writes expected/duration/NAME.json: `mutagen` (info.length), `ffprobe` (format duration), `decoded` (seconds of
ffmpeg's PCM, gapless) and `truth`, the one of them that states the duration as README ("Duration") defines it:
gapless, and the header's length when a header states one.
"""

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "duration")
EXP = os.path.join(HERE, "expected", "duration")
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts"))
from fixture_folders import remade  # noqa: E402
compare = __import__("compare-durations")


def run(*command):
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)


def first_half(source, target):
    with open(source, "rb") as file:
        data = file.read()
    with open(target, "wb") as file:
        file.write(data[:len(data) // 2])


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

        # Pages of 100 ms, so that half the file holds audio pages; opusenc's pre-skip is 312 frames.
        run("opusenc", "--quiet", "--serial", "1", "--max-delay", "100", wav48, out("opus.opus"))
        first_half(out("opus.opus"), out("opus-cut.opus"))
        made["opus.opus"] = ("mutagen", "opusenc (pre-skip 312)")
        made["opus-cut.opus"] = ("mutagen", "opusenc (pre-skip 312), first half: no end page")

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
