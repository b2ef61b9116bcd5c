#!/usr/bin/env bash
# Builds the libFuzzer targets with AddressSanitizer, seeds each one's corpus from the fixtures and fuzzes each for
# FUZZ_SECONDS. The targets:
#   audiofilestream  the parser (Fuzz/AudioFileStream), checked by Tests/FixtureSupport/StreamInvariants.swift;
#                    findings go to Tests/Fixtures/fuzz/
#   icy              what a station controls in the daemon: the ICY demuxer, the metadata reader, its JSON and the
#                    block relayed to listeners (Fuzz/ICY), checked by Tests/StreamDaemonTests/Support/ICYInvariants.swift;
#                    findings go to Tests/Fixtures/fuzz-icy/
#   tagedit          `audiostream tags --set … -o`: a file's tags edited in its own key space (Fuzz/TagEdit), checked
#                    by Tests/AudioFileWritingTests/TagEditInvariants.swift (the edited file's packets are the
#                    input's); findings go to Tests/Fixtures/fuzz-tagedit/
#   hls              the HLS segmenter (Fuzz/HLS): what the parser finds in a fuzzed scenario cut into segments and
#                    parts, checked by Tests/AudioHLSTests/HLSInvariants.swift (every playlist keeps RFC 8216bis's
#                    rules and names only files that are there); findings go to Tests/Fixtures/fuzz-hls/
# Each is a build of its own, not a SwiftPM target, so `swift build` and `make test` never compile or run it: the
# library sources are compiled as modules of their own (AudioFileStream; AudioStreamProtocol, which reads ICY bodies;
# the network-free ICY part of StreamDaemon, under its own module name so the shared checks import it as the tests
# do), then each target with its checks.
#
# Environment (all optional):
#   FUZZ_SECONDS   how long to fuzz each target                     (default 60)
#   FUZZ_TARGET    one target to run                                (default: every one, in turn)
#   FUZZ_DIR       build, corpus, seeds and crash artifacts         (default .build-fuzz, git-ignored)
#   SWIFTC         the compiler                                     (default swiftc)
# Arguments go to libFuzzer (e.g. -seed=1); a first argument --no-build skips the build.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$here/.."

seconds=${FUZZ_SECONDS:-60}
dir=${FUZZ_DIR:-.build-fuzz}
swiftc=${SWIFTC:-swiftc}
targets=(${FUZZ_TARGET:-audiofilestream icy tagedit hls})
# Seeds are cut to these many bytes: for the parser enough for headers, tags and dozens of packets, for ICY enough
# for a few blocks of the longest kind; small enough to mutate fast.
declare -A seed_bytes=([audiofilestream]=65536 [icy]=16384 [tagedit]=65536 [hls]=65536)
# -O keeps every precondition, bounds and overflow check (the library has no assert()), and -g names lines;
# -package-name as SwiftPM gives it, for `package` declarations.
flags=(-sanitize=fuzzer,address -O -g -swift-version 6 -parse-as-library -package-name audiostream -I Sources/CCRCFold/include -I "$dir")
# The part of StreamDaemon a station's ICY body reaches beyond AudioStreamProtocol, which needs no network: it builds
# alone.
icy_sources=(Sources/StreamDaemon/HTTP/ICYMetadataBlock.swift Sources/StreamDaemon/HTTP/NowPlaying.swift)
# The part of AudioRecording the segmenter uses (the stream's timeline, the clock, whole-file writes): the rest
# decodes FLAC through libavcodec, which this build does not link.
recording_sources=(Sources/AudioRecording/StreamTimeline.swift Sources/AudioRecording/SourceTrims.swift
    Sources/AudioRecording/WallClock.swift Sources/AudioRecording/PieceFile.swift Sources/AudioRecording/OpenPieces.swift
    Sources/AudioRecording/LeadInWindow.swift)

# Compiles Swift files into module $1 (an object and its interface in $dir); further arguments are files or flags.
module() {
    local name=$1
    shift
    "$swiftc" "${flags[@]}" -module-name "$name" -emit-module -emit-module-path "$dir/$name.swiftmodule" -wmo \
        -c -o "$dir/$name.o" "$@"
}

build() {
    mkdir -p "$dir"
    echo "fuzz: building the targets in $dir"
    # The parser's C part (CRC folding), instrumented the same way.
    "$(dirname "$(command -v "$swiftc")")/clang" -O2 -g -fsanitize=fuzzer-no-link,address \
        -I Sources/CCRCFold/include -c Sources/CCRCFold/crc_fold.c -o "$dir/crc_fold.o"
    mapfile -t library < <(find Sources/AudioFileStream -name '*.swift' | sort)
    module AudioFileStream "${library[@]}"
    # Standard library only, shared with the tests.
    module FixtureSupport Tests/FixtureSupport/Feeding.swift Tests/FixtureSupport/FuzzScenario.swift \
        Tests/FixtureSupport/StreamInvariants.swift Tests/FixtureSupport/PlaylistChecker.swift
    # The ICY demuxer and metadata reader, and the metadata events' JSON; no network either.
    mapfile -t protocol < <(find Sources/AudioStreamProtocol -name '*.swift' | sort)
    module AudioStreamProtocol -enable-testing "${protocol[@]}"
    module StreamDaemon -enable-testing "${icy_sources[@]}"
    local common=("$dir/AudioFileStream.o" "$dir/FixtureSupport.o" "$dir/crc_fold.o")
    "$swiftc" "${flags[@]}" -module-name AudioFileStreamFuzz -use-ld=lld Fuzz/AudioFileStream/*.swift \
        "${common[@]}" -o "$dir/fuzz-audiofilestream"
    "$swiftc" "${flags[@]}" -module-name ICYFuzz -use-ld=lld Fuzz/ICY/*.swift \
        Tests/StreamDaemonTests/Support/ICYInvariants.swift "${common[@]}" "$dir/AudioStreamProtocol.o" "$dir/StreamDaemon.o" \
        -o "$dir/fuzz-icy"
    # The writers, whose tag editors read the file's own structure (boxes, chunks, pages, blocks).
    mapfile -t writers < <(find Sources/AudioFileWriting -name '*.swift' | sort)
    module AudioFileWriting "${writers[@]}"
    "$swiftc" "${flags[@]}" -module-name TagEditFuzz -use-ld=lld Fuzz/TagEdit/*.swift \
        Tests/AudioFileWritingTests/TagEditInvariants.swift "$dir/AudioFileStream.o" "$dir/AudioFileWriting.o" \
        "$dir/crc_fold.o" -o "$dir/fuzz-tagedit"
    module AudioRecording "${recording_sources[@]}"
    mapfile -t hls < <(find Sources/AudioHLS -name '*.swift' | sort)
    module AudioHLS "${hls[@]}"
    "$swiftc" "${flags[@]}" -module-name HLSFuzz -use-ld=lld Fuzz/HLS/*.swift Tests/AudioHLSTests/HLSInvariants.swift \
        "${common[@]}" "$dir/AudioFileWriting.o" "$dir/AudioRecording.o" "$dir/AudioHLS.o" -o "$dir/fuzz-hls"
}

# Writes target $1's seeds into folder $2: fixtures behind the control header its scenario decodes.
seed() {
    case $1 in
    audiofilestream | hls)
        # Every format the library reads; header: no hint, chunk seed 1 (1…8192-byte chunks), no cuts (FuzzScenario).
        local extensions=(mp3 mp2 bit aac adts ac3 eac3 ogg opus oga flac wav aif aiff aifc caf m4a mp4 mov) tests=()
        for extension in "${extensions[@]}"; do tests+=(-o -name "*.$extension"); done
        while IFS= read -r fixture; do
            { printf '\000\000\000\001\000\000\000\000\000\000\000\000\000\000\000\000'; head -c "${seed_bytes[$1]}" "$fixture"
            } > "$2/$(basename "$fixture").seed"
        done < <(find Tests/Fixtures -path 'Tests/Fixtures/fuzz*' -prune -o -type f \( -false "${tests[@]}" \) -print | sort)
        ;;
    icy)
        # Recorded ICY bodies; header: their metaint − 1, chunk seed 1 (ICYScenario).
        for body in Tests/Fixtures/icy/*.body; do
            local metaint
            metaint=$(grep -o '"metaint": *[0-9]*' "${body%.body}.json" | grep -o '[0-9]*$')
            { printf "\\$(printf %03o $(((metaint - 1) >> 8)))\\$(printf %03o $(((metaint - 1) & 255)))\\000\\001"
              head -c "${seed_bytes[$1]}" "$body"; } > "$2/$(basename "$body").seed"
        done
        ;;
    tagedit)
        # A file of each kind whose tags are edited, as it is (no control header).
        while IFS= read -r fixture; do
            head -c "${seed_bytes[$1]}" "$fixture" > "$2/$(basename "$fixture").seed"
        done < <(find Tests/Fixtures -path 'Tests/Fixtures/fuzz*' -prune -o -type f \( -name '*.mp3' -o -name '*.aac' \
            -o -name '*.flac' -o -name '*.ogg' -o -name '*.opus' -o -name '*.oga' -o -name '*.wav' -o -name '*.aif*' \
            -o -name '*.m4a' -o -name '*.mp4' -o -name '*.mov' \) -print | sort)
        ;;
    esac
}

findings_folder() {
    case $1 in
    audiofilestream) echo Tests/Fixtures/fuzz ;;
    icy) echo Tests/Fixtures/fuzz-icy ;;
    tagedit) echo Tests/Fixtures/fuzz-tagedit ;;
    hls) echo Tests/Fixtures/fuzz-hls ;;
    esac
}

if [ "${1:-}" != "--no-build" ]; then build; else shift; fi

status=0
for target in "${targets[@]}"; do
    binary="$dir/fuzz-$target"
    work="$dir/$target"
    [ -x "$binary" ] || { echo "fuzz: no target $target (built: audiofilestream icy tagedit hls)"; exit 2; }
    # Seeds are made afresh each run; what the fuzzer finds accumulates in corpus/.
    mkdir -p "$work/corpus" "$work/seeds" "$work/artifacts"
    rm -f "$work/seeds/"*
    seed "$target" "$work/seeds"
    # Past findings are fuzzer inputs already, control header included. Those still failing are left out, or the
    # fuzzer would stop on them before it starts.
    for finding in "$(findings_folder "$target")"/*; do
        [ -f "$finding" ] || continue
        if SWIFT_BACKTRACE=enable=no "$binary" "$finding" > /dev/null 2>&1; then
            cp "$finding" "$work/seeds/"
        else
            echo "fuzz: $finding still breaks an invariant (a known issue); not seeded"
        fi
    done
    echo "fuzz: $target for ${seconds}s from $(ls "$work/seeds" | wc -l) seeds; findings go to $work/artifacts/"
    # The HLS target reads what the parser reads: the parser's words.
    dictionary=Fuzz/$([ "$target" = hls ] && echo audiofilestream || echo "$target").dict
    # Fork mode with -ignore_crashes: a finding is saved and the run goes on for its whole time, so a known bug the
    # fuzzer meets again cannot hide the next one. Findings of this run are the artifacts newer than the marker.
    marker="$work/artifacts/.started"
    touch "$marker"
    SWIFT_BACKTRACE=enable=no "$binary" -fork=1 -ignore_crashes=1 -max_total_time="$seconds" -rss_limit_mb=2048 \
        -malloc_limit_mb=256 -timeout=10 -max_len=$((seed_bytes[$target] + 16)) -dict="$dictionary" \
        -artifact_prefix="$work/artifacts/" "$@" "$work/corpus" "$work/seeds" || status=$?
    mapfile -t found < <(find "$work/artifacts" -type f -newer "$marker" ! -name 'min-*')
    if [ "${#found[@]}" -gt 0 ]; then
        echo "fuzz: $target: ${#found[@]} inputs crashed or broke an invariant:"
        printf '  %s\n' "${found[@]}"
        echo "Replay one with \`$binary FILE\` (its message names the invariant), shrink it with"
        echo "  $binary -minimize_crash=1 -max_total_time=120 -artifact_prefix=$work/artifacts/min- FILE"
        echo "and commit the result under $(findings_folder "$target")/, which the tests replay."
        status=1
    fi
done
exit "$status"
