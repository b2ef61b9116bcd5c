#!/usr/bin/env bash
# Regenerates every generated fixture in Tests/Fixtures (MPEG audio, AAC ADTS,
# AC-3, E-AC-3, ICY bodies) and every expected file in Tests/Fixtures/expected,
# deterministically.
#
#   bash Tests/Fixtures/make-fixtures.sh        (from the repository root)
#
# Needs (Debian): sox lame twolame ffmpeg mpg123; Python 3 with mutagen
# (pip install mutagen); faad, if installed, adds one check to the ADTS
# fixtures. Installs nothing itself.
#
# This script encodes the clean fixtures and the clean parts of the composed
# ones; make_fixtures.py then assembles the composed fixtures (sweeps, VBRI,
# damaged and spliced streams) and records the expected values from ffprobe,
# mpg123, soxi and mutagen. make_codec_fixtures.py then makes the AAC ADTS,
# AC-3 and E-AC-3 fixtures and records theirs from ffprobe and ffmpeg, and
# make_decode_references.py records ffmpeg's PCM of the non-MPEG fixtures, and
# make_icy_fixtures.py interleaves two of the MP3s and one ADTS stream with
# ICY metadata (icy/). See README.md in this folder.
set -euo pipefail

FIX=Tests/Fixtures
if [[ ! -f "$FIX/make-fixtures.sh" ]]; then
    echo "make-fixtures: run me from the repository root: bash Tests/Fixtures/make-fixtures.sh" >&2
    exit 1
fi

missing=()
for tool in sox soxi lame twolame ffmpeg ffprobe mpg123 oggenc opusenc opusinfo python3 cc; do
    command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
if ((${#missing[@]})); then
    echo "make-fixtures: missing tools: ${missing[*]}" >&2
    echo "  Debian: apt-get install -y sox lame twolame ffmpeg mpg123 vorbis-tools opus-tools python3" >&2
    exit 1
fi
if ! python3 -c 'import mutagen.mp3._util' 2>/dev/null; then
    echo "make-fixtures: Python module mutagen is missing: pip install mutagen" >&2
    exit 1
fi

export PYTHONDONTWRITEBYTECODE=1
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/src" "$WORK/parts" "$FIX/expected/conformance"

# Remove what this script made last time (never the tag helper's files;
# make_fixtures.py clears expected/conformance when it can rewrite it).
find "$FIX" -maxdepth 1 -type f \( -name '*.mp3' -o -name '*.mp2' \) ! -name 'tags-*' -delete
find "$FIX/expected" -maxdepth 1 -type f ! -name 'tags-*' -delete

# ---------------------------------------------------------------------------
# Source signal: a six-note sine chord (different notes left and right), an
# exponential sine sweep 300-6000 Hz and pink noise under a 1.7 Hz tremolo,
# mixed and normalised to -1 dBFS, 16-bit. `sox -R` seeds the noise and the
# dither, so the WAV is identical on every run.
#   source RATE CHANNELS SECONDS NAME  -> $WORK/src/NAME.wav
source_wav() {
    local rate=$1 ch=$2 dur=$3 out="$WORK/src/$4"
    sox -R -n -r "$rate" -c "$ch" -b 16 "$out.chord.wav" \
        synth "$dur" sine 220 sine 330 synth sine mix 277.2 sine 415.3 synth sine mix 554.4 sine 659.3 gain -3
    sox -R -n -r "$rate" -c "$ch" -b 16 "$out.sweep.wav" synth "$dur" sine 300-6000 gain -3
    sox -R -n -r "$rate" -c "$ch" -b 16 "$out.noise.wav" synth "$dur" pinknoise tremolo 1.7 100 gain -3
    sox -R -m -v 0.4 "$out.chord.wav" -v 0.2 "$out.sweep.wav" -v 0.4 "$out.noise.wav" \
        -b 16 "$out.wav" gain -n -1
}

# Every clean encode is listed in $WORK/clean.tsv (name, source WAV, command)
# so make_fixtures.py can record originalSamples and how the file was made.
#   lame_enc OUT SRC FLAGS...  /  twolame_enc OUT SRC FLAGS...
lame_enc() {
    local out=$1 src=$2; shift 2
    lame --quiet --nohist "$@" "$WORK/src/$src.wav" "$out"
    printf '%s\t%s\tlame %s\n' "$out" "$WORK/src/$src.wav" "$*" >>"$WORK/clean.tsv"
}
twolame_enc() {
    local out=$1 src=$2; shift 2
    twolame --quiet "$@" "$WORK/src/$src.wav" "$out"
    printf '%s\t%s\ttwolame %s\n' "$out" "$WORK/src/$src.wav" "$*" >>"$WORK/clean.tsv"
}
: >"$WORK/clean.tsv"

source_wav 44100 2 1.0 s44k-1s
source_wav 44100 2 1.5 s44k-1.5s
source_wav 48000 2 1.0 s48k
source_wav 32000 1 1.0 m32k
source_wav 16000 1 1.0 m16k
source_wav 22050 2 1.0 s22k
source_wav 24000 2 1.5 s24k
source_wav  8000 1 1.0 m8k
source_wav 11025 2 1.0 s11k
source_wav 12000 1 1.0 m12k
source_wav 22050 1 1.0 m22k
source_wav 44100 1 1.0 m44k
source_wav 24000 2 1.0 s24k-1s
source_wav 32000 2 1.0 s32k

# ---- MPEG-1 Layer III (lame) ----------------------------------------------
lame_enc "$FIX/l3-cbr128-joint.mp3"     s44k-1s   -b 128 -m j --resample 44.1
lame_enc "$FIX/l3-vbr-v2.mp3"           s44k-1.5s -V 2 -m j --resample 44.1
lame_enc "$FIX/l3-abr96.mp3"            s44k-1.5s --abr 96 -m j --resample 44.1
lame_enc "$FIX/l3-cbr320-48k-stereo.mp3" s48k     -b 320 -m s --resample 48
lame_enc "$FIX/l3-32k-mono.mp3"         m32k      -b 64 -m m --resample 32
lame_enc "$FIX/l3-crc.mp3"              s44k-1s   -p -b 128 -m j --resample 44.1
lame_enc "$FIX/l3-noxing.mp3"           s44k-1s   -t -b 128 -m j --resample 44.1
lame_enc "$FIX/l3-freeformat-200k.mp3"  s44k-1s   --freeformat -b 200 -m j --resample 44.1

# ---- MPEG-2 and MPEG-2.5 Layer III (lame) ----------------------------------
lame_enc "$FIX/l3-mpeg2-16k-mono.mp3"     m16k -b 64 -m m --resample 16
lame_enc "$FIX/l3-mpeg2-22k-joint.mp3"    s22k -b 64 -m j --resample 22.05
lame_enc "$FIX/l3-mpeg2-24k-vbr.mp3"      s24k -V 4 -m j --resample 24
lame_enc "$FIX/l3-mpeg25-8k-mono.mp3"     m8k  -b 16 -m m --resample 8
lame_enc "$FIX/l3-mpeg25-11k-joint.mp3"   s11k -b 32 -m j --resample 11.025
lame_enc "$FIX/l3-mpeg25-12k-mono.mp3"    m12k -b 24 -m m --resample 12

# ---- Layer II (twolame; -d = pad frames at 44.1 kHz, -p = CRC) ------------
twolame_enc "$FIX/l2-192k-stereo.mp2"   s44k-1s -b 192 -m s -d
twolame_enc "$FIX/l2-dual-crc.mp2"      s48k    -b 256 -m d -p
twolame_enc "$FIX/l2-32k-mono.mp2"      m32k    -b 64 -m m
twolame_enc "$FIX/l2-mpeg2-24k.mp2"     s24k-1s -b 64 -m j
twolame_enc "$FIX/l2-freeformat-40k-crc.mp2" s44k-1s --freeformat -b 40 -m s -p

# ---- Parts of the composed fixtures (assembled by make_fixtures.py) -------
P="$WORK/parts"
# Bitrate sweeps: 0.15 s slices of one source per family, one encode per
# bitrate, no Xing tag, same sample rate and channel mode within a file.
sweep() {  # sweep FAMILY SRC SECONDS TOOL FLAGS... -- BITRATES...
    local fam=$1 src=$2 dur=$3 tool=$4; shift 4
    local flags=() i=0 br
    while [[ $1 != -- ]]; do flags+=("$1"); shift; done; shift
    for br in "$@"; do
        sox -R "$WORK/src/$src.wav" "$P/$fam-slice$i.wav" trim "$(awk "BEGIN { print $i * $dur }")" "$dur"
        if [[ $tool == lame ]]; then
            lame --quiet --nohist "${flags[@]}" -b "$br" "$P/$fam-slice$i.wav" "$(printf '%s/%s-%02d-%s.part' "$P" "$fam" "$i" "$br")"
        else
            twolame --quiet "${flags[@]}" -b "$br" "$P/$fam-slice$i.wav" "$(printf '%s/%s-%02d-%s.part' "$P" "$fam" "$i" "$br")"
        fi
        i=$((i + 1))
    done
}
source_wav 44100 2 2.2 sweep44
source_wav 22050 2 2.2 sweep22
source_wav 44100 1 2.2 sweep44m
sweep sweep-l3-mpeg1 sweep44 0.15 lame -t -m j --resample 44.1 -- 32 40 48 56 64 80 96 112 128 160 192 224 256 320
sweep sweep-l3-mpeg2 sweep22 0.15 lame -t -m j --resample 22.05 -- 8 16 24 32 40 48 56 64 80 96 112 128 144 160
# twolame refuses 32/48/56/80 kbps for two channels and 224..384 for one,
# so MPEG-1 Layer II gets one stereo and one mono sweep.
sweep sweep-l2-stereo sweep44 0.15 twolame -m s -d -- 64 96 112 128 160 192 224 256 320 384
sweep sweep-l2-mono sweep44m 0.15 twolame -m m -d -- 32 48 56 64 80 96 112 128 160 192

# Plain parts for VBRI, damaged and spliced streams.
lame --quiet --nohist -t -b 128 -m j --resample 44.1 "$WORK/src/s44k-1s.wav"   "$P/cbr128-noxing.part"
lame --quiet --nohist -t -V 2 -m j --resample 44.1   "$WORK/src/s44k-1.5s.wav" "$P/vbr-v2-noxing.part"
lame --quiet --nohist -V 2 -m j --resample 44.1      "$WORK/src/s44k-1.5s.wav" "$P/vbr-v2-xing.part"
lame --quiet --nohist -b 128 -m j --resample 44.1    "$WORK/src/s44k-1s.wav"   "$P/cbr128-info-44k-stereo.part"
lame --quiet --nohist -b 64 -m m --resample 22.05    "$WORK/src/m22k.wav"      "$P/cbr64-info-22k-mono.part"
lame --quiet --nohist -t -b 192 -m s --resample 48   "$WORK/src/s48k.wav"      "$P/cbr192-noxing-48k-stereo.part"
lame --quiet --nohist -t -b 96 -m s --resample 32    "$WORK/src/s32k.wav"      "$P/cbr96-noxing-32k-stereo.part"
lame --quiet --nohist -t --freeformat -b 200 -m j --resample 44.1 "$WORK/src/s44k-1s.wav" "$P/free200-noxing.part"
lame --quiet --nohist -t --freeformat -b 240 -m j --resample 44.1 "$WORK/src/s44k-1s.wav" "$P/free240-noxing.part"

python3 "$FIX/make_fixtures.py" --fixtures "$FIX" --work "$WORK" \
    --conformance "$FIX/conformance"

# ---- The demo stream config.yaml serves (demo/demo.mp3) -------------------
# 19.2 s of plucked arpeggios over a bass line, 128 kb/s joint stereo with
# an ID3v2 title, so a subscriber sees properties, metadata and packets.
demo_mp3() {
    local notes=() bass=() chord root note
    # Each chord: its bass note, then the four notes plucked in turn.
    for chord in "C2 C4 E4 G4 C5" "A1 A3 C4 E4 A4" "F1 F3 A3 C4 F4" "G1 G3 B3 D4 G4"; do
        root=${chord%% *}
        sox -R -n -r 44100 -c 2 "$WORK/demo-bass-$root.wav" synth 4.8 sine "$root" fade 0.05 4.8 0.3 gain -12
        bass+=("$WORK/demo-bass-$root.wav")
        for note in ${chord#* }; do
            [[ -f "$WORK/demo-$note.wav" ]] || sox -R -n -r 44100 -c 2 "$WORK/demo-$note.wav" synth 0.3 pluck "$note" gain -6
        done
        for _ in 1 2 3 4; do
            for note in ${chord#* }; do notes+=("$WORK/demo-$note.wav"); done
        done
    done
    sox -R "${notes[@]}" "$WORK/demo-melody.wav"
    sox -R "${bass[@]}" "$WORK/demo-bass.wav"
    sox -R -m "$WORK/demo-melody.wav" "$WORK/demo-bass.wav" -b 16 "$WORK/demo.wav" gain -n -1
    mkdir -p demo
    lame --quiet --nohist -b 128 -m j --resample 44.1 --add-id3v2 --tt "Arpeggios" --ta "audiostream demo" \
        "$WORK/demo.wav" demo/demo.mp3
}
demo_mp3

if [[ -f "$FIX/make-tag-fixtures.py" ]]; then
    python3 "$FIX/make-tag-fixtures.py" "$FIX"
fi

# ---- AAC ADTS, AC-3 and E-AC-3 fixtures (adts-*, ac3-*, eac3-*) and their
# expected files; reads l3-noxing.mp3 (made above) for the ADTS/MP3 splices.
# It removes and remakes only its own files (the clean-up at the top keeps
# .aac/.ac3/.eac3 files; the expected/ files it deletes are remade here).
python3 "$FIX/make_codec_fixtures.py"

# ---- Ogg fixtures (ogg/): Vorbis, Opus, chained, multiplexed and damaged
# streams, with their expected values from ffprobe, ffmpeg, opusinfo and
# mutagen; removes and remakes ogg/ and expected/ogg/ only.
python3 "$FIX/make_ogg_fixtures.py"

# ---- Native FLAC fixtures (flac-*) and their expected files, and ffprobe's
# packets of the committed IETF conformance files (flac-conformance/). It
# removes and remakes only its own files.
python3 "$FIX/make_flac_fixtures.py"

# ---- CAF fixtures (caf/): PCM, G.711, IMA4, ALAC, Opus and AAC in CAF, 5.1,
# info tags and a streamed file, with their expected values from ffprobe;
# removes and remakes caf/ and expected/caf/ only.
python3 "$FIX/make_caf_fixtures.py"

# ---- WAVE, RF64, AIFF and AIFC fixtures (pcm/), the IMA4 AIFC (ima4/), and their
# expected files (expected/pcm/, expected/ima4/), from ffmpeg, ffprobe and mutagen;
# removes and remakes those folders only.
python3 "$FIX/make_pcm_fixtures.py"

# ---- MP4 fixtures (mp4/): AAC, ALAC, AC-3, E-AC-3, Opus and FLAC in MP4, fragmented, moov-at-end, video
# beside audio, QuickTime tags and mutagen-tagged M4As, with ffprobe's and mutagen's values.
python3 "$FIX/make_mp4_fixtures.py"

# ---- HE-AAC and HE-AACv2 fixtures (heaac/): ffmpeg's AAC-LC in MP4 with SBR (and PS) signalled explicitly in
# the AudioSpecificConfig, since no HE-AAC encoder is at hand; removes and remakes heaac/ and expected/heaac/ only.
python3 "$FIX/make_heaac_fixtures.py"

# ---- Duration fixtures (duration/): files cut short after a header that states their length, ALAC without an edit
# list, a Xing tag counting 0 frames, APEv2 and ID3v1 trailers and Opus's pre-skip, with mutagen's, ffprobe's and
# ffmpeg's decoded durations; removes and remakes duration/ and expected/duration/ only.
python3 "$FIX/make_duration_fixtures.py"

# ---- Decoding references (expected/decode/): ffmpeg's s16le and f32le PCM of
# the ADTS, AC-3, E-AC-3, Ogg and FLAC fixtures above, and FLAC's STREAMINFO
# MD5; rewrites expected/decode/ only.
python3 "$FIX/make_decode_references.py"

# ---- ICY fixtures (icy/): l3-cbr128-joint.mp3, demo/demo.mp3 and
# adts-lc-44k-stereo.aac, made above, interleaved with SHOUTcast/Icecast
# metadata blocks; standard library only.
python3 "$FIX/make_icy_fixtures.py"
# ---- Recording fixtures (record/): 12 s of music in each codec a recording writes, cut into pieces by the
# recording tests and compared with ffmpeg's decodes at test time; removes nothing.
python3 "$FIX/make_record_fixtures.py"
# ---- Writers' fixtures (writing/): an AAC M4A without perceptual noise substitution, whose cuts decode to
# the whole's samples; removes and remakes writing/ only.
bash "$FIX/make_writing_fixtures.sh"
# ---- Programs (programs/): a small executable built from C, whose bytes pass
# for MPEG audio headers; needs cc.
bash "$FIX/make_program_fixtures.sh"
# ---- Compositions (playlist/): two short tagged FLAC files to play around record/cbr.mp3.
bash "$FIX/make_playlist_fixtures.sh"
echo "make-fixtures: done ($(du -sh "$FIX" | cut -f1) in $FIX)"
