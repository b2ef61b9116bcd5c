#!/usr/bin/env python3
"""Compares `audiostream probe`'s duration with mutagen's and ffprobe's over every file in a folder.

    python3 scripts/compare-durations.py FOLDER [--audiostream PATH] [--json OUT] [--verbose]

Only files of a container and codec that audiostream reads (as ffprobe names them, or mutagen where ffprobe
cannot open a file: a damaged tag or sample table) and whose duration mutagen or ffprobe states are compared.
`probe`'s duration agrees when it is within 50 ms or 1 % of either (the tools count priming and remainder
differently: see README, "Duration"), or else of what ffmpeg decodes (both tools estimate some files from their
size, trailing tags included, where `probe` counts the frames). Prints one line per file that disagrees (all
with --verbose) and the agreement, `agree/compared (percent)`. Exits 1 when any file disagrees. Needs ffprobe and
mutagen (`pip install mutagen`). --json writes each file's three durations.
"""

import argparse
import json
import os
import subprocess
import sys


def mutagen_duration(path):
    return mutagen_facts(path)[0]


def mutagen_facts(path):
    """mutagen's duration and the name of the type it reads the file as."""
    try:
        import mutagen
        audio = mutagen.File(path)
        length = audio.info.length if audio is not None else None
        return (float(length) if length else None), type(audio).__name__
    except Exception:
        return None, None


# ffprobe's names of the containers and codecs audiostream reads: other files are not compared.
CONTAINERS = {"mp3", "aac", "ac3", "eac3", "ogg", "flac", "wav", "aiff", "caf", "mov,mp4,m4a,3gp,3g2,mj2"}
CODECS = {"mp1", "mp2", "mp3", "aac", "ac3", "eac3", "vorbis", "opus", "flac", "alac", "pcm_mulaw", "pcm_alaw",
          "adpcm_ima_qt"}
# mutagen's types of the formats audiostream reads (not AAC, which is ADIF as well as ADTS).
MUTAGEN_TYPES = {"MP3", "EasyMP3", "MP4", "EasyMP4", "FLAC", "OggVorbis", "OggOpus", "OggFLAC", "AIFF", "WAVE"}


def ffprobe(path):
    """ffprobe's duration, and whether the file is a container and codec that audiostream reads (None when ffprobe
    cannot open it)."""
    result = subprocess.run(
        ["ffprobe", "-v", "error", "-show_entries", "format=format_name,duration:stream=codec_type,codec_name",
         "-of", "json", path], capture_output=True, text=True)
    try:
        facts = json.loads(result.stdout)
    except ValueError:
        return None, None
    if "format" not in facts:
        return None, None
    audio = [stream.get("codec_name", "") for stream in facts.get("streams", []) if stream.get("codec_type") == "audio"]
    readable = facts.get("format", {}).get("format_name") in CONTAINERS and any(
        codec in CODECS or codec.startswith("pcm_") for codec in audio)
    try:
        duration = float(facts["format"]["duration"])
    except (KeyError, ValueError, TypeError):
        duration = None
    return (duration if duration and duration > 0 else None), readable


def probe_duration(audiostream, path):
    result = subprocess.run([audiostream, "probe", path], capture_output=True, text=True)
    try:
        facts = json.loads(result.stdout)
    except ValueError:
        return None, None
    return facts.get("duration"), facts.get("durationIsEstimated")


def decoded_duration(path):
    """Seconds of audio ffmpeg decodes (gapless, as `audiostream decode`), the truth when the headers' sizes
    are not: the tools estimate from the file's size, trailing tags included."""
    result = subprocess.run(
        ["ffmpeg", "-v", "error", "-i", path, "-map", "0:a:0", "-f", "s16le", "-ac", "1", "-ar", "48000", "-"],
        capture_output=True)
    frames = len(result.stdout) // 2
    return frames / 48000 if frames else None


def agrees(ours, reference):
    return reference is not None and ours is not None and abs(ours - reference) <= max(0.05, 0.01 * reference)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder")
    parser.add_argument("--audiostream", default=".build/debug/audiostream")
    parser.add_argument("--json")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    rows = []
    for root, _, names in os.walk(args.folder):
        for name in sorted(names):
            path = os.path.join(root, name)
            reference, readable = ffprobe(path)
            told, kind = mutagen_facts(path)
            if not (readable or (readable is None and kind in MUTAGEN_TYPES)):
                continue
            ours, estimated = probe_duration(args.audiostream, path)
            row = {"file": os.path.relpath(path, args.folder), "probe": ours, "estimated": estimated,
                   "mutagen": told, "ffprobe": reference}
            if row["mutagen"] is None and row["ffprobe"] is None:
                continue
            row["agrees"] = agrees(ours, row["mutagen"]) or agrees(ours, row["ffprobe"])
            if not row["agrees"]:
                row["decoded"] = decoded_duration(path)
                row["agrees"] = agrees(ours, row["decoded"])
            rows.append(row)
    rows.sort(key=lambda row: row["file"])
    for row in rows:
        if args.verbose or not row["agrees"]:
            print("%-50s probe %-22s mutagen %-12s ffprobe %-12s decoded %s" % (
                row["file"], "%s%s" % (row["probe"], " (estimated)" if row["estimated"] else ""),
                row["mutagen"], row["ffprobe"], row.get("decoded", "-")))
    agreeing = sum(row["agrees"] for row in rows)
    print("agree: %d/%d (%.1f %%)" % (agreeing, len(rows), 100.0 * agreeing / max(len(rows), 1)))
    if args.json:
        with open(args.json, "w") as out:
            json.dump(rows, out, indent=2)
    return 0 if agreeing == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main())
