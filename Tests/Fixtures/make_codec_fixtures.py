#!/usr/bin/env python3
"""Makes the AAC ADTS, AC-3 and E-AC-3 fixtures and records their expected values.

    python3 Tests/Fixtures/make_codec_fixtures.py      (from anywhere; paths are found from this file)

make-fixtures.sh calls it after the MPEG fixtures (it reads the committed Tests/Fixtures/l3-noxing.mp3 for the
ADTS/MP3 splices) and before make_icy_fixtures.py (which interleaves adts-lc-44k-stereo.aac with ICY metadata).
Needs sox, ffmpeg/ffprobe 5.1 (Debian) and Python 3 with mutagen; faad (Debian `faad`) is used for one extra
check when it is installed. Installs nothing. Output is byte-identical from run to run: the source signal is
make-fixtures.sh's (`sox -R`), every encoder option is spelled out, ffmpeg runs with
`-fflags +bitexact -flags:a +bitexact -map_metadata -1`, junk comes from seeded generators.

Writes Tests/Fixtures/{adts,ac3,eac3}-*.{aac,ac3,eac3} and, per fixture, expected/NAME.packets.csv
(`offset,size,frames`), expected/NAME.json, and expected/NAME.ffprobe.csv where ffprobe's frames differ from
the truth; expected/adts-lc-44k-stereo.cuts.json for the cut-stream cases. See README.md ("AAC ADTS" and
"AC-3 and E-AC-3") for what every field means and how each value was obtained.

The truth comes from ffprobe (clean files) or from composition of ffprobe's lists of clean parts, never from
our parser. A small walk of the frames written from the specs (ADTS aac_frame_length, ISO/IEC 14496-3 1.A.2 /
13818-7 6.2; AC-3 frmsizecod table and E-AC-3 frmsiz, ATSC A/52) cross-checks every clean file; the script
stops if the two disagree.
"""

import hashlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
EXP = os.path.join(HERE, "expected")
sys.path.insert(0, HERE)
from mpeg_spec import parse_header as mpeg_header, walk as mpeg_walk  # noqa: E402

FFMPEG = ["ffmpeg", "-v", "error", "-nostdin", "-y"]
BITEXACT = ["-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1"]
DECODE_COMMAND = "ffmpeg -v error -nostdin -i FILE -map 0:a:0 -f s16le -"
PREFIXES = ("adts-", "ac3-", "eac3-")
EXTENSIONS = (".aac", ".ac3", ".eac3")

# ---------------------------------------------------------------- tools


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw).stdout


def ffprobe_packets(path, fmt=None):
    """(pos, size, duration, time_base) of every packet ffprobe lists, or None when ffprobe fails. Same rows as
    `ffprobe -v error -select_streams a:0 -show_packets -show_entries packet=pos,size,duration FILE`."""
    cmd = ["ffprobe", "-v", "error"] + (["-f", fmt] if fmt else []) + [
        "-select_streams", "a:0", "-show_packets", "-show_entries", "packet=pos,size,duration",
        "-show_entries", "stream=time_base", "-of", "json", path]
    res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if res.returncode != 0:
        return None
    out = json.loads(res.stdout)
    tb = out["streams"][0]["time_base"] if out.get("streams") else "1/1"
    num, den = (int(x) for x in tb.split("/"))
    return [(int(p["pos"]), int(p["size"]), int(p["duration"]) if p.get("duration") not in (None, "N/A") else None,
             (num, den)) for p in out.get("packets", [])]


def ffprobe_stream(path, fmt=None):
    cmd = ["ffprobe", "-v", "error"] + (["-f", fmt] if fmt else []) + [
        "-select_streams", "a:0", "-show_streams", "-show_format", "-of", "json", path]
    res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if res.returncode != 0:
        return None, None
    out = json.loads(res.stdout)
    streams = out.get("streams", [])
    return (streams[0] if streams else None), out.get("format")


def mp4_extradata(path, work):
    """The AudioSpecificConfig ffmpeg writes into an MP4 esds when it remuxes the ADTS stream
    (`ffmpeg -i FILE -c copy x.m4a`, then `ffprobe -show_streams -show_data` on x.m4a): hex."""
    m4a = os.path.join(work, "remux.m4a")
    run(FFMPEG + ["-i", path, "-map", "0:a:0", "-c", "copy"] + BITEXACT + [m4a])
    out = run(["ffprobe", "-v", "error", "-select_streams", "a:0", "-show_streams", "-show_data", m4a]).decode()
    lines = out.splitlines()
    i = lines.index("extradata=")
    hexdigits = ""
    for line in lines[i + 1:]:
        if not line.startswith("0000"):
            break
        hexdigits += "".join(line.split(":", 1)[1].split("  ")[0].split())
    os.remove(m4a)
    return hexdigits


def ffmpeg_decode(path):
    """(PCM bytes, stderr text) of `ffmpeg -v error -nostdin -i FILE -map 0:a:0 -f s16le -`."""
    res = subprocess.run(["ffmpeg", "-v", "error", "-nostdin", "-i", path, "-map", "0:a:0", "-f", "s16le", "-"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return res.stdout, res.stderr.decode(errors="replace")


def faad_decode(path):
    """faad's 16-bit PCM of an ADTS file (`faad -q -f 2 -w FILE`), or None when faad is not installed."""
    if shutil.which("faad") is None:
        return None
    return subprocess.run(["faad", "-q", "-f", "2", "-w", path], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE).stdout


def log_lines(text, count=3):
    """The first lines of an ffmpeg log without the context addresses ("[aac @ 0x55...]" -> "[aac]"), which
    change from run to run."""
    return [re.sub(r" @ 0x[0-9a-f]+\]", "]", line) for line in text.strip().splitlines()[:count]]


def md5(b):
    return hashlib.md5(b).hexdigest()


# ---------------------------------------------------------------- source signal
#
# make-fixtures.sh's source_wav, unchanged: a six-note sine chord (different notes left and right), an
# exponential sine sweep 300-6000 Hz and pink noise under a 1.7 Hz tremolo, mixed, normalised to -1 dBFS,
# 16-bit. `sox -R` seeds the noise and the dither. With more than two channels sox's synth repeats the two
# channel recipes (odd channels get the left notes, even ones the right).


def source_wav(work, rate, ch, dur, name):
    out = os.path.join(work, name)
    run(["sox", "-R", "-n", "-r", str(rate), "-c", str(ch), "-b", "16", out + ".chord.wav", "synth", str(dur),
         "sine", "220", "sine", "330", "synth", "sine", "mix", "277.2", "sine", "415.3", "synth", "sine", "mix",
         "554.4", "sine", "659.3", "gain", "-3"])
    run(["sox", "-R", "-n", "-r", str(rate), "-c", str(ch), "-b", "16", out + ".sweep.wav", "synth", str(dur),
         "sine", "300-6000", "gain", "-3"])
    run(["sox", "-R", "-n", "-r", str(rate), "-c", str(ch), "-b", "16", out + ".noise.wav", "synth", str(dur),
         "pinknoise", "tremolo", "1.7", "100", "gain", "-3"])
    run(["sox", "-R", "-m", "-v", "0.4", out + ".chord.wav", "-v", "0.2", out + ".sweep.wav", "-v", "0.4",
         out + ".noise.wav", "-b", "16", out + ".wav", "gain", "-n", "-1"])
    return out + ".wav"


def soxi_samples(path):
    return int(run(["soxi", "-s", path]))


# ---------------------------------------------------------------- ADTS, from the spec
#
# adts_fixed_header + adts_variable_header (ISO/IEC 13818-7 6.2, 14496-3 1.A.2.2), 56 bits:
# syncword 12 (0xFFF), ID 1 (0 = MPEG-4, 1 = MPEG-2), layer 2 (00), protection_absent 1, profile_ObjectType 2,
# sampling_frequency_index 4, private_bit 1, channel_configuration 3, original_copy 1, home 1,
# copyright_identification_bit 1, copyright_identification_start 1, aac_frame_length 13 (whole frame, header
# included), adts_buffer_fullness 11, number_of_raw_data_blocks_in_frame 2.
# Then, when protection_absent = 0: one raw_data_block_position (16) per block after the first, and a 16-bit
# crc_check. The header is 7 bytes, or 9 + 2 * number_of_raw_data_blocks_in_frame with CRC.

ADTS_RATES = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350]
ADTS_PROFILES = ["Main", "LC", "SSR", "LTP"]


class Adts:
    def __init__(self, b):
        self.raw = bytes(b[:7])
        self.mpeg2 = bool((b[1] >> 3) & 1)
        self.layer = (b[1] >> 1) & 3
        self.protected = not (b[1] & 1)
        self.profile = b[2] >> 6
        self.sfi = (b[2] >> 2) & 15
        self.channel_config = ((b[2] & 1) << 2) | (b[3] >> 6)
        self.length = ((b[3] & 3) << 11) | (b[4] << 3) | (b[5] >> 5)
        self.fullness = ((b[5] & 31) << 6) | (b[6] >> 2)
        self.blocks = (b[6] & 3) + 1
        self.header_size = 7 + (2 + 2 * (self.blocks - 1) if self.protected else 0)
        self.sample_rate = ADTS_RATES[self.sfi] if self.sfi < 13 else None
        self.channels = {0: None, 7: 8}.get(self.channel_config, self.channel_config)

    def fixed(self):
        """The adts_fixed_header fields, which stay the same from frame to frame."""
        return (self.mpeg2, self.protected, self.profile, self.sfi, self.channel_config)

    def audio_specific_config(self):
        """AudioSpecificConfig (14496-3 1.6.2.1) for this header: audioObjectType = profile_ObjectType + 1
        (5 bits), samplingFrequencyIndex (4), channelConfiguration (4), then GASpecificConfig:
        frameLengthFlag 0 (1024), dependsOnCoreCoder 0, extensionFlag 0. 16 bits."""
        v = ((self.profile + 1) << 11) | (self.sfi << 7) | (self.channel_config << 3)
        return v.to_bytes(2, "big").hex()


def adts_header(data, pos):
    """The ADTS header at data[pos], or None if those bytes cannot start a frame: sync, layer 00, a sampling
    index below 13 and a frame length that holds the header."""
    if pos + 7 > len(data) or data[pos] != 0xFF or (data[pos + 1] & 0xF6) != 0xF0:
        return None
    h = Adts(data[pos:pos + 7])
    if h.sfi >= 13 or h.length < h.header_size:
        return None
    return h


def adts_walk(data, start=0):
    """(frames as (offset, length, header), offset where the walk stopped) stepping by aac_frame_length while
    the headers stay valid and keep the first frame's fixed header."""
    frames, p, first = [], start, None
    while p < len(data):
        h = adts_header(data, p)
        if h is None or (first is not None and h.fixed() != first.fixed()) or p + h.length > len(data):
            break
        first = first or h
        frames.append((p, h.length, h))
        p += h.length
    return frames, p


# ---------------------------------------------------------------- CRC (ISO/IEC 11172-3 2.4.3.1)
#
# CRC-16, generator x^16 + x^15 + x^2 + 1 (0x8005), register preset to all ones, bits fed MSB first, no final
# inversion: the CRC of MPEG audio, which ADTS's crc_check reuses (13818-7 6.2.1 / 14496-3 1.A.3.2).


def crc16(bits):
    crc = 0xFFFF
    for bit in bits:
        top = (crc >> 15) & 1
        crc = (crc << 1) & 0xFFFF
        if top ^ bit:
            crc ^= 0x8005
    return crc


def bits(data, start, count):
    """count bits of data from bit start (MSB first), zeros past the end."""
    for i in range(start, start + count):
        yield (data[i >> 3] >> (7 - (i & 7))) & 1 if (i >> 3) < len(data) else 0


def check_crc16_on_mpeg(path):
    """Checks crc16 on a real CRC-protected stream written by another encoder (lame -p): the MPEG-1 Layer III CRC
    covers header bytes 2-3 and the side information (17 bytes mono, 32 otherwise), 11172-3 2.4.3.1."""
    data = open(path, "rb").read()
    frames, _ = mpeg_walk(data)
    checked = 0
    for p, _ in frames:
        h = mpeg_header(data, p)
        side = 17 if h.mode == "mono" else 32
        region = data[p + 2:p + 4] + data[p + 6:p + 6 + side]
        assert crc16(bits(region, 0, len(region) * 8)) == int.from_bytes(data[p + 4:p + 6], "big"), (path, p)
        checked += 1
    assert checked > 10
    return checked


def protect_single_sce(frame):
    """An unprotected single-block ADTS frame of a mono stream -> the same frame with protection_absent = 0 and
    its crc_check. What the CRC covers (the error-detection rules of 13818-7 as the Fraunhofer FDK reference
    decoder applies them, libAACdec channel.cpp / libMpegTPDec tpdec_adts.cpp / libFDK FDK_crc.cpp):
    all 56 header bits (syncword included), then the first 192 bits of each single_channel_element counted from
    its element_instance_tag (after the 3-bit id_syn_ele), zero-padded to 192 bits when the element is shorter.
    FIL elements and the END id are not covered. ffmpeg's encoder with bitexact writes a mono raw_data_block as
    SCE, END, zero bits to the byte boundary (its one FIL, the version string, is off with bitexact), so the
    block's last 1 bit closes the END id (111) and the SCE ends where that id starts. Returns the new frame and
    whether its SCE was shorter than 192 bits."""
    h = adts_header(frame, 0)
    assert h and not h.protected and h.blocks == 1 and h.channel_config == 1 and h.length == len(frame)
    raw = frame[7:]
    assert raw[0] >> 5 == 0, "first element is not an SCE"
    assert b"Lavc" not in raw
    total = len(raw) * 8
    last_one = max(i for i in range(total) if (raw[i >> 3] >> (7 - (i & 7))) & 1)
    end_id = last_one - 2
    assert list(bits(raw, end_id, 3)) == [1, 1, 1], "raw_data_block does not end in ID_END"
    sce_bits = end_id - 3
    assert sce_bits > 0
    length = len(frame) + 2
    head = bytearray(frame[:7])
    head[1] &= 0xFE  # protection_absent = 0
    head[3] = (head[3] & 0xFC) | (length >> 11)
    head[4] = (length >> 3) & 0xFF
    head[5] = ((length & 7) << 5) | (head[5] & 0x1F)
    region = list(bits(head, 0, 56)) + list(bits(raw, 3, min(192, sce_bits))) + [0] * max(0, 192 - sce_bits)
    crc = crc16(region)
    return bytes(head) + crc.to_bytes(2, "big") + raw, sce_bits < 192


def merge_blocks(data, frames, group_sizes):
    """Unprotected ADTS frames -> frames of several raw_data_blocks: the blocks of len(group) consecutive
    frames, byte-aligned as the encoder wrote them, behind the first frame's header with
    number_of_raw_data_blocks_in_frame = n - 1 and aac_frame_length = 7 + their bytes. Returns the bytes and
    each block's (offset, size) in the new file."""
    out, blocks, i, k = bytearray(), [], 0, 0
    while i < len(frames):
        n = min(group_sizes[k % len(group_sizes)], len(frames) - i)
        k += 1
        group = frames[i:i + n]
        head = bytearray(data[group[0][0]:group[0][0] + 7])
        assert all(not h.protected and h.blocks == 1 for _, _, h in group)
        body = bytearray()
        for p, length, _ in group:
            blocks.append((len(out) + 7 + len(body), length - 7))
            body += data[p + 7:p + length]
        length = 7 + len(body)
        assert length < 8192
        head[3] = (head[3] & 0xFC) | (length >> 11)
        head[4] = (length >> 3) & 0xFF
        head[5] = ((length & 7) << 5) | (head[5] & 0x1F)
        head[6] = (head[6] & 0xFC) | (n - 1)
        out += head + body
        i += n
    return bytes(out), blocks


# ---------------------------------------------------------------- AC-3 / E-AC-3, from ATSC A/52
#
# syncinfo: syncword 0x0B77, crc1 16, fscod 2, frmsizecod 6. bsi: bsid 5, bsmod 3, acmod 3, [cmixlev 2 if acmod
# has a centre (odd and not 1)], [surmixlev 2 if acmod has surrounds (acmod & 4)], [dsurmod 2 if acmod == 2],
# lfeon 1. Frame size: Table 5.18, in 16-bit words, by frmsizecod and fscod.
# E-AC-3 (bsid 11..16, A/52 Annex E): syncword, strmtyp 2, substreamid 3, frmsiz 11 (words - 1), fscod 2,
# fscod2 2 if fscod == 3 (then 6 blocks) else numblkscod 2 (1, 2, 3, 6 blocks), acmod 3, lfeon 1, bsid 5.

AC3_RATES = [48000, 44100, 32000]
AC3_KBPS = [32, 32, 40, 40, 48, 48, 56, 56, 64, 64, 80, 80, 96, 96, 112, 112, 128, 128, 160, 160, 192, 192, 224,
            224, 256, 256, 320, 320, 384, 384, 448, 448, 512, 512, 576, 576, 640, 640]
AC3_WORDS_44K = [69, 70, 87, 88, 104, 105, 121, 122, 139, 140, 174, 175, 208, 209, 243, 244, 278, 279, 348, 349,
                 417, 418, 487, 488, 557, 558, 696, 697, 835, 836, 975, 976, 1114, 1115, 1253, 1254, 1393, 1394]
ACMOD_CHANNELS = [2, 1, 2, 3, 3, 4, 4, 5]
ACMOD_NAMES = ["1+1", "1/0", "2/0", "3/0", "2/1", "3/1", "2/2", "3/2"]
# Table 5.18 at 48 and 32 kHz is 2 and 3 words per kbit/s; at 44.1 kHz it is the list above, which is
# floor(kbps * 1000 * 1536 / 44100 / 16) plus one word for odd frmsizecod.
assert all(AC3_WORDS_44K[i] == AC3_KBPS[i] * 1000 * 1536 // 44100 // 16 + (i & 1) for i in range(38))


class Ac3:
    def __init__(self, b):
        self.bsid = b[5] >> 3
        if self.bsid <= 10:
            self.eac3 = False
            self.fscod = b[4] >> 6
            self.frmsizecod = b[4] & 63
            if self.fscod == 3 or self.frmsizecod >= 38:
                raise ValueError
            self.sample_rate = AC3_RATES[self.fscod]
            kbps = AC3_KBPS[self.frmsizecod]
            words = {0: 2 * kbps, 1: AC3_WORDS_44K[self.frmsizecod], 2: 3 * kbps}[self.fscod]
            self.length = 2 * words
            self.blocks = 6
            self.nominal_bit_rate = kbps * 1000
            self.acmod = b[6] >> 5
            bit = 8 * 6 + 3  # bit index past acmod (byte 6: acmod in its top 3 bits)
            bit += 2 if (self.acmod & 1) and self.acmod != 1 else 0
            bit += 2 if self.acmod & 4 else 0
            bit += 2 if self.acmod == 2 else 0
            self.lfeon = (b[bit >> 3] >> (7 - (bit & 7))) & 1
            self.strmtyp = None
        elif 11 <= self.bsid <= 16:
            self.eac3 = True
            self.strmtyp = b[2] >> 6
            self.frmsiz = ((b[2] & 7) << 8) | b[3]
            self.length = 2 * (self.frmsiz + 1)
            self.fscod = b[4] >> 6
            if self.fscod == 3:
                fscod2 = (b[4] >> 4) & 3
                if fscod2 == 3:
                    raise ValueError
                self.sample_rate = [24000, 22050, 16000][fscod2]
                self.blocks = 6
            else:
                self.sample_rate = AC3_RATES[self.fscod]
                self.blocks = [1, 2, 3, 6][(b[4] >> 4) & 3]
            self.acmod = (b[4] >> 1) & 7
            self.lfeon = b[4] & 1
            self.nominal_bit_rate = None
        else:
            raise ValueError
        self.channels = ACMOD_CHANNELS[self.acmod] + self.lfeon
        self.frames = 256 * self.blocks


def ac3_header(data, pos):
    if pos + 8 > len(data) or data[pos] != 0x0B or data[pos + 1] != 0x77:
        return None
    try:
        h = Ac3(data[pos:pos + 8])
    except ValueError:
        return None
    return h if h.length >= 8 else None


def ac3_walk(data, start=0):
    frames, p = [], start
    while p < len(data):
        h = ac3_header(data, p)
        if h is None or p + h.length > len(data):
            break
        frames.append((p, h.length, h))
        p += h.length
    return frames, p


# ---------------------------------------------------------------- false chains in junk or cut bytes


def false_chains(data, lo, hi, real):
    """Offsets in [lo, hi) that are not real frame starts but hold a valid ADTS, MPEG audio or AC-3 header
    whose successor, at the length the header claims, is a valid header of the same kind or the end of the
    file: places where a resyncing parser could be fooled. Free-format MPEG headers count as such too."""
    bad = []
    for p in range(lo, hi):
        if p in real:
            continue
        for parse in (adts_header, ac3_header, mpeg_header):
            h = parse(data, p)
            if h is None:
                continue
            length = h.length
            if length is None:  # MPEG free format
                bad.append(p)
                break
            q = p + length
            if q >= len(data) or parse(data, q) is not None:
                bad.append(p)
                break
    return bad


MAGIC = (b"ID3", b"TAG", b"APETAGEX", b"Xing", b"Info", b"VBRI", b"LAME")


def junk(seed, size, headers):
    """size seeded random bytes with a fake sync word every ~60 bytes: a copy of a real ADTS or MPEG header,
    or one of the ADTS (FFF1, FFF9, FFF0, FFF8), MPEG (FFFB, FFFA, FFF3, FFE3) or AC-3 (0B77) sync words."""
    rng = random.Random(seed)
    b = bytearray(rng.randbytes(size))
    for p in range(rng.randrange(5, 40), size - 8, 60):
        kind = rng.randrange(4)
        if kind == 0:
            h = headers[rng.randrange(len(headers))]
            b[p:p + len(h)] = h
        else:
            b[p:p + 2] = rng.choice([b"\xff\xf1", b"\xff\xf9", b"\xff\xf0", b"\xff\xf8", b"\xff\xfb", b"\xff\xfa",
                                     b"\xff\xf3", b"\xff\xe3", b"\x0b\x77"])
    return b


# ---------------------------------------------------------------- streams and composition


class Stream:
    """A clean stream and its frames: (frame offset, frame length, packet offset, packet size, PCM frames)."""

    def __init__(self, path, kind):
        self.path, self.kind = path, kind
        self.data = open(path, "rb").read()
        self.probe = ffprobe_packets(path)
        if kind == "adts":
            walked, stop = adts_walk(self.data)
            self.frames = [(p, n, p + h.header_size, n - h.header_size, 1024 * h.blocks) for p, n, h in walked]
        elif kind == "mp3":
            walked, stop = mpeg_walk(self.data)
            self.frames = [(p, n, p, n, mpeg_header(self.data, p).samples) for p, n in walked]
        else:
            walked, stop = ac3_walk(self.data)
            self.frames = [(p, n, p, n, h.frames) for p, n, h in walked]
        assert stop == len(self.data), f"{path}: spec walk stopped at {stop} of {len(self.data)}"
        assert self.probe is not None, f"{path}: ffprobe failed"
        probed = [(p, s) for p, s, _, _ in self.probe]
        assert probed == [(f[0], f[1]) for f in self.frames], f"{path}: ffprobe and the spec walk disagree"
        rate = {"adts": lambda p: adts_header(self.data, p).sample_rate,
                "mp3": lambda p: mpeg_header(self.data, p).sample_rate,
                "ac3": lambda p: ac3_header(self.data, p).sample_rate}[kind]
        for (p, s, dur, (num, den)), f in zip(self.probe, self.frames):
            # ffprobe's duration, in its time base, against the spec's frame count: exact for ADTS
            # (1/28224000), rounded for AC-3 (1/90000); ADTS frames of several blocks are checked apart.
            if kind == "adts" and f[4] != 1024:
                continue
            assert dur is not None and abs(dur * num * rate(p) / den - f[4]) < 1, (path, p, dur, f[4])


def compose(pieces):
    """pieces: ("part", Stream, start, end) takes bytes [start, end) of a clean stream; ("bytes", b) inserts
    bytes. Truth: every frame of a part that lies wholly inside the bytes taken, shifted to where they went."""
    data, frames, regions = bytearray(), [], []
    for piece in pieces:
        at = len(data)
        if piece[0] == "bytes":
            data += piece[1]
            regions.append(("bytes", at, len(data), None))
            continue
        _, part, start, end = piece
        data += part.data[start:end]
        regions.append(("part", at, len(data), part))
        frames += [(f[0] - start + at, f[1], f[2] - start + at, f[3], f[4], part.kind) for f in part.frames
                   if f[0] >= start and f[0] + f[1] <= end]
    return bytes(data), frames, regions


def sanitize(pieces):
    """Break every false chain and tag magic that starts in an inserted piece: zero its first byte if that is
    0xFF or 0x0B (a sync byte), else flip bit 5, until none is left."""
    while True:
        data, frames, regions = compose(pieces)
        real = {f[0] for f in frames}
        fixes = []
        for (kind, lo, hi, _), piece in zip(regions, pieces):
            if kind != "bytes":
                continue
            fixes += [(piece, p - lo) for p in false_chains(data, lo, hi, real)]
            for magic in MAGIC:
                i = piece[1].find(magic)
                if i >= 0:
                    fixes.append((piece, i))
        if not fixes:
            return
        for piece, i in fixes:
            piece[1][i] = 0x00 if piece[1][i] in (0xFF, 0x0B) else piece[1][i] ^ 0x20


# ---------------------------------------------------------------- expected files


def write_packets(name, frames):
    with open(os.path.join(EXP, name + ".packets.csv"), "w") as f:
        f.write("offset,size,frames\n")
        for fr in frames:
            f.write(f"{fr[2]},{fr[3]},{fr[4]}\n")


def write_json(path, obj):
    with open(path, "w") as f:
        json.dump(obj, f, indent=2, ensure_ascii=False)
        f.write("\n")


def probe_differs(name, path, frames):
    """Writes NAME.ffprobe.csv (`pos,size,duration`, ffprobe's own rows: whole frames, duration in the stream
    time base) when ffprobe's frames are not the truth's frames; returns a short summary or None."""
    probe = ffprobe_packets(path)
    truth = [(f[0], f[1]) for f in frames]
    got = [(p, s) for p, s, _, _ in probe] if probe is not None else None
    if got == truth:
        return None
    with open(os.path.join(EXP, name + ".ffprobe.csv"), "w") as f:
        f.write("pos,size,duration\n")
        for p, s, d, _ in probe or []:
            f.write(f"{p},{s},{'' if d is None else d}\n")
    if got is None:
        return "ffprobe fails"
    extra, missing = sorted(set(got) - set(truth)), sorted(set(truth) - set(got))
    return f"ffprobe lists {len(got)} frames, truth {len(truth)}: extra {extra[:4]}, missing {missing[:4]}"


def decode_facts(path, parts=None):
    pcm, err = ffmpeg_decode(path)
    facts = {"ffmpegS16Md5": md5(pcm), "ffmpegS16Bytes": len(pcm),
             "ffmpegErrors": log_lines(err.replace(path, os.path.basename(path)))}
    if parts:
        facts["partsS16Md5"] = md5(b"".join(ffmpeg_decode(p.path)[0] for p in parts))
    return facts


def adts_json(name, path, data, frames, work, how, probe_note):
    stream, fmt = ffprobe_stream(path)
    adts = [f for f in frames if f[5] == "adts"]
    first = adts_header(data, adts[0][0])
    changes, prev = [], None
    for i, f in enumerate(frames):
        now = (f[5],) + ((adts_header(data, f[0]).fixed(),) if f[5] == "adts" else (
            mpeg_header(data, f[0]).sample_rate, mpeg_header(data, f[0]).channels))
        if prev is not None and now != prev:
            changes.append({"packetIndex": i, "offset": f[2], "kind": f[5]})
        prev = now
    blocks = sorted({adts_header(data, f[0]).blocks for f in adts})
    obj = {
        "codec": "aac",
        "fileFormat": "adts",
        "formatID": "aac ",
        "objectType": first.profile + 1,
        "profile": ADTS_PROFILES[first.profile],
        "ffprobeProfile": stream.get("profile") if stream else None,
        "mpegVersion": 2 if first.mpeg2 else 4,
        "sampleRate": first.sample_rate,
        "samplingFrequencyIndex": first.sfi,
        "channels": first.channels,
        "channelConfiguration": first.channel_config,
        "channelLayout": stream.get("channel_layout") if stream else None,
        "bitRate": int(stream["bit_rate"]) if stream and stream.get("bit_rate") not in (None, "N/A") else None,
        "crc": first.protected,
        "headerSize": first.header_size,
        "rawDataBlocksPerFrame": blocks,
        "framesPerPacket": 1024,
        "packetCount": len(frames),
        "totalFrames": sum(f[4] for f in frames),
        "firstFrameOffset": frames[0][0],
        "firstPacketOffset": frames[0][2],
        "maximumPacketSize": max(f[3] for f in frames),
        "audioSpecificConfig": first.audio_specific_config(),
        "formatChanges": changes,
    }
    if how.get("mp4"):
        obj["mp4Extradata"] = mp4_extradata(path, work)
        assert obj["mp4Extradata"] == obj["audioSpecificConfig"], (name, obj["mp4Extradata"])
    obj.update(how.get("extra", {}))
    obj.update(decode_facts(path, how.get("parts")))
    obj["ffprobeDiffers"] = probe_note
    obj["madeWith"] = how["madeWith"]
    write_json(os.path.join(EXP, name + ".json"), obj)
    return obj


def ac3_json(name, path, data, frames, how):
    stream, _ = ffprobe_stream(path)
    first = ac3_header(data, frames[0][0])
    sizes = sorted({f[1] for f in frames})
    obj = {
        "codec": "eac3" if first.eac3 else "ac3",
        "formatID": "ec-3" if first.eac3 else "ac-3",
        "bsid": first.bsid,
        "streamType": first.strmtyp,
        "acmod": first.acmod,
        "audioCodingMode": ACMOD_NAMES[first.acmod],
        "lfeon": first.lfeon,
        "fscod": first.fscod,
        "frmsizecod": None if first.eac3 else first.frmsizecod,
        "sampleRate": first.sample_rate,
        "channels": first.channels,
        "channelLayout": stream.get("channel_layout"),
        "bitRate": int(stream["bit_rate"]) if stream.get("bit_rate") not in (None, "N/A") else None,
        "nominalBitRate": first.nominal_bit_rate if not first.eac3 else
        first.length * 8 * first.sample_rate // first.frames,
        "blocksPerFrame": first.blocks,
        "framesPerPacket": first.frames,
        "frameSizes": sizes,
        "packetCount": len(frames),
        "totalFrames": sum(f[4] for f in frames),
        "firstPacketOffset": frames[0][2],
        "maximumPacketSize": max(f[3] for f in frames),
    }
    assert int(stream["channels"]) == obj["channels"] and int(stream["sample_rate"]) == obj["sampleRate"], name
    obj.update(decode_facts(path))
    obj["madeWith"] = how
    write_json(os.path.join(EXP, name + ".json"), obj)
    return obj


# ---------------------------------------------------------------- the fixtures

# (name, rate, channels, seconds, bit rate, extra muxer flags)
ADTS_CLEAN = [
    ("adts-lc-7350-mono", 7350, 1, 1.0, "12k", []),
    ("adts-lc-8k-mono", 8000, 1, 2.0, "16k", []),
    ("adts-lc-22k-stereo", 22050, 2, 2.0, "48k", []),
    ("adts-lc-44k-mono", 44100, 1, 2.0, "64k", []),
    ("adts-lc-44k-stereo", 44100, 2, 2.0, "128k", []),
    ("adts-lc-48k-stereo", 48000, 2, 2.0, "96k", []),
    ("adts-lc-96k-stereo", 96000, 2, 1.0, "192k", []),
    ("adts-lc-48k-5.1", 48000, 6, 1.0, "320k", []),
    ("adts-lc-mpeg2-32k-stereo", 32000, 2, 2.0, "64k", ["-write_mpeg2", "1"]),
]
AAC_FLAGS = ["-c:a", "aac", "-profile:a", "aac_low", "-aac_coder", "twoloop"]

# (name, codec, rate, channels, seconds, bit rate, muxer)
AC3_CLEAN = [
    ("ac3-48k-stereo-192k", "ac3", 48000, 2, 1.0, "192k", "ac3"),
    ("ac3-44k-stereo-128k", "ac3", 44100, 2, 1.0, "128k", "ac3"),
    ("ac3-32k-mono-64k", "ac3", 32000, 1, 1.0, "64k", "ac3"),
    ("ac3-48k-5.1-448k", "ac3", 48000, 6, 1.0, "448k", "ac3"),
    ("eac3-48k-stereo-96k", "eac3", 48000, 2, 1.0, "96k", "eac3"),
    ("eac3-48k-5.1-256k", "eac3", 48000, 6, 1.0, "256k", "eac3"),
]

ID3_TITLE = "Fixture Tone – ADTS behind ID3v2.4"
ID3_ARTIST = "audiostream"


def clean_old():
    for d, names in ((HERE, os.listdir(HERE)), (EXP, os.listdir(EXP))):
        for n in names:
            if n.startswith(PREFIXES) and (n.endswith(EXTENSIONS) or d == EXP):
                os.remove(os.path.join(d, n))


def main():
    os.makedirs(EXP, exist_ok=True)
    clean_old()
    work = tempfile.mkdtemp(prefix="codec-fixtures-")
    report = []
    try:
        report += make_all(work)
    finally:
        shutil.rmtree(work)
    for line in report:
        print("make_codec_fixtures: " + line)


def encode(work, out, src, codec_flags, bit_rate, muxer, extra=()):
    cmd = FFMPEG + ["-i", src] + codec_flags + ["-b:a", bit_rate] + BITEXACT + list(extra) + ["-f", muxer, out]
    run(cmd)
    shown = ["ffmpeg", "-i", "SOURCE.wav"] + codec_flags + ["-b:a", bit_rate] + BITEXACT + list(extra) + \
        ["-f", muxer, os.path.basename(out)]
    return " ".join(a if " " not in a else f"'{a}'" for a in shown)


def make_all(work):
    report = [f"crc16 checked on {check_crc16_on_mpeg(os.path.join(HERE, 'l3-crc.mp3'))} frames of l3-crc.mp3"]
    streams, sources = {}, {}

    # ---- clean ADTS
    for name, rate, ch, dur, br, extra in ADTS_CLEAN:
        src = source_wav(work, rate, ch, dur, name)
        path = os.path.join(HERE, name + ".aac")
        how = encode(work, path, src, AAC_FLAGS, br, "adts", extra)
        s = Stream(path, "adts")
        streams[name], sources[name] = s, src
        frames = [f + ("adts",) for f in s.frames]
        write_packets(name, frames)
        pcm = ffmpeg_decode(path)
        assert not pcm[1].strip(), (name, pcm[1])
        adts_json(name, path, s.data, frames, work,
                  {"mp4": True, "madeWith": how, "extra": {"originalSamples": soxi_samples(src)}}, None)

    # ---- CRC-protected ADTS, crafted from the mono stream
    base = streams["adts-lc-44k-mono"]
    walked, _ = adts_walk(base.data)
    out, padded = bytearray(), 0
    for p, n, _ in walked:
        frame, short = protect_single_sce(base.data[p:p + n])
        out += frame
        padded += short
    name = "adts-lc-44k-mono-crc"
    path = os.path.join(HERE, name + ".aac")
    open(path, "wb").write(out)
    s = Stream(path, "adts")
    frames = [f + ("adts",) for f in s.frames]
    assert [(f[3], f[4]) for f in s.frames] == [(f[3], f[4]) for f in base.frames]
    pcm, err = ffmpeg_decode(path)
    assert not err.strip() and pcm == ffmpeg_decode(base.path)[0], "protected stream decodes differently"
    faad = (faad_decode(path), faad_decode(base.path))
    faad_same = None if faad[0] is None else (faad[0] == faad[1] and len(faad[0]) > 0)
    assert faad_same in (None, True)
    write_packets(name, frames)
    adts_json(name, path, s.data, frames, work, {"mp4": True, "extra": {
        "crafted": True, "shortElementsPadded": padded, "ffmpegSameAsUnprotected": True,
        "faadSameAsUnprotected": faad_same},
        "madeWith": "adts-lc-44k-mono.aac with every frame rewritten: protection_absent = 0, aac_frame_length + 2, "
                    "crc_check over the 56 header bits and the first 192 bits of the SCE (see README)"}, None)
    report.append(f"{name}: {len(walked)} frames protected, {padded} with an SCE under 192 bits")

    # ---- several raw data blocks per frame (unprotected), crafted from the mono stream
    merged, blocks = merge_blocks(base.data, walked, [2, 3, 4, 1])
    name = "adts-lc-44k-mono-multi-rdb"
    path = os.path.join(HERE, name + ".aac")
    open(path, "wb").write(merged)
    mframes, stop = adts_walk(merged)
    assert stop == len(merged)
    pcm, err = ffmpeg_decode(path)
    assert pcm == ffmpeg_decode(base.path)[0], "merged stream decodes differently"
    # each block is a packet; its frame columns name the ADTS frame that holds it
    owner = []
    for p, n, h in mframes:
        owner += [(p, n)] * h.blocks
    frames = [(o[0], o[1], off, size, 1024, "adts") for o, (off, size) in zip(owner, blocks)]
    write_packets(name, frames)
    note = probe_differs(name, path, [(p, n) for p, n, _ in mframes])
    assert note is None  # ffprobe lists the merged frames
    probe = ffprobe_packets(path)
    adts_json(name, path, merged, frames, work, {"extra": {
        "crafted": True, "adtsFrames": len(mframes),
        "blocksPerFrameSequence": [h.blocks for _, _, h in mframes],
        "ffprobeFrameDurations": sorted({d for _, _, d, _ in probe}),
        "ffmpegSameAsSingleBlock": True, "ffmpegWarning": [
            line for line in sorted(set(log_lines(subprocess.run(
                ["ffmpeg", "-v", "warning", "-nostdin", "-i", path, "-f", "null", "-"],
                stderr=subprocess.PIPE).stderr.decode(), 100))) if "RDB" in line],
        "faadSameAsSingleBlock": None if faad_decode(path) is None else faad_decode(path) == faad_decode(base.path),
        "blockBoundariesSignalled": False},
        "madeWith": "adts-lc-44k-mono.aac with its frames merged in groups of 2, 3, 4, 1, 2, ... blocks per "
                    "frame (number_of_raw_data_blocks_in_frame = n - 1, protection_absent = 1)"},
        "ffprobe lists whole ADTS frames, each with a duration of 1024 samples whatever its block count")
    with open(os.path.join(EXP, name + ".ffprobe.csv"), "w") as f:
        f.write("pos,size,duration\n")
        for p, sz, d, _ in probe:
            f.write(f"{p},{sz},{d}\n")
    report.append(f"{name}: {len(mframes)} frames, {len(blocks)} blocks; ffmpeg decodes it like the original")

    # ---- ADTS behind an ID3v2.4 tag (ffmpeg's adts muxer writes it)
    st = streams["adts-lc-44k-stereo"]
    name = "adts-id3v24"
    path = os.path.join(HERE, name + ".aac")
    how = encode(work, path, sources["adts-lc-44k-stereo"], AAC_FLAGS, "128k", "adts",
                 ["-write_id3v2", "1", "-metadata", f"title={ID3_TITLE}", "-metadata", f"artist={ID3_ARTIST}"])
    data = open(path, "rb").read()
    assert data[:5] == b"ID3\x04\x00"
    tag_size = 10 + sum((data[6 + i] & 0x7F) << (7 * (3 - i)) for i in range(4)) + (10 if data[5] & 0x10 else 0)
    assert data[tag_size:] == st.data, "the tagged encode differs from adts-lc-44k-stereo.aac"
    from mutagen.id3 import ID3
    tag = ID3(path)
    assert str(tag["TIT2"]) == ID3_TITLE and str(tag["TPE1"]) == ID3_ARTIST and tag.version[:2] == (2, 4)
    _, fmt = ffprobe_stream(path)
    data, frames, _ = compose([("bytes", data[:tag_size]), ("part", st, 0, len(st.data))])
    write_packets(name, frames)
    note = probe_differs(name, path, frames)
    adts_json(name, path, data, frames, work, {"madeWith": how, "extra": {"id3v2": {
        "offset": 0, "size": tag_size, "version": "2.4", "title": ID3_TITLE, "artist": ID3_ARTIST,
        "mutagenFrames": sorted(tag.keys()), "ffprobeTitle": (fmt or {}).get("tags", {}).get("title")}}}, note)

    # ---- ADTS cut at 20 offsets inside frames (one file, the cuts recorded)
    report.append(make_cuts(st))

    # ---- junk in the middle
    mp3 = Stream(os.path.join(HERE, "l3-noxing.mp3"), "mp3")
    headers = [st.data[f[0]:f[0] + 7] for f in st.frames[:40:7]] + [mp3.data[f[0]:f[0] + 4] for f in mp3.frames[:3]]
    cut = st.frames[30][0]
    pieces = [("part", st, 0, cut), ("bytes", junk(12, 1500, headers)), ("part", st, cut, len(st.data))]
    sanitize(pieces)
    report.append(write_composed("adts-junk-between", pieces, work,
                                 "adts-lc-44k-stereo.aac frames 0-29 + 1500 seeded junk bytes + frames 30-", [st]))

    # ---- splices with MP3
    report.append(write_composed("adts-splice-adts-mp3", [("part", st, 0, len(st.data)),
                                                          ("part", mp3, 0, len(mp3.data))], work,
                                 "adts-lc-44k-stereo.aac + l3-noxing.mp3", [st, mp3]))
    report.append(write_composed("adts-splice-mp3-adts", [("part", mp3, 0, len(mp3.data)),
                                                          ("part", st, 0, len(st.data))], work,
                                 "l3-noxing.mp3 + adts-lc-44k-stereo.aac", [mp3, st]))

    # ---- AC-3 and E-AC-3
    for name, codec, rate, ch, dur, br, muxer in AC3_CLEAN:
        src = source_wav(work, rate, ch, dur, name)
        path = os.path.join(HERE, f"{name}.{muxer}")
        how = encode(work, path, src, ["-c:a", codec], br, muxer)
        s = Stream(path, "ac3")
        frames = [f + ("ac3",) for f in s.frames]
        write_packets(name, frames)
        obj = ac3_json(name, path, s.data, frames, how)
        assert not obj["ffmpegErrors"], (name, obj["ffmpegErrors"])
    return report


def write_composed(name, pieces, work, recipe, parts):
    data, frames, regions = compose(pieces)
    path = os.path.join(HERE, name + ".aac")
    open(path, "wb").write(data)
    real = {f[0] for f in frames}
    for kind, lo, hi, _ in regions:
        if kind == "bytes":
            assert not false_chains(data, lo, hi, real), name
    write_packets(name, frames)
    note = probe_differs(name, path, frames)
    layout = [{"kind": "junk" if kind == "bytes" else part.kind, "offset": lo, "length": hi - lo,
               "source": None if part is None else os.path.basename(part.path)}
              for kind, lo, hi, part in regions]
    adts_json(name, path, data, frames, work, {"madeWith": recipe, "parts": parts, "extra": {"layout": layout}},
              note)
    return f"{name}: {len(frames)} packets" + (f"; {note}" if note else "; ffprobe agrees")


def make_cuts(st):
    """20 cut offsets inside frames of adts-lc-44k-stereo.aac, chosen by a seeded generator across the file and
    across the frame (inside the 7-byte header, at the first raw byte, at the last byte, in between), keeping
    only cuts whose left-over bytes (cut .. next frame) hold no false chain. For each: the packets of
    data[cut:], which are the file's packets whose frame starts after the cut, offsets made relative to the cut.
    ffprobe's list for each slice is compared and the result recorded."""
    rng = random.Random(20)
    frames = st.frames
    real = {f[0] for f in frames}
    cuts, used = [], set()
    kinds = ["header"] * 5 + ["first raw byte"] * 2 + ["last byte"] * 3 + ["raw data"] * 10
    tmp = tempfile.mkdtemp(prefix="codec-cuts-")
    try:
        for kind in kinds:
            while True:
                k = rng.randrange(0, len(frames) - 3)
                p, n = frames[k][0], frames[k][1]
                cut = {"header": p + rng.randrange(1, 7), "first raw byte": p + 7, "last byte": p + n - 1,
                       "raw data": p + rng.randrange(8, n - 1)}[kind]
                if k in used or false_chains(st.data, cut, p + n, real):
                    continue
                used.add(k)
                break
            slice_data = st.data[cut:]
            expected = [(f[2] - cut, f[3], f[4]) for f in frames if f[0] > cut]
            spath = os.path.join(tmp, "slice.aac")
            open(spath, "wb").write(slice_data)
            probe = ffprobe_packets(spath)
            probed, first_row = None, None
            if probe is not None:
                first_row = list(probe[0][:2]) if probe else None
                probed = []
                for q, size, _, _ in probe:
                    h = adts_header(slice_data, q)
                    probed.append((q + h.header_size, size - h.header_size, 1024) if h else (q, size, None))
            cuts.append({"cut": cut, "frameIndex": k, "frameOffset": p, "where": kind,
                         "firstPacketIndex": k + 1, "packetCount": len(expected),
                         "ffprobeAgrees": probed == expected,
                         "ffprobePackets": None if probed is None else len(probed),
                         "ffprobeFirstFrame": None if probed == expected else first_row,
                         "packets": expected})
    finally:
        shutil.rmtree(tmp)
    cuts.sort(key=lambda c: c["cut"])
    path = os.path.join(EXP, "adts-lc-44k-stereo.cuts.json")
    with open(path, "w") as f:
        f.write('{\n  "source": "adts-lc-44k-stereo.aac",\n')
        f.write('  "rule": "the packets of data[cut:] are the file\'s packets (packets.csv) from row '
                'firstPacketIndex (0-based) on, offsets minus cut; packets lists them as [offset, size, frames]",\n')
        f.write('  "cuts": [\n')
        for i, c in enumerate(cuts):
            head = {k: v for k, v in c.items() if k != "packets"}
            f.write("    " + json.dumps(head, ensure_ascii=False)[:-1] + ',\n      "packets": '
                    + json.dumps(c["packets"], separators=(",", ":")) + "}" + ("," if i < len(cuts) - 1 else "")
                    + "\n")
        f.write("  ]\n}\n")
    disagree = [c["cut"] for c in cuts if not c["ffprobeAgrees"]]
    return f"cuts: 20 recorded; ffprobe on the slice disagrees at {disagree}" if disagree else \
        "cuts: 20 recorded; ffprobe on each slice agrees"


if __name__ == "__main__":
    main()
