#!/usr/bin/env bash
# Two short FLAC files for the composition tests (Tests/Fixtures/playlist/): 44.1 kHz stereo, as
# record/cbr.mp3, which plays between them, so a composition of the three changes codec but not rate. Each has
# its own title, and tones of its own (left and right differ), so a segment out of place shows.
#
#   bash Tests/Fixtures/make_playlist_fixtures.sh   (from the repository root; needs ffmpeg)
set -euo pipefail
FIX=Tests/Fixtures/playlist
mkdir -p "$FIX"
tones() {  # tones LEFT_HZ RIGHT_HZ TITLE OUT
    ffmpeg -v error -y -f lavfi -i "sine=frequency=$1:sample_rate=44100:duration=3" \
        -f lavfi -i "sine=frequency=$2:sample_rate=44100:duration=3" \
        -filter_complex "[0:a][1:a]join=inputs=2:channel_layout=stereo" -c:a flac -sample_fmt s16 \
        -fflags +bitexact -flags:a +bitexact -metadata title="$3" "$4"
}
tones 440 550 Alpha "$FIX/alpha.flac"
tones 330 495 Gamma "$FIX/gamma.flac"
