#!/usr/bin/env bash
# Parse-speed benchmark: `audiostream scan` against FFmpeg and GStreamer on one
# large 128 kb/s CBR MP3, in the same run, file in the page cache.
# Writes the "## Parse speed (audiostream scan)" section of docs/benchmarks.md.
#
# Environment (all optional):
#   AUDIOSTREAM   binary to time             (default .build/release/audiostream)
#   BENCH_MB      size of the input in MB    (default 500)
#   BENCH_RUNS    timed runs per command     (default 10, after 1 warm-up run)
#   BENCH_DATA    where the input is built   (default bench-data, git-ignored)
#   BENCH_DOC     report to write            (default docs/benchmarks.md)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$here/.."

audiostream=${AUDIOSTREAM:-.build/release/audiostream}
target_mb=${BENCH_MB:-500}
runs=${BENCH_RUNS:-10}
data=${BENCH_DATA:-bench-data}
doc=${BENCH_DOC:-docs/benchmarks.md}

need() { command -v "$1" >/dev/null || { echo "bench: $1 not found (make tool-deps)" >&2; exit 1; }; }
for tool in sox lame ffmpeg ffprobe gst-launch-1.0 hyperfine python3; do need "$tool"; done
[[ -x $audiostream ]] || { echo "bench: $audiostream not built (swift build -c release)" >&2; exit 1; }
gst-inspect-1.0 mpegaudioparse >/dev/null 2>&1 ||
    { echo "bench: GStreamer mpegaudioparse missing (gstreamer1.0-plugins-good)" >&2; exit 1; }

# --- Input ------------------------------------------------------------------
# One minute of 44.1 kHz stereo (pink noise left, 440 Hz right; sox -R makes it
# repeatable) encoded once as 128 kb/s CBR without a Xing/Info frame (lame -t),
# so every repetition is pure audio frames; then repeated to ~BENCH_MB.
mkdir -p "$data"
seed=$data/seed-60s-cbr128.mp3
if [[ ! -s $seed ]]; then
    echo "bench: encoding $seed"
    sox -R -n -r 44100 -c 2 -b 16 "$data/seed.wav" synth 60 pinknoise sine 440 vol 0.5
    lame --quiet -t --cbr -b 128 "$data/seed.wav" "$seed"
    rm -f "$data/seed.wav"
fi
seed_bytes=$(stat -c %s "$seed")
# Frame count and sample rate from ffprobe, not from the code under test.
IFS=, read -r rate seed_packets < <(ffprobe -v error -count_packets -select_streams a:0 \
    -show_entries stream=sample_rate,nb_read_packets -of csv=p=0 "$seed")
repeats=$(( (target_mb * 1000000 + seed_bytes - 1) / seed_bytes ))
input=$data/cbr128-${repeats}x60s.mp3
if [[ ! -s $input || $(stat -c %s "$input") -ne $(( repeats * seed_bytes )) ]]; then
    echo "bench: building $input ($repeats copies of $seed)"
    for (( i = 0; i < repeats; i++ )); do cat "$seed"; done >"$input.part"
    mv "$input.part" "$input"
fi
bytes=$(( repeats * seed_bytes ))
packets=$(( repeats * seed_packets ))   # MPEG frames, counted by ffprobe

# Warm the page cache (hyperfine's warm-up run then warms each tool as well).
cat "$input" >/dev/null

# Refuse to time a parser that does not find every frame.
scan=$("$audiostream" scan "$input")
found=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["packets"])' "$scan")
[[ $found -eq $packets ]] || { echo "bench: audiostream found $found packets, ffprobe $packets" >&2; exit 1; }

# --- Timing -----------------------------------------------------------------
cmd_as="$audiostream scan $input"
cmd_ff="ffmpeg -v error -i $input -c copy -f null -"
cmd_gst="gst-launch-1.0 -q filesrc location=$input ! mpegaudioparse ! fakesink"
json=$data/parse-speed.json
hyperfine --shell=none --warmup 1 --runs "$runs" --export-json "$json" \
    -n "audiostream scan" "$cmd_as" \
    -n "ffmpeg -c copy" "$cmd_ff" \
    -n "gst mpegaudioparse" "$cmd_gst"

# --- Report -----------------------------------------------------------------
export BENCH_JSON=$json BENCH_DOC=$doc BENCH_RUNS=$runs BENCH_INPUT=$input
export BENCH_BYTES=$bytes BENCH_PACKETS=$packets BENCH_RATE=$rate
export BENCH_CMD_AS=$cmd_as BENCH_CMD_FF=$cmd_ff BENCH_CMD_GST=$cmd_gst
export BENCH_SEED="sox -R -n -r 44100 -c 2 -b 16 seed.wav synth 60 pinknoise sine 440 vol 0.5; lame -t --cbr -b 128 seed.wav seed.mp3; cat seed.mp3 × $repeats"
export BENCH_CPU=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
export BENCH_NPROC=$(nproc)
export BENCH_MEM=$(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)
export BENCH_KERNEL=$(uname -sr)
export BENCH_V_FFMPEG=$(ffmpeg -version | head -n1 | sed "s/ Copyright.*//")
export BENCH_V_GST=$(gst-launch-1.0 --version | head -n2 | paste -sd ';' | sed 's/;/; /')
export BENCH_V_SWIFT=$(swift --version 2>&1 | head -n1)
export BENCH_V_HYPERFINE=$(hyperfine --version)
export BENCH_REV=$(git describe --always --dirty 2>/dev/null || echo unknown)
python3 "$here/parse_speed_report.py"
echo "bench: wrote $doc"
