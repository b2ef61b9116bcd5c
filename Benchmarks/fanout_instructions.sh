#!/usr/bin/env bash
# Instructions audiostreamd executes per packet delivered to a subscriber: valgrind's callgrind (user space only;
# the kernel's share of each write is not counted), a figure a busy machine does not move, unlike CPU time.
#
# Four runs of `SubscriberLoad daemon` on a stdin stream: 10 and 50 subscribers, each with a short and a long
# measured window. The long run minus the short one is the cost of the extra packets alone (start-up, connecting
# and the end cancel out); the 50-subscriber difference minus the 10-subscriber one is the cost of 40 more
# subscribers receiving them (parsing cancels out):
#   per delivered packet = ((I50,long - I50,short) - (I10,long - I10,short)) / (40 * extra packets)
#
# Usage: bash Benchmarks/fanout_instructions.sh [AUDIOSTREAMD] [WRITE_INTERVAL]
#   AUDIOSTREAMD    default .build/release/audiostreamd (with SubscriberLoad beside it)
#   WRITE_INTERVAL  the stream's writeInterval (default: the daemon's own)
# Environment: BENCH_DATA (default bench-data: where bench.sh's seed MP3 is, made if missing by
# `BENCH_ONLY=daemon bash Benchmarks/bench.sh`); FANOUT_HTTP_PORT (a free loopback port: the subscribers are then
# HTTP listeners on the stream's mount instead of socket subscribers).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$here/.."
daemon=${1:-.build/release/audiostreamd}
interval=${2:-}
http_port=${FANOUT_HTTP_PORT:-}
data=${BENCH_DATA:-bench-data}
seed=$data/seed-60s-cbr128.mp3
load=$(dirname "$daemon")/SubscriberLoad
for tool in valgrind objcopy; do
    command -v "$tool" >/dev/null || { echo "fanout_instructions: $tool is needed" >&2; exit 1; }
done
[[ -s $seed ]] || { echo "fanout_instructions: no $seed (run bench.sh's daemon benchmark once)" >&2; exit 1; }
[[ -x $load ]] || { echo "fanout_instructions: $load not built (swift build -c release)" >&2; exit 1; }

work=$(mktemp -d /tmp/audiostream-ir.XXXXXX)
trap 'rm -rf "$work"' EXIT
# Valgrind 3.19 cannot read the DWARF 5 that Swift writes: a copy without debug information counts the same.
objcopy --strip-debug "$daemon" "$work/audiostreamd"
cat >"$work/audiostreamd-callgrind" <<EOF
#!/bin/sh
exec valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.out" "$work/audiostreamd" "\$@" 2>>"$work/valgrind.log"
EOF
chmod +x "$work/audiostreamd-callgrind"

short=6 long=16
declare -A instructions
for subscribers in 10 50; do
    for seconds in $short $long; do
        mkdir "$work/run"
        echo "+ $load daemon --daemon audiostreamd-callgrind --subscribers $subscribers --seconds $seconds" \
            "${interval:+--write-interval $interval }${http_port:+--http-port $http_port }--input $seed --warmup 3" \
            "--tail 2"
        "$load" daemon --daemon "$work/audiostreamd-callgrind" --folder "$work/run" --subscribers "$subscribers" \
            ${interval:+--write-interval "$interval"} ${http_port:+--http-port "$http_port"} --input "$seed" --warmup 3 --seconds "$seconds" --tail 2 \
            --report "$work/report.json" >"$work/load.log"
        instructions[$subscribers,$seconds]=$(awk '/^(summary|totals):/ { print $2; exit }' "$work/callgrind.out")
        echo "  ${instructions[$subscribers,$seconds]} instructions"
        rm -rf "$work/run" "$work/callgrind.out"
    done
done

python3 - "${instructions[10,$short]}" "${instructions[10,$long]}" "${instructions[50,$short]}" \
    "${instructions[50,$long]}" "$seed" "$((long - short))" <<'EOF'
import subprocess, sys
i10s, i10l, i50s, i50l = map(int, sys.argv[1:5])
seed, seconds = sys.argv[5], int(sys.argv[6])
# 1152 samples per MPEG-1 Layer III frame, at the seed's 44.1 kHz.
packets = seconds * 44100 / 1152
marginal = ((i50l - i50s) - (i10l - i10s)) / (40 * packets)
print(f"instructions per delivered packet: {marginal:,.0f} "
      f"(all of the daemon's work at 50 subscribers: {(i50l - i50s) / (50 * packets):,.0f})")
EOF
