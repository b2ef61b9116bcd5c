#!/usr/bin/env bash
# make soak: audiostreamd under a long, unruly load (issue 17). Makes the inputs (once) in SOAK_DATA, runs soak.py
# for SOAK_MINUTES, then writes the section "## Soak (make soak)" of docs/benchmarks.md and its plot, docs/soak.png,
# from the samples, passed or not; exits 1 when the soak failed, with the reasons on standard error.
#
# Environment (all optional): SOAK_MINUTES (30), SOAK_DATA (.build-soak, git-ignored), SOAK_DAEMON
# (.build/release/audiostreamd), SOAK_DOC (docs/benchmarks.md), SOAK_REVISION (the report's; HEAD at the start);
# soak.py reads the others (its docstring lists them).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$here/../.."

export SOAK_MINUTES=${SOAK_MINUTES:-30}
data=${SOAK_DATA:-.build-soak}
daemon=${SOAK_DAEMON:-.build/release/audiostreamd}
doc=${SOAK_DOC:-docs/benchmarks.md}

for tool in sox lame ffmpeg oggenc opusenc python3; do
    command -v "$tool" >/dev/null || { echo "soak: $tool not found (make tool-deps)" >&2; exit 1; }
done
python3 -c 'import matplotlib' 2>/dev/null || { echo "soak: matplotlib not found (make tool-deps)" >&2; exit 1; }
[[ -x $daemon ]] || { echo "soak: $daemon not built (swift build -c release --product audiostreamd)" >&2; exit 1; }

# --- Inputs: one minute of pink noise and a tone (sox -R: the same bytes each time), in each format the files
# play. MP3s without a Xing frame or tags (lame -t), so that an MP3 mount's body is the file's bytes looped.
mkdir -p "$data"
data=$(cd "$data" && pwd)
declare -A recipe=(
    [cbr128.mp3]="lame --quiet -t --cbr -b 128 seed.wav cbr128.mp3"
    [vbr-v2.mp3]="lame --quiet -t -V 2 seed.wav vbr-v2.mp3"
    [mono64.mp3]="lame --quiet -t -m m --cbr -b 64 seed.wav mono64.mp3"
    [aac128.aac]="ffmpeg -v error -i seed.wav -c:a aac -b:a 128k -f adts aac128.aac"
    [aac48-mono.m4a]="ffmpeg -v error -i seed.wav -ac 1 -ar 22050 -c:a aac -b:a 48k -movflags +faststart aac48-mono.m4a"
    [vorbis-q3.ogg]="oggenc --quiet -q 3 -o vorbis-q3.ogg seed.wav"
    [opus64.opus]="opusenc --quiet --bitrate 64 seed.wav opus64.opus"
)
[[ -s $data/seed.wav ]] || sox -R -n -r 44100 -c 2 -b 16 "$data/seed.wav" synth 60 pinknoise sine 440 vol 0.5
for file in "${!recipe[@]}"; do
    [[ -s $data/$file ]] || (cd "$data" && eval "${recipe[$file]}") || { echo "soak: could not make $file" >&2; exit 1; }
done

# --- The run, then the report (written whatever the verdict, which it states).
export SOAK_COMMAND="SOAK_MINUTES=$SOAK_MINUTES make soak"
export SOAK_REVISION=${SOAK_REVISION:-$(git rev-parse --short HEAD)}  # the daemon's, whatever is committed meanwhile
status=0
python3 "$here/soak.py" "$data" "$daemon" || status=$?
[[ -s $data/summary.json ]] || exit "$status"   # it stopped before measuring anything
python3 "$here/plot.py" "$data/soak.csv" "$data/summary.json" docs/soak.png
python3 "$here/report.py" "$data/soak.csv" "$data/summary.json" "$doc" docs/soak.png
exit "$status"
