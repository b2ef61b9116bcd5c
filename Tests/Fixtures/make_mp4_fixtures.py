#!/usr/bin/env python3
"""Makes the MP4/M4A/MOV fixtures and records their expected values.

    python3 Tests/Fixtures/make_mp4_fixtures.py      (from anywhere; paths are found from this file)

make-fixtures.sh calls it. Needs sox, ffmpeg/ffprobe 5.1 (Debian, with libopus) and Python 3 with mutagen.
The source signal is make-fixtures.sh's (`sox -R`) and every encode is bit-exact, so output is the same from run to
run. HE-AAC needs an encoder Debian's FFmpeg lacks (libfdk_aac): make_heaac_fixtures.py signals it instead.

Writes Tests/Fixtures/mp4/NAME.{m4a,mp4,mov} and, per fixture, expected/mp4/NAME.packets.csv (`offset,size,frames`:
ffprobe's packet position, size and duration, -1 where ffprobe gives none) and expected/mp4/NAME.json: facts from
ffprobe (codec, rate, channels, extradata, the decoder's skip samples of the first packet, the stream's duration,
the streams and the container's tags), whether the file's moov follows its mdat (read from the top-level box headers here), and
for tagged files what mutagen reads. See README.md ("MP4").
"""

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "mp4")
EXP = os.path.join(HERE, "expected", "mp4")
sys.path.insert(0, HERE)
from make_codec_fixtures import source_wav, run, write_json  # noqa: E402
from fixture_folders import remade  # noqa: E402

FFMPEG = ["ffmpeg", "-v", "error", "-nostdin", "-y"]
BITEXACT = ["-fflags", "+bitexact", "-flags:a", "+bitexact", "-flags:v", "+bitexact", "-map_metadata", "-1"]
FASTSTART = ["-movflags", "+faststart"]
# iTunes' gapless comment written to aac-itunsmpb.m4a: priming 2112, padding 704, 88200 valid frames. The values
# are ours to choose (they need not match the encode): the test reads back what the comment says.
SMPB = " 00000000 00000840 000002C0 0000000000015888 00000000 00000000 00000000 00000000 00000000 00000000 " \
       "00000000 00000000"


def top_level_boxes(path):
    """(type, offset, size) of each top-level box, from the headers (ISO/IEC 14496-12 §4.2)."""
    data = open(path, "rb").read()
    boxes, p = [], 0
    while p + 8 <= len(data):
        size, kind = int.from_bytes(data[p:p + 4], "big"), data[p + 4:p + 8].decode("latin-1")
        if size == 1:
            size = int.from_bytes(data[p + 8:p + 16], "big")
        elif size == 0:
            size = len(data) - p
        boxes.append((kind, p, size))
        p += size
    return boxes


def ffprobe_json(path, *args):
    return json.loads(run(["ffprobe", "-v", "error", "-of", "json", *args, path]))


def packets(path):
    """ffprobe's packets of the first audio stream: [pos, size, duration or -1], and the first one's skip samples."""
    probe = ffprobe_json(path, "-select_streams", "a:0", "-show_packets", "-show_entries",
                         "packet=pos,size,duration:packet_side_data")
    rows = [[int(p["pos"]), int(p["size"]), int(p.get("duration", -1))] for p in probe["packets"]]
    side = probe["packets"][0].get("side_data_list", [])
    skip = next((s["skip_samples"] for s in side if s.get("side_data_type") == "Skip Samples"), 0)
    return rows, skip


def extradata_hex(text):
    """The bytes of ffprobe's `-show_data` hexdump (`00000000: 1210 56e5 00   ..V..`) as hex."""
    out = ""
    for line in (text or "").strip().splitlines():
        out += line.split(":", 1)[1].split("  ")[0].replace(" ", "").strip()
    return out


def facts(path, codec_label):
    rows, skip = packets(path)
    streams = ffprobe_json(path, "-show_streams", "-show_data")["streams"]
    audio = next(s for s in streams if s["codec_type"] == "audio")
    kinds = [kind for kind, _, _ in top_level_boxes(path)]
    format_tags = ffprobe_json(path, "-show_entries", "format_tags")["format"].get("tags", {})
    return rows, {
        "codec": codec_label, "ffprobeCodec": audio["codec_name"], "sampleRate": int(audio["sample_rate"]),
        "channels": int(audio["channels"]), "extradata": extradata_hex(audio.get("extradata")),
        "packets": len(rows), "skipSamples": skip, "durationTs": int(audio.get("duration_ts", -1)),
        "streams": [s["codec_type"] for s in streams], "moovAfterMdat": kinds.index("moov") > kinds.index("mdat"),
        "fragmented": "moof" in kinds, "topLevelBoxes": sorted(set(kinds)), "formatTags": format_tags,
    }


def mutagen_record(path):
    """What mutagen reads from the file's ilst: each atom's values as JSON (pictures by MIME type, size and
    bytes in hex; free-form values as text; integer pairs as lists)."""
    import mutagen.mp4
    tags = mutagen.mp4.MP4(path).tags or {}
    record = {}
    for key, values in tags.items():
        if not isinstance(values, list):  # cpil, pgap: a flag
            record[key] = values
            continue
        out = []
        for value in values:
            if isinstance(value, mutagen.mp4.MP4Cover):
                kind = "image/jpeg" if value.imageformat == mutagen.mp4.MP4Cover.FORMAT_JPEG else "image/png"
                out.append({"mime": kind, "size": len(value), "hex": bytes(value).hex()})
            elif isinstance(value, mutagen.mp4.MP4FreeForm):
                out.append(bytes(value).decode("utf-8"))
            elif isinstance(value, tuple):
                out.append(list(value))
            else:
                out.append(value)
        record[key] = out
    return record


def render_genre_numbers(tags, key, value):
    """mutagen reads `gnre` (as `\xa9gen`, by name) but does not write it: its data is a big-endian 16-bit ID3v1
    genre number plus one, of the implicit type 0, rendered by mutagen's own data renderer."""
    import struct
    return tags._MP4Tags__render_data(key, 0, 0, [struct.pack(">H", number) for number in value])


def tag_with_mutagen(path, cover):
    import mutagen.mp4
    atoms = mutagen.mp4.MP4Tags._MP4Tags__atoms
    atoms[b"gnre"] = (atoms[b"gnre"][0], render_genre_numbers)
    f = mutagen.mp4.MP4(path)
    f["\xa9nam"] = ["测试标题"]
    f["\xa9ART"] = ["Artist Name"]
    f["aART"] = ["Album Artist"]
    f["\xa9alb"] = ["Album Title"]
    f["\xa9day"] = ["2024-05-01"]
    f["trkn"] = [(3, 11)]
    f["disk"] = [(1, 2)]
    f["gnre"] = [9]  # ID3v1 genre 8 plus one: Jazz (mutagen reads it back as \xa9gen)
    f["\xa9wrt"] = ["Composer Name"]
    f["tmpo"] = [120]
    f["\xa9cmt"] = ["A comment"]
    f["\xa9grp"] = ["Grouping"]
    f["cpil"] = True
    f["covr"] = [mutagen.mp4.MP4Cover(open(cover, "rb").read(), imageformat=mutagen.mp4.MP4Cover.FORMAT_JPEG)]
    f["----:com.apple.iTunes:MOOD"] = [mutagen.mp4.MP4FreeForm(b"Calm")]
    f.save()


def main():
    with remade(OUT, EXP) as work:
        stereo = source_wav(work, 44100, 2, 2, "stereo44")
        stereo48 = source_wav(work, 48000, 2, 2, "stereo48")
        mono = source_wav(work, 44100, 1, 1, "mono44")
        aac = ["-c:a", "aac", "-b:a", "64k"]
        video = ["-f", "lavfi", "-i", "color=c=blue:size=16x16:rate=5:duration=2"]
        encodes = {
            "aac-lc-faststart.m4a": ("aac", ["-i", stereo, *aac, *FASTSTART]),
            "aac-lc-moov-at-end.m4a": ("aac", ["-i", stereo, *aac]),
            "alac.m4a": ("alac", ["-i", mono, "-c:a", "alac", *FASTSTART]),
            "ac3.mp4": ("ac3", ["-i", stereo48, "-c:a", "ac3", "-b:a", "96k", *FASTSTART]),
            "eac3.mp4": ("eac3", ["-i", stereo48, "-c:a", "eac3", "-b:a", "96k", *FASTSTART]),
            "opus.mp4": ("opus", ["-i", stereo48, "-c:a", "libopus", "-b:a", "48k", *FASTSTART]),
            "flac.mp4": ("flac", ["-i", mono, "-c:a", "flac", "-strict", "experimental", *FASTSTART]),
            "aac-fragmented.mp4": ("aac", ["-i", stereo, *aac, "-movflags", "frag_keyframe+empty_moov",
                                           "-frag_duration", "500000"]),
            "aac-cmaf.mp4": ("aac", ["-i", stereo, *aac, "-movflags",
                                     "+cmaf+frag_keyframe+empty_moov+default_base_moof+global_sidx",
                                     "-frag_duration", "500000"]),
            # The video track comes first, and its chunks lie between the audio's.
            "video-and-aac.mp4": ("aac", [*video, "-i", stereo, "-map", "0:v", "-map", "1:a", "-c:v", "mpeg4",
                                          "-q:v", "31", *aac, "-shortest", *FASTSTART]),
            "quicktime-userdata.mov": ("aac", ["-i", mono, *aac, "-f", "mov", *FASTSTART]),
            "quicktime-metadata.mov": ("aac", ["-i", mono, *aac, "-f", "mov", "-movflags",
                                               "+faststart+use_metadata_tags"]),
            "aac-tagged.m4a": ("aac", ["-i", stereo, *aac, *FASTSTART]),
            "aac-itunsmpb.m4a": ("aac", ["-i", mono, *aac, *FASTSTART]),
        }
        metadata = {
            "quicktime-userdata.mov": ["-metadata", "title=User Data Title", "-metadata", "artist=User Data Artist",
                                       "-metadata", "album=User Data Album"],
            "quicktime-metadata.mov": ["-metadata", "com.apple.quicktime.title=Metadata Title",
                                       "-metadata", "com.apple.quicktime.artist=Metadata Artist"],
        }
        cover = os.path.join(work, "cover.jpg")
        run(FFMPEG + ["-f", "lavfi", "-i", "color=c=red:size=32x32", "-frames:v", "1", "-fflags", "+bitexact",
                      "-flags:v", "+bitexact", cover])
        for name, (label, args) in encodes.items():
            path = os.path.join(OUT, name)
            run(FFMPEG + args + BITEXACT + metadata.get(name, []) + [path])
            if name == "aac-tagged.m4a":
                tag_with_mutagen(path, cover)
            if name == "aac-itunsmpb.m4a":
                import mutagen.mp4
                f = mutagen.mp4.MP4(path)
                f["----:com.apple.iTunes:iTunSMPB"] = [mutagen.mp4.MP4FreeForm(SMPB.encode())]
                f.save()
            rows, record = facts(path, label)
            if name in ("aac-tagged.m4a", "aac-itunsmpb.m4a"):
                record["tags"] = mutagen_record(path)
            with open(os.path.join(EXP, name.rsplit(".", 1)[0] + ".packets.csv"), "w") as f:
                f.write("offset,size,frames\n")
                f.writelines("%d,%d,%d\n" % tuple(row) for row in rows)
            write_json(os.path.join(EXP, name.rsplit(".", 1)[0] + ".json"), record)
            print("make_mp4_fixtures: %s (%d bytes, %d packets)" % (name, os.path.getsize(path), len(rows)))


if __name__ == "__main__":
    main()
