#!/usr/bin/env bash
# Benchmarks of audiostream against its peers, each in one run with the peers, on 128 kb/s CBR MP3s (adts: 128 kb/s
# AAC-LC in ADTS; flac: native FLAC); each writes its own section of docs/benchmarks.md:
#   parse:  `audiostream scan` against FFmpeg and GStreamer   ("## Parse speed (audiostream scan)")
#   adts:   `audiostream scan` of an ADTS file against FFmpeg and, when its aacparse is installed, GStreamer
#           ("## ADTS parse speed (audiostream scan)")
#   flac:   `audiostream scan` of a native FLAC file against FFmpeg and, when its flacparse is installed, GStreamer
#           ("## FLAC parse speed (audiostream scan)")
#   ogg:    `audiostream scan` of an Ogg Opus file against FFmpeg and, when its oggdemux is installed, GStreamer
#           ("## Ogg Opus parse speed (audiostream scan)")
#   wave:   `audiostream scan` of a 16-bit stereo WAVE file against FFmpeg ("## WAVE parse speed (audiostream scan)")
#   m4a:    `audiostream scan` of an M4A (AAC, moov first) against FFmpeg and, when its qtdemux is installed,
#           GStreamer ("## M4A parse speed (audiostream scan)")
#   decode: `audiostream decode --raw` against `mpg123 -s`   ("## Decode speed (audiostream decode)")
#   codecs: `audiostream decode --raw` of AAC-LC (ADTS) and of Opus against `ffmpeg -f s16le`, the same library
#           (libavcodec) behind another demuxer  ("## AAC decode speed (audiostream decode)", "## Opus decode
#           speed (audiostream decode)"), with the instructions both execute (callgrind) when valgrind is installed
#   daemon: audiostreamd fanning one live stream out to 1 to 5000 subscribers, against Icecast 2 with as
#           many HTTP listeners, both fed and read by SubscriberLoad, and what their writes alone cost
#           (SubscriberLoad floor)  ("## Live fan-out (audiostreamd)")
#   record: `audiostream record` cutting two hours of MP3 into 10-minute pieces against `ffmpeg -c copy -f segment`
#           ("## Recording (audiostream record)")
#   scale:  audiostreamd with 200 live streams × 50 subscribers, and one stream × 19,900 subscribers and as many
#           HTTP listeners, fed and read by SubscriberLoad, its memory followed every second ("## Many streams and
#           many subscribers (audiostreamd)")
#   hls:    1 and 1,000 Low-Latency HLS players of audiostreamd (SubscriberLoad hls), against 1,000 ICY listeners
#           of Icecast and of audiostreamd, in the same run ("## HLS: availability, listener latency and CPU
#           (audiostreamd)")
#   tree:   an origin audiostreamd and two audiostreamd relays of it (`relay:`), 10, 1,000 and 2,000 listeners at
#           each relay (SubscriberLoad tree), against Icecast with 2,000 listeners in the same run ("## Relay tree
#           (audiostreamd)")
# The parse benchmarks also count the instructions `audiostream scan` executes (valgrind's callgrind, when
# installed) on a smaller input of the same kind: a figure that, unlike wall time, a busy machine does not move.
#
# Environment (all optional):
#   AUDIOSTREAM     binary to time                            (default .build/release/audiostream)
#   BENCH_ONLY      run one benchmark: parse, adts, flac, ogg, wave, m4a, decode, codecs, daemon, record, scale, hls,
#                   loudness or tree (default all fourteen)
#   BENCH_LOUDNESS_MIN  minutes of audio measured by `audiostream loudness` (default 60)
#   BENCH_RECORD_MIN  minutes of audio recorded                (default 120)
#   BENCH_MB        size of each parse input in MB            (default 500)
#   BENCH_M4A_MB    size of the M4A input in MB, encoded whole (default 120: two hours of audio)
#   BENCH_COUNT_MB  size in MB of the input whose instructions are counted (default 50; 0: no count)
#   BENCH_BASELINE  an audiostream binary built from an earlier revision: its instructions are counted beside
#                   ours, on inputs where it finds the same packets (default none)
#   BENCH_BASELINE_REV  that revision                         (default: HEAD of the checkout holding the binary)
#   BENCH_DECODE_MIN  minutes of audio in the decode input    (default 40: ~1.5 s per decode)
#   BENCH_CODEC_MIN   minutes of audio in each codecs input   (default 20: ~2 s per AAC decode)
#   BENCH_CODEC_COUNT_MIN  minutes of audio in the larger input whose decode instructions are counted (default 3;
#                   0: no count)
#   BENCH_RUNS      timed runs per command                    (default 10, after 1 warm-up run)
#   BENCH_SUBSCRIBERS  subscriber counts of the daemon benchmark (default "1 100 1000 5000")
#   BENCH_WINDOW    seconds measured per count, after 3 s of warm-up (default 20)
#   BENCH_SCALE     the scale benchmark's runs with socket subscribers, each STREAMSxSUBSCRIBERS-PER-STREAM
#                   (default "200x50 1x19900": 19,900 as the hard open-file limit here is 20,000)
#   BENCH_SCALE_HTTP  its runs with HTTP listeners, the same way (default "1x19900")
#   BENCH_SCALE_WARMUP  seconds fed before its window (default 12: the streams' 10 s of history fill first)
#   BENCH_SCALE_WINDOW  seconds in its window, whose every frame each subscriber must receive (default 45: the
#                   generator keeps a latency per subscriber and frame of it)
#   BENCH_SCALE_MIN  minutes of audio fed, the daemon's memory followed over all of them (default 3)
#   BENCH_DATA      where the inputs are built                (default bench-data, git-ignored; seeds may be
#                   links to another checkout's)
#   BENCH_DOC       report to write                           (default docs/benchmarks.md)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$here/.."

audiostream=${AUDIOSTREAM:-.build/release/audiostream}
only=${BENCH_ONLY:-}
target_mb=${BENCH_MB:-500}
m4a_mb=${BENCH_M4A_MB:-120}
count_mb=${BENCH_COUNT_MB:-50}
baseline=${BENCH_BASELINE:-}
decode_minutes=${BENCH_DECODE_MIN:-40}
codec_minutes=${BENCH_CODEC_MIN:-20}
codec_count_minutes=${BENCH_CODEC_COUNT_MIN:-3}
record_minutes=${BENCH_RECORD_MIN:-120}
loudness_minutes=${BENCH_LOUDNESS_MIN:-60}
runs=${BENCH_RUNS:-10}
subscriber_counts=${BENCH_SUBSCRIBERS:-1 100 1000 5000}
window=${BENCH_WINDOW:-20}
scale_runs=${BENCH_SCALE:-200x50 1x19900}
scale_http_runs=${BENCH_SCALE_HTTP:-1x19900}
scale_warmup=${BENCH_SCALE_WARMUP:-12}
scale_window=${BENCH_SCALE_WINDOW:-45}
scale_minutes=${BENCH_SCALE_MIN:-3}
data=${BENCH_DATA:-bench-data}
doc=${BENCH_DOC:-docs/benchmarks.md}
build=$(dirname "$audiostream")

case $only in
    '' | parse | adts | flac | ogg | wave | m4a | decode | codecs | daemon | record | scale | hls | loudness | tree) ;;
    *) echo "bench: BENCH_ONLY must be parse, adts, flac, ogg, wave, m4a, decode, codecs, daemon, record, scale, hls," \
            "loudness or tree," \
            "not '$only'" >&2
       exit 1 ;;
esac
wants() { [[ -z $only || $only == "$1" ]]; }

need() { command -v "$1" >/dev/null || { echo "bench: $1 not found (make tool-deps)" >&2; exit 1; }; }
for tool in sox lame ffprobe hyperfine python3; do need "$tool"; done
if wants parse; then
    for tool in ffmpeg gst-launch-1.0; do need "$tool"; done
    gst-inspect-1.0 mpegaudioparse >/dev/null 2>&1 ||
        { echo "bench: GStreamer mpegaudioparse missing (gstreamer1.0-plugins-good)" >&2; exit 1; }
fi
if wants adts; then need ffmpeg; fi
if wants flac; then need ffmpeg; need flac; fi
if wants ogg; then need ffmpeg; need opusenc; fi
if wants wave; then need ffmpeg; fi
if wants m4a; then need ffmpeg; fi
if [[ -n $baseline ]]; then
    need valgrind
    [[ -x $baseline ]] || { echo "bench: BENCH_BASELINE $baseline is not an executable" >&2; exit 1; }
fi
if wants decode; then need mpg123; fi
if wants codecs; then need ffmpeg; need opusenc; fi
if wants daemon; then need icecast2; fi
if wants record || wants hls || wants loudness; then need ffmpeg; fi
if wants hls || wants tree; then need icecast2; fi
[[ -x $audiostream ]] || { echo "bench: $audiostream not built (swift build -c release)" >&2; exit 1; }
if wants daemon || wants scale || wants hls || wants loudness || wants tree; then
    for product in audiostreamd SubscriberLoad; do
        [[ -x $build/$product ]] || { echo "bench: $build/$product not built (swift build -c release)" >&2; exit 1; }
    done
fi

# --- Inputs -----------------------------------------------------------------
# One minute of 44.1 kHz stereo (pink noise left, 440 Hz right; sox -R makes it repeatable) encoded once
# per format so that every repetition is pure audio frames; each benchmark repeats its seed to its size.
#   mpeg: 128 kb/s CBR without a Xing/Info frame (lame -t).
#   adts: FFmpeg's AAC-LC encoder at 128 kb/s, bit-exact (no encoder tag); every ADTS frame carries its own
#         header, so copies concatenate into one valid stream.
#   ogg:  opusenc at 64 kb/s (20 ms packets); copies of an Ogg file concatenate into one valid chained stream.
#   flac: `flac -5` (4096-sample blocks). FLAC frames are numbered from the file's start, so copies of a file are
#         not one stream: an input of N minutes is encoded whole from N minutes of the same signal.
#   wave: the 16-bit stereo samples themselves; a WAVE file has one header, so it too is written whole.
#   m4a:  FFmpeg's AAC-LC encoder at 128 kb/s into an M4A with its moov first (+faststart); one moov indexes the
#         whole file, so an input of N minutes is encoded whole too.
#   opus: opusenc at 64 kb/s as for ogg, but encoded whole: one stream, not a chain, so that its decode is ffmpeg's
#         (ffmpeg decodes a chain as one stream, without trimming each link).
mkdir -p "$data"
wav_recipe="sox -R -n -r 44100 -c 2 -b 16 seed.wav synth 60 pinknoise sine 440 vol 0.5"
# flac_recipe SECONDS: the command that encodes SECONDS of the signal to seed.flac.
flac_recipe() {
    echo "sox -R -n -r 44100 -c 2 -b 16 -t raw - synth $1 pinknoise sine 440 vol 0.5 | flac --silent -5" \
        "--force-raw-format --endian=little --sign=signed --channels=2 --bps=16 --sample-rate=44100 -o seed.flac -"
}
# wave_recipe SECONDS: the command that writes SECONDS of the signal to seed.wav.
wave_recipe() {
    echo "sox -R -n -r 44100 -c 2 -b 16 seed.wav synth $1 pinknoise sine 440 vol 0.5"
}
# m4a_recipe SECONDS: the command that encodes SECONDS of the signal to seed.m4a.
m4a_recipe() {
    echo "sox -R -n -r 44100 -c 2 -b 16 -t raw - synth $1 pinknoise sine 440 vol 0.5 | ffmpeg -f s16le -ar 44100" \
        "-ac 2 -i - -c:a aac -b:a 128k -fflags +bitexact -flags:a +bitexact -movflags +faststart seed.m4a"
}
# opus_recipe SECONDS: the command that encodes SECONDS of the signal to seed.opus, as one stream.
opus_recipe() {
    echo "sox -R -n -r 44100 -c 2 -b 16 -t raw - synth $1 pinknoise sine 440 vol 0.5 | opusenc --quiet --bitrate 64" \
        "--serial 1 --raw --raw-rate 44100 --raw-chan 2 --raw-bits 16 - seed.opus"
}
# whole_recipe FORMAT SECONDS: the recipe of a format whose inputs are made whole (flac, wave, m4a, opus), else
# nothing.
whole_recipe() {
    case $1 in
        flac) flac_recipe "$2" ;;
        wave) wave_recipe "$2" ;;
        m4a) m4a_recipe "$2" ;;
        opus) opus_recipe "$2" ;;
    esac
}
declare -A recipe=(
    [mpeg]="$wav_recipe; lame -t --cbr -b 128 seed.wav seed.mp3"
    [adts]="$wav_recipe; ffmpeg -i seed.wav -c:a aac -b:a 128k -fflags +bitexact -flags:a +bitexact -f adts seed.aac"
    [flac]=$(flac_recipe 60)
    [ogg]="$wav_recipe; opusenc --quiet --bitrate 64 --serial 1 seed.wav seed.opus"
    [wave]=$(wave_recipe 60)
    [m4a]=$(m4a_recipe 60)
    [opus]=$(opus_recipe 60)
)
declare -A seed_file=([mpeg]=$data/seed-60s-cbr128.mp3 [adts]=$data/seed-60s-aac128.aac
                      [flac]=$data/seed-60s-flac5.flac [ogg]=$data/seed-60s-opus64.opus [wave]=$data/seed-60s-s16.wav
                      [m4a]=$data/seed-60s-aac128.m4a [opus]=$data/seed-60s-opus64-whole.opus)

# encode RECIPE FILE: runs RECIPE, as the reports quote it, in a scratch folder and moves the seed it writes to
# FILE (once).
encode() {
    local command=$1 file=$2 scratch
    [[ -s $file ]] && return 0
    echo "bench: encoding $file"
    scratch=$(mktemp -d "$data/seed.XXXXXX")
    (cd "$scratch" && eval "$command") </dev/null >"$scratch/log" 2>&1 ||
        { cat "$scratch/log" >&2; echo "bench: could not encode $file" >&2; exit 1; }
    mv "$scratch/seed.${file##*.}" "$file"
    rm -rf "$scratch"
}

# count_packets FILE: "RATE,PACKETS" as ffprobe counts them, not the code under test. A WAVE's packets are its
# frames (ffprobe's packets are blocks of them): its duration in samples.
count_packets() {
    local packets=nb_read_packets
    [[ $1 == *.wav ]] && packets=duration_ts
    ffprobe -v error -count_packets -select_streams a:0 -show_entries "stream=sample_rate,$packets" -of csv=p=0 "$1"
}

# use_seed FORMAT: encodes FORMAT's seed (once) by running its recipe; sets seed, seed_bytes, rate and
# seed_packets.
use_seed() {
    local format=$1
    seed=${seed_file[$format]}
    encode "${recipe[$format]}" "$seed"
    seed_bytes=$(stat -L -c %s "$seed")
    IFS=, read -r rate seed_packets < <(count_packets "$seed")
}

# use_input FORMAT REPEATS: builds (once) FORMAT's seed repeated REPEATS times, warms the page cache, and
# sets input, bytes and packets, exported with what else the report says about the input.
use_input() {
    local format=$1 repeats=$2 name
    use_seed "$format"
    name=${seed##*/seed-60s-}   # cbr128.mp3, aac128.aac, flac5.flac, opus64.opus, aac128.m4a
    input=$data/${name%.*}-${repeats}x60s.${name##*.}
    local made="${recipe[$format]}; cat ${seed##*/} × $repeats"
    if [[ -n $(whole_recipe "$format" 60) ]]; then
        made=$(whole_recipe "$format" $(( repeats * 60 )))
        encode "$made" "$input"
        bytes=$(stat -c %s "$input")
        IFS=, read -r rate packets < <(count_packets "$input")
    else
        bytes=$(( repeats * seed_bytes ))
        packets=$(( repeats * seed_packets ))   # frames, counted by ffprobe
        if [[ ! -s $input || $(stat -c %s "$input") -ne $bytes ]]; then
            echo "bench: building $input ($repeats copies of $seed)"
            for (( i = 0; i < repeats; i++ )); do cat "$seed"; done >"$input.part"
            mv "$input.part" "$input"
        fi
    fi
    # Warm the page cache (hyperfine's warm-up run then warms each tool as well).
    cat "$input" >/dev/null
    export BENCH_FORMAT=$format BENCH_SEED=${recipe[$format]} BENCH_MADE=$made BENCH_RATE=$rate
    export BENCH_INPUT=$input BENCH_BYTES=$bytes BENCH_PACKETS=$packets BENCH_REPEATS=$repeats
}

# repeats MB: how many copies of the current seed make at least MB megabytes.
repeats() { echo $(( ($1 * 1000000 + seed_bytes - 1) / seed_bytes )); }

# What every report states: where, when, with what, and how often.
export BENCH_DOC=$doc BENCH_RUNS=$runs
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

# run_logged COMMAND...: records the command, as run, in the commands file the report quotes, then runs it.
run_logged() {
    printf '%s\n' "$*" >>"$commands"
    "$@"
}

# --- Parse speed ------------------------------------------------------------
# scan_packets BINARY FILE: the packets `BINARY scan FILE` finds.
scan_packets() {
    "$1" scan "$2" | python3 -c 'import json,sys; print(json.load(sys.stdin)["packets"])'
}

# count_instructions FORMAT: if valgrind is installed, counts with callgrind the instructions `audiostream scan`
# executes on FORMAT's seed and on a BENCH_COUNT_MB input of it, and so for BENCH_BASELINE when it finds the same
# packets; the difference over the frames the larger input adds is the cost per frame, start-up excluded.
# Exports the inputs, BENCH_IR_COMMANDS (the commands as run), BENCH_IR_FILE ("revision<TAB>instructions on
# the seed<TAB>instructions on the larger input" lines, ours first) and BENCH_IR_SKIPPED (binaries not counted).
count_instructions() {
    local format=$1 i source rev copy found ir_seed ir
    unset BENCH_IR_FILE
    export BENCH_IR_SKIPPED=''
    (( count_mb > 0 )) && command -v valgrind >/dev/null || return 0
    need objcopy
    use_seed "$format"
    use_input "$format" "$(repeats "$count_mb")"
    commands=$data/$format-instructions-commands.txt
    export BENCH_IR_FILE=$data/$format-instructions.tsv BENCH_IR_COMMANDS=$commands BENCH_IR_SEED=$seed \
        BENCH_IR_SEED_PACKETS=$seed_packets BENCH_IR_INPUT=$input BENCH_IR_BYTES=$bytes BENCH_IR_PACKETS=$packets \
        BENCH_V_VALGRIND=$(valgrind --version)
    : >"$BENCH_IR_FILE"
    : >"$commands"
    local sources=("$audiostream") revs=("$BENCH_REV")
    if [[ -n $baseline ]]; then
        sources+=("$baseline")
        revs+=("${BENCH_BASELINE_REV:-$(git -C "$(dirname "$baseline")" rev-parse --short HEAD)}")
    fi
    for i in "${!sources[@]}"; do
        source=${sources[$i]} rev=${revs[$i]}
        if ! found=$(scan_packets "$source" "$input" 2>/dev/null); then
            not_counted "$rev" "its scan fails on this input"
            continue
        fi
        if [[ $found -ne $packets ]]; then
            not_counted "$rev" "it finds $found packets, ffprobe $packets"
            continue
        fi
        # valgrind 3.19 cannot read the DWARF 5 that Swift 6 writes: count a copy without debug information
        # (the same code), named after its revision so that the commands quoted say which is which. The
        # baseline's path is this machine's, so its copy is not quoted: the report says what it is instead.
        copy=$data/audiostream-$rev
        local strip=(objcopy --strip-debug "$source" "$copy")
        if (( i == 0 )); then run_logged "${strip[@]}"; else "${strip[@]}"; fi
        ir_seed=$(callgrind "$copy" "$seed")
        ir=$(callgrind "$copy" "$input")
        printf '%s\t%s\t%s\n' "$rev" "$ir_seed" "$ir" >>"$BENCH_IR_FILE"
    done
}

# not_counted REVISION REASON: says, and records for the report, that a binary's instructions are not counted.
not_counted() {
    echo "bench: not counting the instructions of $1 on $input: $2" >&2
    BENCH_IR_SKIPPED+="${BENCH_IR_SKIPPED:+; }\`$1\` ($2)"
}

# callgrind BINARY FILE: the instructions `BINARY scan FILE` executes, start-up included (logged).
callgrind() {
    echo "bench: counting the instructions of $1 scan $2" >&2
    run_logged valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" scan "$2" 2>&1 >/dev/null |
        sed -n 's/.*Collected : //p'
}

# bench_parse FORMAT [GSTREAMER_PARSER]: `audiostream scan` against FFmpeg (and GStreamer's parser) on a large
# input of FORMAT, after counting instructions on a smaller one.
bench_parse() {
    local format=$1 parser=${2:-}
    count_instructions "$format"
    use_seed "$format"
    use_input "$format" "$(repeats "$target_mb")"

    # Refuse to time a parser that does not find every frame.
    local found
    found=$(scan_packets "$audiostream" "$input")
    [[ $found -eq $packets ]] || { echo "bench: audiostream found $found packets, ffprobe $packets" >&2; exit 1; }

    local cmd_as="$audiostream scan $input"
    local cmd_ff="ffmpeg -v error -i $input -c copy -f null -"
    local cmd_gst="" timed=(-n "audiostream scan" "$cmd_as" -n "ffmpeg -c copy" "$cmd_ff")
    if [[ -n $parser ]]; then
        cmd_gst="gst-launch-1.0 -q filesrc location=$input ! $parser ! fakesink"
        timed+=(-n "gst $parser" "$cmd_gst")
    fi
    local json=$data/$format-parse-speed.json
    hyperfine --shell=none --warmup 1 --runs "$runs" --export-json "$json" "${timed[@]}"

    BENCH_JSON=$json BENCH_CMD_AS=$cmd_as BENCH_CMD_FF=$cmd_ff BENCH_CMD_GST=$cmd_gst \
    BENCH_V_FFMPEG=$(ffmpeg -version | head -n1 | sed "s/ Copyright.*//") \
    BENCH_V_GST=$(gst-launch-1.0 --version | head -n2 | paste -sd ';' | sed 's/;/; /') \
        python3 "$here/parse_speed_report.py"
    echo "bench: wrote the $format parse section of $doc"
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
    use_input mpeg "$decode_minutes"

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

# --- AAC and Opus decode speed ----------------------------------------------
# codec_instructions COMMAND...: the instructions COMMAND executes, start-up included, its output discarded
# (logged); valgrind 3.19 cannot read the DWARF 5 Swift writes, so ours runs as a copy without debug information.
codec_instructions() {
    echo "bench: counting the instructions of $*" >&2
    run_logged valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
        sed -n 's/.*Collected : //p'
}

# bench_codec_decode FORMAT: `audiostream decode --raw` against `ffmpeg -f s16le` on BENCH_CODEC_MIN minutes of
# FORMAT (adts or opus), after checking their PCM is the same; before that, when valgrind is installed, the
# instructions both execute on FORMAT's seed and on a BENCH_CODEC_COUNT_MIN-minute input, whose difference over
# the packets the larger one adds is the cost per packet, start-up excluded.
bench_codec_decode() {
    local format=$1 ours theirs copy
    commands=$data/$format-decode-commands.txt
    : >"$commands"
    unset BENCH_IR_FILE
    if (( codec_count_minutes > 0 )) && command -v valgrind >/dev/null; then
        need objcopy
        use_seed "$format"
        use_input "$format" "$codec_count_minutes"
        copy=$data/audiostream-$BENCH_REV
        run_logged objcopy --strip-debug "$audiostream" "$copy"
        export BENCH_IR_FILE=$data/$format-decode-instructions.tsv BENCH_IR_SEED=$seed \
            BENCH_IR_SEED_PACKETS=$seed_packets BENCH_IR_INPUT=$input BENCH_IR_PACKETS=$packets \
            BENCH_V_VALGRIND=$(valgrind --version)
        # One line a command, ours first: instructions on the seed, then on the larger input.
        {
            printf '%s\t%s\n' "$(codec_instructions "$copy" decode --raw "$seed")" \
                "$(codec_instructions "$copy" decode --raw "$input")"
            printf '%s\t%s\n' "$(codec_instructions ffmpeg -v error -nostdin -i "$seed" -f s16le -y /dev/null)" \
                "$(codec_instructions ffmpeg -v error -nostdin -i "$input" -f s16le -y /dev/null)"
        } >"$BENCH_IR_FILE"
    fi
    use_input "$format" "$codec_minutes"

    # Refuse to time a decoder whose output is not ffmpeg's, byte for byte.
    ours=$(pcm_digest "$audiostream" decode --raw "$input")
    theirs=$(pcm_digest ffmpeg -v error -nostdin -i "$input" -f s16le -)
    [[ $ours == "$theirs" ]] ||
        { echo "bench: audiostream decode gives (MD5 bytes) $ours, ffmpeg $theirs: not timing" >&2; exit 1; }

    local cmd_as="$audiostream decode --raw $input"
    local cmd_ff="ffmpeg -v error -nostdin -i $input -f s16le -y /dev/null"
    local json=$data/$format-decode-speed.json
    hyperfine --shell=none --output=null --warmup 1 --runs "$runs" --export-json "$json" \
        -n "audiostream decode --raw" "$cmd_as" \
        -n "ffmpeg -f s16le" "$cmd_ff"

    BENCH_JSON=$json BENCH_CMD_AS=$cmd_as BENCH_CMD_FF=$cmd_ff BENCH_IR_COMMANDS=$commands \
    BENCH_PCM_MD5=${ours% *} BENCH_PCM_BYTES=${ours#* } \
    BENCH_V_FFMPEG=$(ffmpeg -version | head -n1 | sed "s/ Copyright.*//") \
    BENCH_V_LIBAVCODEC=$(pkg-config --modversion libavcodec 2>/dev/null || echo unknown) \
        python3 "$here/codec_decode_report.py"
    echo "bench: wrote the $format decode section of $doc"
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
    use_seed mpeg
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
    local common=(--input "$seed" --warmup 3 --seconds "$window" --tail 2) reports=() floors=()
    for n in $subscriber_counts; do
        echo "bench: audiostreamd, $n subscribers"
        mkdir "$work/daemon-$n"
        run_logged "$build/SubscriberLoad" daemon --daemon "$build/audiostreamd" --folder "$work/daemon-$n" \
            --subscribers "$n" "${common[@]}" --report "$data/daemon-$n.json"

        echo "bench: audiostreamd, $n HTTP listeners"
        mkdir "$work/daemon-http-$n"
        run_logged "$build/SubscriberLoad" daemon --daemon "$build/audiostreamd" --folder "$work/daemon-http-$n" \
            --http-port "$(free_port)" --subscribers "$n" "${common[@]}" --report "$data/daemon-http-$n.json"

        echo "bench: Icecast, $n listeners"
        start_icecast "$work/icecast-$n" "$n"
        run_logged "$build/SubscriberLoad" icecast --port "$port" --pid "$icecast_pid" --password "$password" \
            --subscribers "$n" "${common[@]}" --report "$data/icecast-$n.json"
        stop_icecast
        reports+=("$data/daemon-$n.json" "$data/daemon-http-$n.json" "$data/icecast-$n.json")

        # What the writes alone cost on each schedule: audiostreamd's (the stream's 16,000 B/s in one write per
        # writeInterval of 0.1 s) over Unix sockets and TCP, and Icecast's (whole 1400-byte blocks) over TCP.
        echo "bench: write floor, $n sockets"
        # Over TCP audiostreamd sends through io_uring, and its floor is measured both ways.
        local schedule transport bytes rate sent_with
        for schedule in "unix 1600 10 send" "tcp 1600 10 io_uring" "tcp 1600 10 send" "tcp 1400 11.43 send"; do
            read -r transport bytes rate sent_with <<<"$schedule"
            run_logged "$build/SubscriberLoad" floor --subscribers "$n" --bytes "$bytes" --rate "$rate" \
                --seconds "$window" $([[ $transport == tcp ]] && echo --tcp) \
                $([[ $sent_with == io_uring ]] && echo --io-uring) \
                --report "$data/floor-$transport-$sent_with-$bytes-$n.json"
            floors+=("$data/floor-$transport-$sent_with-$bytes-$n.json")
        done
    done

    BENCH_REPORTS="${reports[*]}" BENCH_FLOORS="${floors[*]}" BENCH_COMMANDS=$commands BENCH_SEED_FILE=$seed BENCH_SEED_BYTES=$seed_bytes \
    BENCH_SEED_PACKETS=$seed_packets BENCH_SEED=${recipe[mpeg]} BENCH_V_ICECAST=$(icecast2 -v) \
        python3 "$here/daemon_report.py"
    echo "bench: wrote the live fan-out section of $doc"
}

# --- Many streams and many subscribers ---------------------------------------
# scale_run KIND STREAMSxN: one `SubscriberLoad scale` run of audiostreamd with STREAMS streams of N subscribers
# each (KIND socket) or N HTTP listeners (KIND http); adds its report to reports.
scale_run() {
    local kind=$1 streams=${2%x*} n=${2#*x} http=()
    local name=scale-$kind-${streams}x$n
    [[ $kind == http ]] && http=(--http-port "$(free_port)")
    echo "bench: audiostreamd, $streams streams × $n $kind subscribers"
    mkdir "$scale_work/$name"
    run_logged "$build/SubscriberLoad" scale --daemon "$build/audiostreamd" --folder "$scale_work/$name" "${http[@]}" \
        --streams "$streams" --subscribers "$n" --input "$input" --warmup "$scale_warmup" --seconds "$scale_window" \
        --tail "$scale_tail" --report "$data/$name.json"
    reports+=("$data/$name.json")
}

bench_scale() {
    local run most=0 reports=()
    use_input mpeg "$scale_minutes"
    # The rest of the input after the window, but for a second that rounding to whole frames may need.
    scale_tail=$(( scale_minutes * 60 - scale_warmup - scale_window - 1 ))
    (( scale_tail >= 2 )) ||
        { echo "bench: BENCH_SCALE_MIN is too short for BENCH_SCALE_WARMUP and BENCH_SCALE_WINDOW" >&2; exit 1; }
    for run in $scale_runs $scale_http_runs; do
        (( ${run%x*} * ${run#*x} > most )) && most=$(( ${run%x*} * ${run#*x} ))
    done
    # The generator and audiostreamd each hold a descriptor per subscriber, and a few dozen more.
    ulimit -n "$(ulimit -Hn)"
    (( $(ulimit -n) >= most + 64 )) ||
        { echo "bench: open-file limit $(ulimit -n) is too low for $most subscribers" >&2; exit 1; }
    scale_work=$(mktemp -d /tmp/audiostream-bench.XXXXXX)   # short: socket paths must fit in 108 bytes
    # The fan-out benchmark's folder too, when it ran first: this trap replaces its.
    trap 'stop_icecast; rm -rf "${work:-}" "$scale_work"' EXIT
    commands=$data/scale-commands.txt
    : >"$commands"
    for run in $scale_runs; do scale_run socket "$run"; done
    for run in $scale_http_runs; do scale_run http "$run"; done

    BENCH_REPORTS="${reports[*]}" BENCH_COMMANDS=$commands BENCH_SCALE_WARMUP=$scale_warmup \
        python3 "$here/scale_report.py"
    echo "bench: wrote the many-streams section of $doc"
}

# --- Recording ----------------------------------------------------------------
# bench_record: `audiostream record` against `ffmpeg -c copy -f segment`, both cutting BENCH_RECORD_MIN minutes of
# MP3 into 10-minute pieces in a fresh folder each run.
bench_record() {
    use_input mpeg "$record_minutes"
    local out=$data/record-out
    local cmd_as="$audiostream record $input -o $out/as/{n}.mp3 --every 600 --start-time 0"
    local cmd_ffmpeg="ffmpeg -v error -i $input -c copy -f segment -segment_time 600 $out/ffmpeg/%03d.mp3"
    local json=$data/record.json
    hyperfine --shell=none --output=null --warmup 1 --runs "$runs" --export-json "$json" \
        --prepare "sh -c 'rm -rf $out; mkdir -p $out/as $out/ffmpeg'" \
        -n "audiostream record" "$cmd_as" -n "ffmpeg -f segment" "$cmd_ffmpeg"
    # Once more, each into its own folder, for the files each makes.
    rm -rf "$out"; mkdir -p "$out/as" "$out/ffmpeg"
    $cmd_as >/dev/null
    $cmd_ffmpeg
    # Live: 20 streams read at real time, recorded by audiostreamd and by ffmpeg processes, over a minute.
    [[ -x $build/audiostreamd ]] || { echo "bench: $build/audiostreamd not built (swift build -c release)" >&2; exit 1; }
    local live_folder live_json=$data/record-live.json
    live_folder=$(mktemp -d /tmp/audiostream-bench.XXXXXX)   # short: socket paths must fit in 108 bytes
    local cmd_live="python3 Benchmarks/record_live.py --daemon $build/audiostreamd --input $seed --streams 20 --seconds 60 --warmup 5 --folder DIR --report $live_json"
    python3 "$here/record_live.py" --daemon "$build/audiostreamd" --input "$seed" --streams 20 --seconds 60 \
        --warmup 5 --folder "$live_folder/run" --report "$live_json"
    rm -rf "$live_folder"
    BENCH_LIVE_JSON=$live_json BENCH_CMD_LIVE=$cmd_live \
    BENCH_JSON=$json BENCH_CMD_AS=$cmd_as BENCH_CMD_FFMPEG=$cmd_ffmpeg \
    BENCH_PIECES_AS=$(ls "$out/as" | wc -l) BENCH_PIECES_FFMPEG=$(ls "$out/ffmpeg" | wc -l) \
    BENCH_V_FFMPEG=$(ffmpeg -version | head -n1) \
        python3 "$here/record_report.py"
    rm -rf "$out"
    echo "bench: wrote the recording section of $doc"
}

# begin_peer_bench NAME FILES: the HLS and tree benchmarks' common start: the open-file limit raised (FILES needed), a
# short work folder (socket paths must fit in 108 bytes) open to the icecast2 user and removed at the end with
# Icecast stopped, an Icecast password, and data/NAME-commands.txt, emptied, for the commands run.
begin_peer_bench() {
    use_seed mpeg
    ulimit -n "$(ulimit -Hn)"
    (( $(ulimit -n) >= $2 )) || { echo "bench: open-file limit $(ulimit -n) is too low ($2 needed)" >&2; exit 1; }
    work=$(mktemp -d /tmp/audiostream-bench.XXXXXX)
    chmod 755 "$work"
    trap 'stop_icecast; rm -rf "$work"' EXIT
    password=bench-$RANDOM$RANDOM
    commands=$data/$1-commands.txt
    : >"$commands"
}

# icecast_peer N REPORT ARGS…: Icecast with N listeners asking for ICY metadata, fed by SubscriberLoad with ARGS.
icecast_peer() {
    local n=$1 report=$2
    shift 2
    echo "bench: Icecast, $n ICY listeners"
    start_icecast "$work/icecast" "$n"
    run_logged "$build/SubscriberLoad" icecast --port "$port" --pid "$icecast_pid" --password "$password" \
        --icy-metadata --subscribers "$n" "$@" --report "$report"
    stop_icecast
}

# HLS: 1 and 1,000 Low-Latency HLS players of audiostreamd (how soon parts reach them, how late they play, what
# they cost), and 1,000 ICY listeners of Icecast and of audiostreamd, fed the same MP3 in the same run.
bench_hls() {
    local n=1000 window=20 players
    begin_peer_bench hls $(( n + 200 ))
    local common=(--input "$seed" --warmup 10 --seconds "$window" --tail 2) reports=()
    for players in 1 "$n"; do
        echo "bench: audiostreamd, $players LL-HLS players"
        mkdir "$work/hls-$players"
        run_logged "$build/SubscriberLoad" hls --daemon "$build/audiostreamd" --folder "$work/hls-$players" \
            --http-port "$(free_port)" --subscribers "$players" "${common[@]}" --report "$data/hls-$players.json"
        reports+=("$data/hls-$players.json")
    done
    icecast_peer "$n" "$data/hls-icecast-$n.json" "${common[@]}"
    echo "bench: audiostreamd, $n ICY listeners"
    mkdir "$work/icy"
    run_logged "$build/SubscriberLoad" daemon --daemon "$build/audiostreamd" --folder "$work/icy" --icy-metadata \
        --http-port "$(free_port)" --subscribers "$n" "${common[@]}" --report "$data/hls-icy-$n.json"
    BENCH_HLS_REPORTS="${reports[*]}" BENCH_ICECAST_JSON=$data/hls-icecast-$n.json BENCH_ICY_JSON=$data/hls-icy-$n.json \
    BENCH_COMMANDS=$commands BENCH_V_ICECAST=$(icecast2 -v) python3 "$here/hls_report.py"
    echo "bench: wrote the HLS section of $doc"
}

# Relay tree: an origin audiostreamd fed the MP3 at real time and two audiostreamd relays of it, with 10, 1,000 and
# 2,000 HTTP listeners at each relay and 20 at the origin (the hop's baseline); Icecast fanning the same MP3 out to
# 2,000 listeners, as a relay node does, in the same run; and how soon a sleeping on-demand relay's listener hears
# audio.
bench_tree() {
    local n=2000 per_relay window=20 reports=()
    begin_peer_bench tree $(( 2 * n + 300 ))
    local common=(--input "$seed" --warmup 5 --seconds "$window" --tail 2)
    for per_relay in 10 1000 "$n"; do
        echo "bench: relay tree, $per_relay listeners at each relay"
        mkdir "$work/tree-$per_relay"
        run_logged "$build/SubscriberLoad" tree --daemon "$build/audiostreamd" --folder "$work/tree-$per_relay" \
            --ports "$(free_port)" --ports "$(free_port)" --ports "$(free_port)" --subscribers "$per_relay" \
            "${common[@]}" --report "$data/tree-$per_relay.json"
        reports+=("$data/tree-$per_relay.json")
    done
    icecast_peer "$n" "$data/tree-icecast-$n.json" "${common[@]}"
    echo "bench: an on-demand relay's first audio"
    run_logged python3 "$here/ondemand_latency.py" --daemon "$build/audiostreamd" --input "$seed" --visits 20 \
        --folder "$work/ondemand" --report "$data/tree-ondemand.json"
    BENCH_TREE_REPORTS="${reports[*]}" BENCH_ICECAST_JSON=$data/tree-icecast-$n.json BENCH_COMMANDS=$commands \
    BENCH_ONDEMAND_JSON=$data/tree-ondemand.json BENCH_V_ICECAST=$(icecast2 -v) python3 "$here/tree_report.py"
    echo "bench: wrote the relay tree section of $doc"
}

# Loudness: `audiostream loudness` (sample peaks, and true peaks) against `ffmpeg -af ebur128=peak=true` on
# BENCH_LOUDNESS_MIN minutes of MP3; then the daemon's live meter (`monitor: {loudness: true}`) on 20 streams read
# at real time, against 20 ffmpeg processes metering the same input.
bench_loudness() {
    use_input mpeg "$loudness_minutes"
    local cmd_as="$audiostream loudness $input"
    local cmd_true="$audiostream loudness --true-peak $input"
    local cmd_ffmpeg="ffmpeg -v error -i $input -af ebur128=peak=true -f null -"
    local json=$data/loudness.json live_json=$data/loudness-live.json live_folder
    hyperfine --shell=none --output=null --warmup 1 --runs "$runs" --export-json "$json" \
        -n "audiostream loudness" "$cmd_as" -n "audiostream loudness --true-peak" "$cmd_true" \
        -n "ffmpeg ebur128" "$cmd_ffmpeg"
    [[ -x $build/audiostreamd ]] || { echo "bench: $build/audiostreamd not built (swift build -c release)" >&2; exit 1; }
    live_folder=$(mktemp -d /tmp/audiostream-bench.XXXXXX)   # short: socket paths must fit in 108 bytes
    local cmd_live="python3 Benchmarks/loudness_live.py --daemon $build/audiostreamd --input $seed --streams 20 --seconds 60 --warmup 5 --folder DIR --report $live_json"
    python3 "$here/loudness_live.py" --daemon "$build/audiostreamd" --input "$seed" --streams 20 --seconds 60 \
        --warmup 5 --folder "$live_folder/run" --report "$live_json"
    rm -rf "$live_folder"
    BENCH_LIVE_JSON=$live_json BENCH_CMD_LIVE=$cmd_live BENCH_JSON=$json BENCH_CMD_AS=$cmd_as \
    BENCH_CMD_TRUE=$cmd_true BENCH_CMD_FFMPEG=$cmd_ffmpeg BENCH_V_FFMPEG=$(ffmpeg -version | head -n1) \
        python3 "$here/loudness_report.py"
    echo "bench: wrote the loudness section of $doc"
}

if wants parse; then bench_parse mpeg mpegaudioparse; fi
if wants adts; then
    if gst-inspect-1.0 aacparse >/dev/null 2>&1; then bench_parse adts aacparse
    else echo "bench: GStreamer aacparse missing (gstreamer1.0-plugins-good): ADTS against FFmpeg alone" >&2; bench_parse adts; fi
fi
if wants flac; then
    if gst-inspect-1.0 flacparse >/dev/null 2>&1; then bench_parse flac flacparse
    else echo "bench: GStreamer flacparse missing (gstreamer1.0-plugins-good): FLAC against FFmpeg alone" >&2; bench_parse flac; fi
fi
if wants ogg; then
    if gst-inspect-1.0 oggdemux >/dev/null 2>&1; then bench_parse ogg oggdemux
    else echo "bench: GStreamer oggdemux missing (gstreamer1.0-plugins-base): Ogg against FFmpeg alone" >&2; bench_parse ogg; fi
fi
if wants wave; then bench_parse wave; fi
if wants m4a; then
    target_mb=$m4a_mb
    if gst-inspect-1.0 qtdemux >/dev/null 2>&1; then bench_parse m4a qtdemux
    else echo "bench: GStreamer qtdemux missing (gstreamer1.0-plugins-good): M4A against FFmpeg alone" >&2; bench_parse m4a; fi
fi
if wants decode; then bench_decode; fi
if wants codecs; then
    bench_codec_decode adts
    bench_codec_decode opus
fi
if wants daemon; then bench_daemon; fi
if wants record; then bench_record; fi
if wants scale; then bench_scale; fi
if wants hls; then bench_hls; fi
if wants tree; then bench_tree; fi
if wants loudness; then bench_loudness; fi
