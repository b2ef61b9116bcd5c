#!/usr/bin/env bash
# Instructions audiostreamd executes per packet delivered to a subscriber: valgrind's callgrind (user space only;
# the kernel's share of each write is not counted), a figure a busy machine does not move, unlike CPU time.
#
# Two runs of `SubscriberLoad daemon` on a stdin stream, with FEW and MANY subscribers (FANOUT_SUBSCRIBERS, default
# "100 500"), each counting the measured window alone: SubscriberLoad's window command zeroes callgrind's counts as
# the window starts and dumps them as it ends (callgrind_control), so connecting, start-up and the end count for
# nothing. The MANY-subscriber count minus the FEW-subscriber one is the cost of MANY - FEW more subscribers
# receiving the window's packets (parsing and the feed cancel out):
#   per delivered packet = (Imany - Ifew) / ((MANY - FEW) * packets in the window)
# Both counts must fill every write slot of every event loop (8 a hub, a hub a loop): with fewer subscribers than
# slots, more subscribers also means more slots woken, and the slots' timers and joins then count as the
# subscribers' (10 against 50, the counts used until 2026-11-27, gave 1,234 where 100 against 500 gives 81).
#
# Usage: bash Benchmarks/fanout_instructions.sh [AUDIOSTREAMD] [WRITE_INTERVAL]
#   AUDIOSTREAMD    default .build/release/audiostreamd (with SubscriberLoad beside it)
#   WRITE_INTERVAL  the stream's writeInterval (default: the daemon's own)
# Environment: BENCH_DATA (default bench-data: where bench.sh's seed MP3 is, made if missing by
# `BENCH_ONLY=daemon bash Benchmarks/bench.sh`); FANOUT_HTTP_PORT (a free loopback port: the subscribers are then
# HTTP listeners on the stream's mount instead of socket subscribers); FANOUT_SUBSCRIBERS (default "100 500");
# FANOUT_SECONDS (the window, default 10).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$here/.."
daemon=${1:-.build/release/audiostreamd}
interval=${2:-}
http_port=${FANOUT_HTTP_PORT:-}
data=${BENCH_DATA:-bench-data}
seed=$data/seed-60s-cbr128.mp3
load=$(dirname "$daemon")/SubscriberLoad
for tool in valgrind callgrind_control objcopy; do
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

window=${FANOUT_SECONDS:-10}
cat >"$work/window.sh" <<'EOF'
#!/bin/sh
# SubscriberLoad's window command: zero the counts as the window starts, dump them as it ends.
case $1 in
    start) exec callgrind_control --zero "$RELAY_PID" >/dev/null 2>&1 ;;
    end) exec callgrind_control --dump "$RELAY_PID" >/dev/null 2>&1 ;;
esac
EOF
chmod +x "$work/window.sh"

read -r few many <<<"${FANOUT_SUBSCRIBERS:-100 500}"
declare -A instructions
for subscribers in $few $many; do
    mkdir "$work/run"
    echo "+ $load daemon --daemon audiostreamd-callgrind --subscribers $subscribers --seconds $window" \
        "${interval:+--write-interval $interval }${http_port:+--http-port $http_port }--input $seed --warmup 3" \
        "--tail 2 --window-command window.sh"
    "$load" daemon --daemon "$work/audiostreamd-callgrind" --folder "$work/run" --subscribers "$subscribers" \
        ${interval:+--write-interval "$interval"} ${http_port:+--http-port "$http_port"} --input "$seed" --warmup 3 \
        --seconds "$window" --tail 2 --window-command "$work/window.sh" --report "$work/report.json" >"$work/load.log"
    # The dump of the window: the one file callgrind_control --dump made beside the final one.
    dumps=("$work"/callgrind.out.*)
    [[ ${#dumps[@]} -eq 1 && -s ${dumps[0]} ]] || { echo "fanout_instructions: no dump of the window" >&2; exit 1; }
    instructions[$subscribers]=$(awk '/^(summary|totals):/ { print $2; exit }' "${dumps[0]}")
    echo "  ${instructions[$subscribers]} instructions in the window"
    rm -rf "$work/run" "$work"/callgrind.out*
done

python3 - "${instructions[$few]}" "${instructions[$many]}" "$window" "$few" "$many" <<'EOF'
import sys
few_count, many_count, seconds, few, many = map(int, sys.argv[1:6])
# 1152 samples per MPEG-1 Layer III frame, at the seed's 44.1 kHz.
packets = seconds * 44100 / 1152
marginal = (many_count - few_count) / ((many - few) * packets)
print(f"instructions per delivered packet: {marginal:,.0f} "
      f"(all of the daemon's work at {many} subscribers: {many_count / (many * packets):,.0f})")
EOF
