#!/usr/bin/env bash
# Instructions audiostreamd executes per packet delivered to a subscriber: valgrind's callgrind (user space only;
# the kernel's share of each write is not counted), a figure a busy machine does not move, unlike CPU time.
#
# Four runs of `SubscriberLoad daemon` on a stdin stream: FEW and MANY subscribers (FANOUT_SUBSCRIBERS, default
# "100 500"), each with a short and a long measured window. The long run minus the short one is the cost of the
# extra packets alone (start-up, connecting and the end cancel out); the MANY-subscriber difference minus the
# FEW-subscriber one is the cost of MANY - FEW more subscribers receiving them (parsing cancels out):
#   per delivered packet = ((Imany,long - Imany,short) - (Ifew,long - Ifew,short)) / ((MANY - FEW) * extra packets)
# Both counts must fill every write slot of every event loop (8 a hub, a hub a loop): with fewer subscribers than
# slots, more subscribers also means more slots woken, and the slots' timers and joins then count as the
# subscribers' (10 against 50, the counts used until 2026-11-27, gave 1,234 where 100 against 500 gives 81).
#
# Usage: bash Benchmarks/fanout_instructions.sh [AUDIOSTREAMD] [WRITE_INTERVAL]
#   AUDIOSTREAMD    default .build/release/audiostreamd (with SubscriberLoad beside it)
#   WRITE_INTERVAL  the stream's writeInterval (default: the daemon's own)
# Environment: BENCH_DATA (default bench-data: where bench.sh's seed MP3 is, made if missing by
# `BENCH_ONLY=daemon bash Benchmarks/bench.sh`); FANOUT_HTTP_PORT (a free loopback port: the subscribers are then
# HTTP listeners on the stream's mount instead of socket subscribers); FANOUT_SUBSCRIBERS (default "100 500").
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
read -r few many <<<"${FANOUT_SUBSCRIBERS:-100 500}"
declare -A instructions
for subscribers in $few $many; do
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

python3 - "${instructions[$few,$short]}" "${instructions[$few,$long]}" "${instructions[$many,$short]}" \
    "${instructions[$many,$long]}" "$((long - short))" "$few" "$many" <<'EOF'
import sys
few_short, few_long, many_short, many_long, seconds, few, many = map(int, sys.argv[1:8])
# 1152 samples per MPEG-1 Layer III frame, at the seed's 44.1 kHz.
packets = seconds * 44100 / 1152
marginal = ((many_long - many_short) - (few_long - few_short)) / ((many - few) * packets)
print(f"instructions per delivered packet: {marginal:,.0f} "
      f"(all of the daemon's work at {many} subscribers: {(many_long - many_short) / (many * packets):,.0f})")
EOF
