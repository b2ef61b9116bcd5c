#!/usr/bin/env bash
# Makes the fixtures of the writers' tests (writing/), which the parser's fixtures do not cover:
# - aac-lc-nopns.m4a: AAC-LC, 44.1 kHz stereo, 3 s of a tone in noise, from ffmpeg's encoder without perceptual
#   noise substitution (-aac_pns 0). A decoder fills PNS bands with noise from a generator that runs through the
#   whole stream, so a cut of a PNS stream can never decode to the very samples of the whole; without PNS it does.
# Needs ffmpeg 5.1 (Debian). Removes and remakes writing/ only.
set -euo pipefail
FIX="$(cd "$(dirname "$0")" && pwd)"
OUT="$FIX/writing"
rm -rf "$OUT"
mkdir -p "$OUT"
ffmpeg -nostdin -v error -f lavfi -i "sine=frequency=440:sample_rate=44100:duration=3" \
    -f lavfi -i "anoisesrc=sample_rate=44100:amplitude=0.1:duration=3:seed=7" \
    -filter_complex "[0][1]amix=inputs=2,aformat=channel_layouts=stereo" \
    -c:a aac -b:a 64k -aac_pns 0 -fflags +bitexact -flags:a +bitexact -map_metadata -1 -movflags +faststart \
    "$OUT/aac-lc-nopns.m4a"
echo "make_writing_fixtures: $(ls "$OUT")"
