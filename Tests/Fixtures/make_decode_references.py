#!/usr/bin/env python3
"""Records what ffmpeg decodes each AAC ADTS, AC-3, E-AC-3, Ogg and FLAC fixture to, as references for the
decoders: Tests/Fixtures/expected/decode/NAME.json holds the MD5 and frame count of
`ffmpeg -i F -f s16le -acodec pcm_s16le -` and of its f32le counterpart, with the rate and channels ffprobe
gives, and for FLAC the MD5 its encoder stored in STREAMINFO (of the samples at their own bit depth).

ffmpeg trims as our decoders do (Opus pre-skip and Vorbis/Opus end trimming from granule positions; ADTS and
AC-3 have no gapless information, so their whole stream is the reference). A chained Ogg stream's reference is
the concatenation of ffmpeg's decode of each link on its own, since ffmpeg decodes a chain as one stream (its
later links untrimmed, or resampled to the first link's rate).

Left out, each for its reason (the tests name them too):
- damaged streams (junk between frames, bad page CRCs, lying STREAMINFO): ffmpeg resyncs or refuses by rules of
  its own; our parser's handling of them is tested against its packet lists;
- an ADTS frame of several raw data blocks: our parser leaves such frames out by design;
- a stream without a beginning-of-stream page: it holds no audio either can find;
- splices and mid-stream rate changes of one codec stream: ffmpeg does not follow a codec or rate change.

Run from the repository root; needs ffmpeg and ffprobe. Rewrites expected/decode/ only.
"""
import glob
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

FIX = "Tests/Fixtures"
OUT = os.path.join(FIX, "expected", "decode")

LEFT_OUT = {
    "adts-junk-between.aac", "adts-lc-44k-mono-multi-rdb.aac", "adts-splice-adts-mp3.aac",
    "adts-splice-mp3-adts.aac", "ogg-opus-bad-crc.opus", "ogg-opus-junk-between.opus", "flac-junk-between.flac",
    "flac-lying-streaminfo.flac", "flac-rate-change.flac", "ogg-opus-no-bos.opus",
}


def fixtures():
    patterns = ["adts-*.aac", "ac3-*.ac3", "eac3-*.eac3", "ogg/*.opus", "ogg/*.ogg", "ogg/*.oga", "flac-*.flac",
                "flac-conformance/*.flac"]
    for pattern in patterns:
        for path in sorted(glob.glob(os.path.join(FIX, pattern))):
            if os.path.basename(path) not in LEFT_OUT:
                yield path


def ffmpeg_pcm(path, sample_format):
    return subprocess.run(["ffmpeg", "-v", "error", "-i", path, "-f", sample_format + "le", "-acodec",
                           "pcm_" + sample_format + "le", "-"], check=True, capture_output=True).stdout


def ffprobe_stream(path):
    output = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "a:0", "-show_entries",
                             "stream=sample_rate,channels", "-of", "json", path], check=True,
                            capture_output=True).stdout
    streams = json.loads(output)["streams"]
    return (int(streams[0]["sample_rate"]), int(streams[0]["channels"])) if streams else (0, 0)


def ogg_links(data):
    """The byte ranges of an Ogg chain's links: a link starts at a beginning-of-stream page that follows a page
    that is not one."""
    starts, position, previous_bos = [], 0, False
    while position + 27 <= len(data) and data[position:position + 4] == b"OggS":
        bos = data[position + 5] & 0x02 != 0
        if bos and not previous_bos:
            starts.append(position)
        previous_bos = bos
        segments = data[position + 26]
        position += 27 + segments + sum(data[position + 27:position + 27 + segments])
    return [(start, end) for start, end in zip(starts, starts[1:] + [len(data)])]


def decoded(path, sample_format):
    """ffmpeg's PCM of the file, link by link for an Ogg chain."""
    data = open(path, "rb").read()
    links = ogg_links(data) if data[:4] == b"OggS" else []
    if len(links) < 2:
        return ffmpeg_pcm(path, sample_format)
    work = tempfile.mkdtemp()
    try:
        pcm = b""
        for number, (start, end) in enumerate(links):
            link = os.path.join(work, "link%d%s" % (number, os.path.splitext(path)[1]))
            open(link, "wb").write(data[start:end])
            pcm += ffmpeg_pcm(link, sample_format)
        return pcm
    finally:
        shutil.rmtree(work)


def streaminfo_md5(path):
    """The MD5 of the unencoded samples FLAC's encoder stored in STREAMINFO (native or in Ogg), or None."""
    data = open(path, "rb").read()
    marker = data.find(b"fLaC")
    if marker < 0:
        return None
    body = marker + 8  # the STREAMINFO block's 4-byte header follows the marker
    bits = ((data[body + 12] & 0x01) << 4 | data[body + 13] >> 4) + 1
    return data[body + 18:body + 34].hex(), bits


def main():
    if not os.path.isdir(FIX):
        sys.exit("make_decode_references: run me from the repository root")
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    count = 0
    for path in fixtures():
        rate, channels = ffprobe_stream(path)
        s16, f32 = decoded(path, "s16"), decoded(path, "f32")
        expected = {
            "file": os.path.relpath(path, FIX),
            "sampleRate": rate,
            "channels": channels,
            "frames": len(s16) // (2 * channels) if channels else 0,
            "s16Md5": hashlib.md5(s16).hexdigest(),
            "f32Md5": hashlib.md5(f32).hexdigest(),
        }
        flac = streaminfo_md5(path) if path.endswith((".flac", ".oga")) else None
        if flac:
            expected["streamInfoMd5"], expected["bitsPerSample"] = flac
        name = os.path.splitext(os.path.basename(path))[0]
        with open(os.path.join(OUT, name + ".json"), "w") as out:
            json.dump(expected, out, indent=1, sort_keys=True)
            out.write("\n")
        count += 1
    print("make_decode_references: %d references in %s" % (count, OUT))


if __name__ == "__main__":
    main()
