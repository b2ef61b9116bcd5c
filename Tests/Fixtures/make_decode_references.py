#!/usr/bin/env python3
"""Records what ffmpeg decodes each AAC ADTS, AC-3, E-AC-3, Ogg, FLAC, PCM container, CAF, MP4 and HE-AAC fixture to, as references for the
decoders: Tests/Fixtures/expected/decode/NAME.json holds the MD5 and frame count of
`ffmpeg -i F -f s16le -acodec pcm_s16le -` and of its f32le counterpart, with the rate and channels ffprobe
gives, and for FLAC the MD5 its encoder stored in STREAMINFO (of the samples at their own bit depth).

ffmpeg trims as our decoders do (Opus pre-skip and Vorbis/Opus end trimming from granule positions; ADTS and
AC-3 have no gapless information, so their whole stream is the reference). A chained Ogg stream's reference is
the concatenation of ffmpeg's decode of each link on its own, since ffmpeg decodes a chain as one stream (its
later links untrimmed, or resampled to the first link's rate). A fixture only a file can give (an MP4 whose moov
follows its mdat, a CAF whose pakt follows its data, read index first) has its reference in
expected/decode/files/.

Left out, each for its reason (the tests name them too):
- damaged streams (junk between frames, bad page CRCs, lying STREAMINFO): ffmpeg resyncs or refuses by rules of
  its own; our parser's handling of them is tested against its packet lists;
- an ADTS frame of several raw data blocks: our parser leaves such frames out by design;
- a stream without a beginning-of-stream page: it holds no audio either can find;
- splices and mid-stream rate changes of one codec stream: ffmpeg does not follow a codec or rate change.

Containers that state gapless information ffmpeg does not apply whole: an MP4's edit list, whose start ffmpeg
trims but whose end it leaves (its reference is ffmpeg's PCM cut to the edit's length, ffprobe's duration_ts, at
the output rate: twice the media's time scale for HE-AAC, whose media counts core frames), and
a CAF packet table, which ffmpeg ignores (its reference is ffmpeg's PCM from the table's priming frames on, as
many as its valid frames, read from the pakt chunk here).

PCM containers' samples are also checked without a container: pcm-raw/NAME.raw holds samples of one layout (random
bytes for integers and G.711, values around and beyond [-1, 1] for floats) and expected/decode/pcm/NAME.json
ffmpeg's s16le and f32le of them, read as that raw format.

ALAC, until a reader of its containers lands: alac/alac-44k-stereo.caf is ffmpeg's ALAC encoding of a sine in
CAF, and expected/decode/alac/alac-44k-stereo.json ffmpeg's decode of it with the file's magic cookie (ffmpeg
writes it as a `frma` atom and the `alac` atom around the ALACSpecificConfig) and its packets, as CAF's packet
table sizes them from the data chunk's start.

Resampling: each reference also holds `resampled`, ffmpeg's libswresample (its defaults, as `-ar RATE -ac CHANNELS`
uses it) converting the PCM above to another rate and channel count (48 kHz, or 44.1 kHz for a 48 kHz stream; mono,
or stereo for a mono one), in s16 and f32. Its input is ffmpeg's decode as 16-bit integers when the codec's own
samples are integers of 16 bits or fewer (ffmpeg then resamples them as integers), else as floats, given as raw
samples of the default channel layout for their count. That is `ffmpeg -i F -ar RATE -ac CHANNELS` itself where
ffmpeg trims as the reference above, except for 64-bit float sources (which ffmpeg resamples in double precision)
and channel layouts other than the count's default (which ffmpeg remixes by their own positions). A chain's links
of one format are resampled as one stream, a change of format starts a new one.

Run from the repository root; needs ffmpeg and ffprobe. Rewrites expected/decode/, pcm-raw/ and alac/ only.
"""
import glob
import hashlib
import json
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile

FIX = "Tests/Fixtures"
OUT = os.path.join(FIX, "expected", "decode")

LEFT_OUT = {
    "adts-junk-between.aac", "adts-lc-44k-mono-multi-rdb.aac", "adts-splice-adts-mp3.aac",
    "adts-splice-mp3-adts.aac", "ogg-opus-bad-crc.opus", "ogg-opus-junk-between.opus", "flac-junk-between.flac",
    "flac-lying-streaminfo.flac", "flac-rate-change.flac", "ogg-opus-no-bos.opus",
    # ffprobe refuses a streamed AIFF.
    "aiff-streamed.aiff",
}
# A moov after the mdat or a pakt after the audio cannot be read as a stream, only as a file, index first:
# references in files/.
READ_AS_FILES = {"aac-lc-moov-at-end.m4a", "caf-alac-pakt-at-end.caf"}


def fixtures():
    patterns = ["adts-*.aac", "ac3-*.ac3", "eac3-*.eac3", "ogg/*.opus", "ogg/*.ogg", "ogg/*.oga", "flac-*.flac",
                "flac-conformance/*.flac", "pcm/*.wav", "pcm/*.aiff", "pcm/*.aifc", "caf/*.caf", "mp4/*.m4a",
                "mp4/*.mp4", "mp4/*.mov", "heaac/*.m4a", "ima4/*.aifc"]
    for pattern in patterns:
        for path in sorted(glob.glob(os.path.join(FIX, pattern))):
            if os.path.basename(path) not in LEFT_OUT | READ_AS_FILES:
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


def decoded(path):
    """ffmpeg's PCM of the file, link by link for an Ogg chain: a list of Segment."""
    data = open(path, "rb").read()
    links = ogg_links(data) if data[:4] == b"OggS" else []
    if len(links) < 2:
        return [decoded_link(path)]
    work = tempfile.mkdtemp()
    try:
        segments = []
        for number, (start, end) in enumerate(links):
            link = os.path.join(work, "link%d%s" % (number, os.path.splitext(path)[1]))
            open(link, "wb").write(data[start:end])
            segments.append(decoded_link(link))
        return segments
    finally:
        shutil.rmtree(work)


class Segment:
    """PCM of one format: its rate, channels, whether the codec gave integers of 16 bits or fewer, and ffmpeg's
    s16 and f32 of it."""

    def __init__(self, rate, channels, short, s16, f32):
        self.rate, self.channels, self.short, self.s16, self.f32 = rate, channels, short, s16, f32

    @property
    def frames(self):
        return len(self.s16) // (2 * self.channels)


def decoded_link(path):
    rate, channels = ffprobe_stream(path)
    sample_format = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "a:0", "-show_entries",
                                    "stream=sample_fmt", "-of", "csv=p=0", path], check=True, capture_output=True,
                                   text=True).stdout.strip()
    s16, f32 = ffmpeg_pcm(path, "s16"), ffmpeg_pcm(path, "f32")
    start, count = gapless_frames(path)
    if count is not None:
        s16 = s16[start * 2 * channels:(start + count) * 2 * channels]
        f32 = f32[start * 4 * channels:(start + count) * 4 * channels]
    return Segment(rate, channels, sample_format in ("u8", "u8p", "s16", "s16p"), s16, f32)


def resample_target(rate, channels):
    """The rate and channel count a fixture's PCM is resampled to: always a change of both."""
    return (44100 if rate == 48000 else 48000), (2 if channels == 1 else 1)


def resampled(segments, rate, channels):
    """libswresample's conversion of the segments to `rate` and `channels`, in s16 and f32, run by ffmpeg on raw
    samples; consecutive segments of one format are one stream to it."""
    runs = []
    for segment in segments:
        key = (segment.rate, segment.channels, segment.short)
        if runs and runs[-1][0] == key:
            runs[-1][1].append(segment)
        else:
            runs.append((key, [segment]))
    output = {"s16": b"", "f32": b""}
    for (source_rate, source_channels, short), run in runs:
        raw_format = "s16" if short else "f32"
        raw = b"".join(getattr(segment, raw_format) for segment in run)
        for sample_format in output:
            output[sample_format] += subprocess.run(
                ["ffmpeg", "-v", "error", "-f", raw_format + "le", "-ar", str(source_rate), "-ac",
                 str(source_channels), "-i", "-", "-ar", str(rate), "-ac", str(channels), "-f", sample_format + "le",
                 "-acodec", "pcm_" + sample_format + "le", "-"], input=raw, check=True, capture_output=True).stdout
    return {"sampleRate": rate, "channels": channels, "frames": len(output["s16"]) // (2 * channels),
            "s16Md5": hashlib.md5(output["s16"]).hexdigest(), "f32Md5": hashlib.md5(output["f32"]).hexdigest()}


def gapless_frames(path):
    """Where the encoded audio lies in ffmpeg's PCM, as (first frame, frame count) when ffmpeg does not trim it
    itself: an MP4 edit's length (ffmpeg trims its start), a CAF packet table's priming and valid frames (ffmpeg
    applies neither). (0, None) for anything else."""
    # A fragmented file's duration_ts counts its fragments, not an edit: neither decoder trims one.
    if path.endswith((".m4a", ".mp4", ".mov")) and b"moof" not in open(path, "rb").read():
        stream = json.loads(subprocess.run(["ffprobe", "-v", "error", "-select_streams", "a:0", "-show_entries",
                                            "stream=duration_ts,time_base,sample_rate", "-of", "json", path],
                                           check=True, capture_output=True).stdout)["streams"][0]
        if "duration_ts" not in stream:
            return 0, None
        # The edit counts the media's time scale; HE-AAC's is the core rate, half the rate ffmpeg outputs.
        scale, rate = int(stream["time_base"].split("/")[1]), int(stream["sample_rate"])
        return 0, int(stream["duration_ts"]) * rate // scale
    if path.endswith(".caf"):
        table = caf_chunks(open(path, "rb").read()).get("pakt")
        if table:
            valid, priming = struct.unpack(">qi", table[1][8:20])
            return priming, valid
    return 0, None


def streaminfo_md5(path):
    """The MD5 of the unencoded samples FLAC's encoder stored in STREAMINFO (native or in Ogg), or None when it
    stored none (all zeros: ffmpeg's Ogg FLAC encoder cannot go back to write it) or the file was cut after."""
    data = open(path, "rb").read()
    marker = data.find(b"fLaC")
    if marker < 0 or os.path.basename(path) == "flac-cut-end.flac":
        return None
    body = marker + 8  # the STREAMINFO block's 4-byte header follows the marker
    bits = ((data[body + 12] & 0x01) << 4 | data[body + 13] >> 4) + 1
    digest = data[body + 18:body + 34]
    return (digest.hex(), bits) if any(digest) else None


# The raw sample layouts of PCM containers: ffmpeg's name for it, and the ASBD fields a reader gives.
PCM_LAYOUTS = [
    # name, format ID, bits, bytes per sample, float, big-endian, signed
    ("u8", "lpcm", 8, 1, False, False, False),
    ("s8", "lpcm", 8, 1, False, False, True),
    ("s16le", "lpcm", 16, 2, False, False, True),
    ("s16be", "lpcm", 16, 2, False, True, True),
    ("s24le", "lpcm", 24, 3, False, False, True),
    ("s24be", "lpcm", 24, 3, False, True, True),
    ("s32le", "lpcm", 32, 4, False, False, True),
    ("s32be", "lpcm", 32, 4, False, True, True),
    ("f32le", "lpcm", 32, 4, True, False, True),
    ("f32be", "lpcm", 32, 4, True, True, True),
    ("f64le", "lpcm", 64, 8, True, False, True),
    ("f64be", "lpcm", 64, 8, True, True, True),
    ("mulaw", "ulaw", 8, 1, False, False, False),
    ("alaw", "alaw", 8, 1, False, False, False),
]
PCM_CHANNELS, PCM_RATE, PCM_FRAMES = 2, 8000, 1000


def pcm_samples(name, size, is_float, big_endian):
    """Random integer bytes; for floats, a sweep of values from -1.25 to 1.25 with random fractions."""
    generator = random.Random(name)
    count = PCM_CHANNELS * PCM_FRAMES
    if not is_float:
        return bytes(generator.randrange(256) for _ in range(count * size))
    values = [-1.25 + 2.5 * index / count + generator.uniform(-1e-4, 1e-4) for index in range(count)]
    return struct.pack((">" if big_endian else "<") + ("f" if size == 4 else "d") * count, *values)


def pcm_references():
    pcm_folder, out = os.path.join(FIX, "pcm-raw"), os.path.join(OUT, "pcm")
    shutil.rmtree(pcm_folder, ignore_errors=True)
    os.makedirs(pcm_folder)
    os.makedirs(out)
    for name, format_id, bits, size, is_float, big_endian, signed in PCM_LAYOUTS:
        raw = os.path.join(pcm_folder, name + ".raw")
        open(raw, "wb").write(pcm_samples(name, size, is_float, big_endian))
        digests = {}
        for sample_format in ("s16", "f32"):
            pcm = subprocess.run(["ffmpeg", "-v", "error", "-f", name, "-ar", str(PCM_RATE), "-ac", str(PCM_CHANNELS),
                                  "-i", raw, "-f", sample_format + "le", "-acodec", "pcm_" + sample_format + "le",
                                  "-"], check=True, capture_output=True).stdout
            digests[sample_format + "Md5"] = hashlib.md5(pcm).hexdigest()
        expected = dict(digests, file="pcm-raw/" + name + ".raw", formatID=format_id, bitsPerChannel=bits,
                        bytesPerSample=size, isFloat=is_float, isBigEndian=big_endian, isSigned=signed,
                        channels=PCM_CHANNELS, sampleRate=PCM_RATE, frames=PCM_FRAMES)
        with open(os.path.join(out, name + ".json"), "w") as file:
            json.dump(expected, file, indent=1, sort_keys=True)
            file.write("\n")
    return len(PCM_LAYOUTS)


def caf_chunks(data):
    chunks, position = {}, 8
    while position + 12 <= len(data):
        kind, size = data[position:position + 4].decode("latin-1"), struct.unpack(">q", data[position + 4:position + 12])[0]
        if size < 0:
            size = len(data) - position - 12
        chunks[kind] = (position + 12, data[position + 12:position + 12 + size])
        position += 12 + size
    return chunks


def caf_packet_sizes(table):
    """The packet sizes of a CAF packet table: its count, then (after valid, priming and remainder frames) one
    variable-length integer per packet, seven bits a byte, high bit set on all but the last."""
    count, position, sizes = struct.unpack(">q", table[:8])[0], 24, []
    for _ in range(count):
        value = 0
        while True:
            byte = table[position]
            position += 1
            value = value << 7 | byte & 0x7F
            if byte < 0x80:
                break
        sizes.append(value)
    return sizes


def alac_reference():
    folder, out = os.path.join(FIX, "alac"), os.path.join(OUT, "alac")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    os.makedirs(out)
    caf = os.path.join(folder, "alac-44k-stereo.caf")
    subprocess.run(["ffmpeg", "-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=1.3", "-ac", "2",
                    "-c:a", "alac", "-f", "caf", "-fflags", "+bitexact", caf], check=True)
    chunks = caf_chunks(open(caf, "rb").read())
    segment = decoded_link(caf)
    expected = {
        "file": "alac/alac-44k-stereo.caf", "sampleRate": 44100, "channels": 2, "frames": segment.frames,
        "s16Md5": hashlib.md5(segment.s16).hexdigest(), "f32Md5": hashlib.md5(segment.f32).hexdigest(),
        "magicCookie": chunks["kuki"][1].hex(),
        # The data chunk starts with a 4-byte edit count.
        "packetsOffset": chunks["data"][0] + 4, "packetSizes": caf_packet_sizes(chunks["pakt"][1]),
    }
    with open(os.path.join(out, "alac-44k-stereo.json"), "w") as file:
        json.dump(expected, file, indent=1, sort_keys=True)
        file.write("\n")
    return 1


def main():
    if not os.path.isdir(FIX):
        sys.exit("make_decode_references: run me from the repository root")
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    os.makedirs(os.path.join(OUT, "files"))
    for path in fixtures():
        record(path, OUT)
    for name in sorted(READ_AS_FILES):
        record(next(glob.iglob(os.path.join(FIX, "**", name), recursive=True)), os.path.join(OUT, "files"))
    count = len(list(fixtures())) + len(READ_AS_FILES) + pcm_references() + alac_reference()
    print("make_decode_references: %d references in %s" % (count, OUT))


def record(path, folder):
    """Writes folder/NAME.json: ffmpeg's PCM of the fixture at `path`, and what it is resampled to."""
    rate, channels = ffprobe_stream(path)
    segments = decoded(path)
    expected = {
        "file": os.path.relpath(path, FIX),
        "sampleRate": rate,
        "channels": channels,
        "frames": sum(segment.frames for segment in segments),
        "s16Md5": hashlib.md5(b"".join(segment.s16 for segment in segments)).hexdigest(),
        "f32Md5": hashlib.md5(b"".join(segment.f32 for segment in segments)).hexdigest(),
        "resampled": resampled(segments, *resample_target(rate, channels)),
    }
    flac = streaminfo_md5(path) if path.endswith((".flac", ".oga")) else None
    if flac:
        expected["streamInfoMd5"], expected["bitsPerSample"] = flac
    name = os.path.splitext(os.path.basename(path))[0]
    with open(os.path.join(folder, name + ".json"), "w") as out:
        json.dump(expected, out, indent=1, sort_keys=True)
        out.write("\n")


if __name__ == "__main__":
    main()
