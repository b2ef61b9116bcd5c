#!/usr/bin/env python3
"""Records what loudgain (0.6.8) and ffmpeg's ebur128 filter measure of the files the loudness tests read, into
expected/loudness.json: each file's integrated loudness by both, and loudgain's true peak and ReplayGain 2.0
gain (to -18 LUFS; for Opus loudgain states it to -23, and it is given here to -18 as for the rest); and one
album's figures by loudgain. Run from the repository root; needs loudgain and ffmpeg, installs nothing."""
import json
import os
import subprocess
import tempfile

FIX = os.path.dirname(os.path.abspath(__file__))
# One file of every codec the tool decodes, mostly 12 s of music (record/); AC-3 and E-AC-3 in 5.1, where the
# surround channels weigh more and the LFE is left out.
FILES = [
    "record/cbr.mp3", "record/vbr.mp3", "record/l2.mp2", "record/aac.aac", "record/aac.m4a", "record/opus.opus",
    "record/vorbis.ogg", "record/flac.flac", "record/pcm.wav", "mp4/alac.m4a", "ac3-48k-5.1-448k.ac3",
    "eac3-48k-5.1-256k.eac3",
]
ALBUM = ["record/cbr.mp3", "record/vbr.mp3", "record/flac.flac"]


def loudgain(paths, album=False):
    """loudgain's tab-separated rows by file name (and "Album"), measured on copies: it reads by extension."""
    with tempfile.TemporaryDirectory() as folder:
        copies = []
        for path in paths:
            copy = os.path.join(folder, path.replace("/", "-"))
            with open(os.path.join(FIX, path), "rb") as source, open(copy, "wb") as target:
                target.write(source.read())
            copies.append(copy)
        run = subprocess.run(["loudgain", "-O", "-q"] + (["-a"] if album else []) + copies,
                             capture_output=True, text=True)
    rows = {}
    for line in run.stdout.splitlines()[1:]:
        cells = line.split("\t")
        name = os.path.basename(cells[0])
        key = "Album" if name == "Album" else paths[[os.path.basename(c) for c in copies].index(name)]
        loudness = float(cells[1].split()[0])
        reference = float(cells[5].split()[0])
        rows[key] = {
            "integrated": loudness,
            "truePeak": float(cells[3]),
            # loudgain's gain is to its reference (-23 LUFS for Opus): given to -18 as ReplayGain 2.0's.
            "gain": float(cells[8].split()[0]) + (-18.0 - reference),
        }
    return rows


def ffmpeg_integrated(path):
    with tempfile.NamedTemporaryFile(suffix=".txt") as measured:
        subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-i", os.path.join(FIX, path), "-af",
                        f"ebur128=metadata=1,ametadata=print:key=lavfi.r128.I:file={measured.name}",
                        "-f", "null", "-"], check=True)
        lines = [line for line in open(measured.name).read().splitlines() if line.startswith("lavfi.r128.I=")]
    return float(lines[-1].split("=")[1])


def main():
    tracks = loudgain(FILES)
    expected = {"files": {}, "album": {"files": ALBUM, "loudgain": loudgain(ALBUM, album=True)["Album"]}}
    for path in FILES:
        expected["files"][path] = {"loudgain": tracks.get(path), "ffmpeg": {"integrated": ffmpeg_integrated(path)}}
    with open(os.path.join(FIX, "expected", "loudness.json"), "w") as out:
        json.dump(expected, out, indent=1, sort_keys=True)
        out.write("\n")


if __name__ == "__main__":
    main()
