#!/usr/bin/env bash
# Benchmarks of audiostream against its peers, each in one run with the peers, on 128 kb/s CBR MP3s;
# each writes its own section of docs/benchmarks.md:
#   parse:  `audiostream scan` against FFmpeg and GStreamer   ("## Parse speed (audiostream scan)")
#   decode: `audiostream decode --raw` against `mpg123 -s`   ("## Decode speed (audiostream decode)")
#   daemon: audiostreamd fanning one live stream out to 1 to 5000 subscribers, against Icecast 2 with as
#           many HTTP listeners, both fed and read by SubscriberLoad  ("## Live fan-out (audiostreamd)")
#
# Environment (all optional):
#   AUDIOSTREAM     binary to time                            (default .build/release/audiostream)
#   BENCH_ONLY      run one benchmark: parse, decode or daemon (default all three)
#   BENCH_MB        size of the parse input in MB             (default 500)
#   BENCH_DECODE_MIN  minutes of audio in the decode input    (default 40: ~1.5 s per decode)
#   BENCH_RUNS      timed runs per command                    (default 10, after 1 warm-up run)
#   BENCH_SUBSCRIBERS  subscriber counts of the daemon benchmark (default "1 100 1000 5000")
#   BENCH_WINDOW    seconds measured per count, after 3 s of warm-up (default 20)
#   BENCH_DATA      where the inputs are built                (default bench-data, git-ignored)
#   BENCH_DOC       report to write                           (default docs/benchmarks.md)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$here/.."

audiostream=${AUDIOSTREAM:-.build/release/audiostream}
only=${BENCH_ONLY:-}
target_mb=${BENCH_MB:-500}
decode_minutes=${BENCH_DECODE_MIN:-40}
runs=${BENCH_RUNS:-10}
subscriber_counts=${BENCH_SUBSCRIBERS:-1 100 1000 5000}
window=${BENCH_WINDOW:-20}
data=${BENCH_DATA:-bench-data}
doc=${BENCH_DOC:-docs/benchmarks.md}
build=$(dirname "$audiostream")

case $only in
    '' | parse | decode | daemon) ;;
    *) echo "bench: BENCH_ONLY must be parse, decode or daemon, not '$only'" >&2; exit 1 ;;
esac
wants() { [[ -z $only || $only == "$1" ]]; }

need() { command -v "$1" >/dev/null || { echo "bench: $1 not found (make tool-deps)" >&2; exit 1; }; }
for tool in sox lame ffprobe hyperfine python3; do need "$tool"; done
if wants parse; then
    for tool in ffmpeg gst-launch-1.0; do need "$tool"; done
    gst-inspect-1.0 mpegaudioparse >/dev/null 2>&1 ||
        { echo "bench: GStreamer mpegaudioparse missing (gstreamer1.0-plugins-good)" >&2; exit 1; }
fi
if wants decode; then need mpg123; fi
if wants daemon; then need icecast2; fi
[[ -x $audiostream ]] || { echo "bench: $audiostream not built (swift build -c release)" >&2; exit 1; }
if wants daemon; then
    for product in audiostreamd SubscriberLoad; do
        [[ -x $build/$product ]] || { echo "bench: $build/$product not built (swift build -c release)" >&2; exit 1; }
    done
fi

# --- Inputs -----------------------------------------------------------------
# One minute of 44.1 kHz stereo (pink noise left, 440 Hz right; sox -R makes it
# repeatable) encoded once as 128 kb/s CBR without a Xing/Info frame (lame -t),
# so every repetition is pure audio frames; each benchmark repeats it to its size.
mkdir -p "$data"
seed=$data/seed-60s-cbr128.mp3
seed_recipe="sox -R -n -r 44100 -c 2 -b 16 seed.wav synth 60 pinknoise sine 440 vol 0.5; lame -t --cbr -b 128 seed.wav seed.mp3"
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

# use_input REPEATS: builds (once) the seed repeated REPEATS times, warms the page cache, and sets
# input, bytes and packets, exported with REPEATS for the report.
use_input() {
    local repeats=$1
    input=$data/cbr128-${repeats}x60s.mp3
    bytes=$(( repeats * seed_bytes ))
    packets=$(( repeats * seed_packets ))   # MPEG frames, counted by ffprobe
    if [[ ! -s $input || $(stat -c %s "$input") -ne $bytes ]]; then
        echo "bench: building $input ($repeats copies of $seed)"
        for (( i = 0; i < repeats; i++ )); do cat "$seed"; done >"$input.part"
        mv "$input.part" "$input"
    fi
    # Warm the page cache (hyperfine's warm-up run then warms each tool as well).
    cat "$input" >/dev/null
    export BENCH_INPUT=$input BENCH_BYTES=$bytes BENCH_PACKETS=$packets BENCH_REPEATS=$repeats
}

# What every report states: where, when, with what, and how often.
export BENCH_DOC=$doc BENCH_RUNS=$runs BENCH_RATE=$rate BENCH_SEED=$seed_recipe
export BENCH_CPU=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
export BENCH_NPROC=$(nproc)
export BENCH_MEM=$(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)
export BENCH_KERNEL=$(uname -sr)
export BENCH_V_SWIFT=$(swift --version 2>&1 | head -n1)
export BENCH_V_HYPERFINE=$(hyperfine --version)
# The revision measured; "-dirty" when code differs from it (the report this script rewrites does not count).
BENCH_REV=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
git diff --quiet HEAD -- . ":(exclude)docs/benchmarks.md" 2>/dev/null || BENCH_REV="$BENCH_REV-dirty"
export BENCH_REV

# --- Parse speed ------------------------------------------------------------
bench_parse() {
    use_input $(( (target_mb * 1000000 + seed_bytes - 1) / seed_bytes ))

    # Refuse to time a parser that does not find every frame.
    local scan found
    scan=$("$audiostream" scan "$input")
    found=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["packets"])' "$scan")
    [[ $found -eq $packets ]] || { echo "bench: audiostream found $found packets, ffprobe $packets" >&2; exit 1; }

    local cmd_as="$audiostream scan $input"
    local cmd_ff="ffmpeg -v error -i $input -c copy -f null -"
    local cmd_gst="gst-launch-1.0 -q filesrc location=$input ! mpegaudioparse ! fakesink"
    local json=$data/parse-speed.json
    hyperfine --shell=none --warmup 1 --runs "$runs" --export-json "$json" \
        -n "audiostream scan" "$cmd_as" \
        -n "ffmpeg -c copy" "$cmd_ff" \
        -n "gst mpegaudioparse" "$cmd_gst"

    BENCH_JSON=$json BENCH_CMD_AS=$cmd_as BENCH_CMD_FF=$cmd_ff BENCH_CMD_GST=$cmd_gst \
    BENCH_V_FFMPEG=$(ffmpeg -version | head -n1 | sed "s/ Copyright.*//") \
    BENCH_V_GST=$(gst-launch-1.0 --version | head -n2 | paste -sd ';' | sed 's/;/; /') \
        python3 "$here/parse_speed_report.py"
    echo "bench: wrote the parse section of $doc"
}

# --- Decode speed -----------------------------------------------------------
# pcm_digest COMMAND...: "MD5 BYTES" of what the command writes to standard output.
pcm_digest() {
    "$@" | python3 -c '
import hashlib, sys
md5, size = hashlib.md5(), 0
while chunk := sys.stdin.buffer.read(1 << 20):
    md5.update(chunk)
    size += len(chunk)
print(md5.hexdigest(), size)'
}

bench_decode() {
    use_input "$decode_minutes"

    # Refuse to time a decoder whose output is not mpg123's, byte for byte.
    local ours theirs
    ours=$(pcm_digest "$audiostream" decode --raw "$input")
    theirs=$(pcm_digest mpg123 -q -s "$input")
    [[ $ours == "$theirs" ]] ||
        { echo "bench: audiostream decode gives (MD5 bytes) $ours, mpg123 $theirs: not timing" >&2; exit 1; }

    local cmd_as="$audiostream decode --raw $input"
    local cmd_mpg123="mpg123 -q -s $input"
    local json=$data/decode-speed.json
    hyperfine --shell=none --output=null --warmup 1 --runs "$runs" --export-json "$json" \
        -n "audiostream decode --raw" "$cmd_as" \
        -n "mpg123 -s" "$cmd_mpg123"

    BENCH_JSON=$json BENCH_CMD_AS=$cmd_as BENCH_CMD_MPG123=$cmd_mpg123 \
    BENCH_PCM_MD5=${ours% *} BENCH_PCM_BYTES=${ours#* } \
    BENCH_V_MPG123=$(mpg123 --version | head -n1) \
    BENCH_V_LIBMPG123=$(pkg-config --modversion libmpg123 2>/dev/null || echo unknown) \
    BENCH_DECODER=$(mpg123 -t -v -n 1 "$seed" 2>&1 | sed -n 's/^Decoder: //p') \
        python3 "$here/decode_speed_report.py"
    echo "bench: wrote the decode section of $doc"
}

# --- Live fan-out -----------------------------------------------------------
# icecast_config PORT CLIENTS PASSWORD FOLDER: an Icecast 2.4 configuration on 127.0.0.1 with room for
# CLIENTS clients, no burst on connect (listeners start at the live edge, as audiostreamd's subscribers
# do with burst 0), and a source timeout longer than connecting thousands of listeners takes.
icecast_config() {
    local port=$1 clients=$2 password=$3 folder=$4 owner=''
    # Icecast refuses to run as root unless told whom to become (Debian's package makes the icecast2 user).
    if [[ $(id -u) -eq 0 ]]; then owner='<changeowner><user>icecast2</user><group>icecast</group></changeowner>'; fi
    cat <<EOF
<icecast>
  <location>localhost</location>
  <admin>bench@localhost</admin>
  <limits>
    <clients>$clients</clients>
    <sources>2</sources>
    <queue-size>524288</queue-size>
    <client-timeout>30</client-timeout>
    <header-timeout>15</header-timeout>
    <source-timeout>60</source-timeout>
    <burst-on-connect>0</burst-on-connect>
    <burst-size>0</burst-size>
  </limits>
  <authentication>
    <source-password>$password</source-password>
    <admin-user>admin</admin-user>
    <admin-password>$password</admin-password>
  </authentication>
  <hostname>127.0.0.1</hostname>
  <listen-socket><port>$port</port><bind-address>127.0.0.1</bind-address></listen-socket>
  <fileserve>0</fileserve>
  <paths>
    <basedir>/usr/share/icecast2</basedir>
    <logdir>$folder</logdir>
    <webroot>/usr/share/icecast2/web</webroot>
    <adminroot>/usr/share/icecast2/admin</adminroot>
  </paths>
  <logging><accesslog>access.log</accesslog><errorlog>error.log</errorlog><loglevel>2</loglevel></logging>
  <security><chroot>0</chroot>$owner</security>
</icecast>
EOF
}

# free_port: a TCP port on 127.0.0.1 that nothing listens on now.
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# run_logged COMMAND...: records the command, as run, in the commands file the report quotes, then runs it.
run_logged() {
    printf '%s\n' "$*" >>"$commands"
    "$@"
}

icecast_pid=''
stop_icecast() {
    [[ -n $icecast_pid ]] || return 0
    kill "$icecast_pid" 2>/dev/null || true
    wait "$icecast_pid" 2>/dev/null || true
    icecast_pid=''
}

# start_icecast FOLDER N: starts Icecast with room for N listeners on a free port; sets icecast_pid and port.
start_icecast() {
    local folder=$1 n=$2 tries=0
    port=$(free_port)
    mkdir -m 777 "$folder"   # Icecast writes its logs there after switching to the icecast2 user
    icecast_config "$port" $(( n + 100 )) "$password" "$folder" >"$folder/icecast.xml"
    printf '%s\n' "icecast2 -c $folder/icecast.xml" >>"$commands"
    icecast2 -c "$folder/icecast.xml" >"$folder/icecast.out" 2>&1 &
    icecast_pid=$!
    until (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do
        (( ++tries < 100 )) || { echo "bench: Icecast did not start:" >&2; cat "$folder/icecast.out" >&2; exit 1; }
        sleep 0.1
    done
}

bench_daemon() {
    local most=0 n
    for n in $subscriber_counts; do (( n > most )) && most=$n; done
    # The generator and the relay it measures each hold a socket per subscriber.
    ulimit -n "$(ulimit -Hn)"
    (( $(ulimit -n) >= most + 200 )) ||
        { echo "bench: open-file limit $(ulimit -n) is too low for $most subscribers" >&2; exit 1; }

    # Short, as socket paths must fit in 108 bytes, and open to the icecast2 user.
    work=$(mktemp -d /tmp/audiostream-bench.XXXXXX)
    chmod 755 "$work"
    trap 'stop_icecast; rm -rf "$work"' EXIT
    password=bench-$RANDOM$RANDOM
    commands=$data/daemon-commands.txt
    : >"$commands"
    local common=(--input "$seed" --warmup 3 --seconds "$window" --tail 2) reports=()
    for n in $subscriber_counts; do
        echo "bench: audiostreamd, $n subscribers"
        mkdir "$work/daemon-$n"
        run_logged "$build/SubscriberLoad" daemon --daemon "$build/audiostreamd" --folder "$work/daemon-$n" \
            --subscribers "$n" "${common[@]}" --report "$data/daemon-$n.json"

        echo "bench: Icecast, $n listeners"
        start_icecast "$work/icecast-$n" "$n"
        run_logged "$build/SubscriberLoad" icecast --port "$port" --pid "$icecast_pid" --password "$password" \
            --subscribers "$n" "${common[@]}" --report "$data/icecast-$n.json"
        stop_icecast
        reports+=("$data/daemon-$n.json" "$data/icecast-$n.json")
    done

    BENCH_REPORTS="${reports[*]}" BENCH_COMMANDS=$commands BENCH_SEED_FILE=$seed BENCH_SEED_BYTES=$seed_bytes \
    BENCH_SEED_PACKETS=$seed_packets BENCH_V_ICECAST=$(icecast2 -v) \
        python3 "$here/daemon_report.py"
    echo "bench: wrote the live fan-out section of $doc"
}

if wants parse; then bench_parse; fi
if wants decode; then bench_decode; fi
if wants daemon; then bench_daemon; fi
