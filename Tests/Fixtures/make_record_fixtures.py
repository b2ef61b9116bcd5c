#!/usr/bin/env python3
"""Makes the recording fixtures (record/): 12 s of the same music in each codec a recording writes.

    python3 Tests/Fixtures/make_record_fixtures.py      (from anywhere; paths are found from this file)

make-fixtures.sh calls it. Needs sox, lame, ffmpeg, opusenc, oggenc and flac. Long enough that `--every 5` makes
three pieces, small enough to commit (low bit rates). Tests cut them into pieces with `audiostream record` and
compare what ffmpeg decodes of the pieces with what it decodes of the whole, at test time: no expected values
are recorded here.
- cbr.mp3: MP3 CBR 64 kb/s, LAME tag (priming and padding);
- vbr.mp3: MP3 VBR (lame -V 6), Xing TOC and LAME tag;
- l2.mp2: MPEG-1 Layer II 64 kb/s, 32 kHz mono (ffmpeg's mp2 encoder);
- aac.m4a: AAC-LC 48 kb/s in MP4 (ffmpeg's encoder, without PNS), moov first, with its edit list for the priming;
- aac.aac: the same AAC as ADTS;
- opus.opus: Opus 24 kb/s (opusenc, pre-skip 312);
- vorbis.ogg: Vorbis quality 0 (oggenc);
- flac.flac: FLAC 11.025 kHz mono, 16 bits, block size 1152;
- pcm.wav: 16-bit PCM, 8 kHz mono.
"""

import os
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "record")


def run(*args):
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def music(path, rate, channels, seconds=12):
    """A chord under a slow sweep with a tremolo: tonal, so that lossy codecs keep it, and never silent."""
    run("sox", "-R", "-n", "-r", str(rate), "-c", str(channels), "-b", "16", path,
        "synth", str(seconds), "sine", "220", "sine", "277", "sine", "330", "sine", "110-1760",
        "remix", "-", "tremolo", "1.3", "40", "norm", "-3")


def main():
    os.makedirs(OUT, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        stereo = os.path.join(work, "stereo.wav")
        music(stereo, 44100, 2)
        out = lambda name: os.path.join(OUT, name)
        run("lame", "--quiet", "--nohist", "-b", "64", "-m", "j", "--resample", "44.1", stereo, out("cbr.mp3"))
        run("lame", "--quiet", "--nohist", "-V", "6", "-m", "j", stereo, out("vbr.mp3"))
        ffmpeg = ["ffmpeg", "-v", "error", "-y", "-bitexact", "-i", stereo]
        run(*ffmpeg, "-c:a", "mp2", "-b:a", "64k", "-ac", "1", "-ar", "32000", out("l2.mp2"))
        # Without PNS: bands coded as noise come from a generator that runs through the whole stream, so no cut
        # decodes to the whole's samples.
        run(*ffmpeg, "-c:a", "aac", "-aac_pns", "0", "-b:a", "48k", "-map_metadata", "-1", "-movflags", "+faststart",
            out("aac.m4a"))
        run("ffmpeg", "-v", "error", "-y", "-i", out("aac.m4a"), "-c", "copy", "-f", "adts", out("aac.aac"))
        run("opusenc", "--quiet", "--serial", "1", "--bitrate", "24", stereo, out("opus.opus"))
        run("oggenc", "--quiet", "-s", "1", "-q", "0", "-o", out("vorbis.ogg"), stereo)
        mono = os.path.join(work, "mono.wav")
        music(mono, 11025, 1)
        run("flac", "--silent", "-f", "--blocksize=1152", "-o", out("flac.flac"), mono)
        music(out("pcm.wav"), 8000, 1)


if __name__ == "__main__":
    main()
