#!/usr/bin/env bash
# Builds the libFuzzer target of AudioFileStream with AddressSanitizer, seeds its corpus from the fixtures and
# fuzzes for FUZZ_SECONDS. Two compiles: the library as a module of its own, then the target (Fuzz/) with the
# checks it shares with the tests (Tests/FixtureSupport), which therefore see only the library's public API.
# Fuzz/ sits at the root beside Benchmarks/: a build of its own, not a SwiftPM target, so `swift build` and
# `make test` never compile or run it.
#
# Environment (all optional):
#   FUZZ_SECONDS   how long to fuzz                                 (default 60)
#   FUZZ_DIR       build, corpus, seeds and crash artifacts         (default .build-fuzz, git-ignored)
#   SWIFTC         the compiler                                     (default swiftc)
# Arguments go to libFuzzer (e.g. -seed=1); a first argument --no-build skips the build.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$here/.."

seconds=${FUZZ_SECONDS:-60}
dir=${FUZZ_DIR:-.build-fuzz}
swiftc=${SWIFTC:-swiftc}
# Fixtures of these types seed the corpus: every format the library reads or is to read.
seed_extensions=(mp3 mp2 bit aac adts ac3 eac3 ogg opus oga flac wav aif aiff aifc caf m4a mp4 mov)
# Seeds are cut to this many bytes: enough for headers, tags and dozens of packets, small enough to mutate fast.
seed_bytes=65536
# The control header seeds start with (see FuzzScenario): no hint, chunk seed 1 (1…8192-byte chunks), no cuts.
seed_header='\000\000\000\001\000\000\000\000\000\000\000\000\000\000\000\000'
# -O keeps every precondition, bounds and overflow check (the library has no assert()), and -g names lines.
flags=(-sanitize=fuzzer,address -O -g -swift-version 6 -parse-as-library)
# Standard library only, shared with the tests.
shared=(Tests/FixtureSupport/Feeding.swift Tests/FixtureSupport/FuzzScenario.swift
        Tests/FixtureSupport/StreamInvariants.swift)
target="$dir/fuzz-audiofilestream"

if [ "${1:-}" != "--no-build" ]; then
    mkdir -p "$dir"
    mapfile -t library < <(find Sources/AudioFileStream -name '*.swift' | sort)
    echo "fuzz: building $target"
    # The library's C part (CRC folding), instrumented the same way.
    "$(dirname "$(command -v "$swiftc")")/clang" -O2 -g -fsanitize=fuzzer-no-link,address \
        -I Sources/CCRCFold/include -c Sources/CCRCFold/crc_fold.c -o "$dir/crc_fold.o"
    "$swiftc" "${flags[@]}" -I Sources/CCRCFold/include -module-name AudioFileStream -emit-module \
        -emit-module-path "$dir/AudioFileStream.swiftmodule" -wmo -c -o "$dir/AudioFileStream.o" "${library[@]}"
    "$swiftc" "${flags[@]}" -I Sources/CCRCFold/include -module-name AudioFileStreamFuzz -I "$dir" -use-ld=lld \
        Fuzz/*.swift "${shared[@]}" "$dir/AudioFileStream.o" "$dir/crc_fold.o" -o "$target"
else
    shift
fi

# Seeds are made afresh each run; what the fuzzer finds accumulates in corpus/.
mkdir -p "$dir/corpus" "$dir/seeds" "$dir/artifacts"
rm -f "$dir/seeds/"*
name_tests=()
for extension in "${seed_extensions[@]}"; do name_tests+=(-o -name "*.$extension"); done
while IFS= read -r fixture; do
    { printf "$seed_header"; head -c "$seed_bytes" "$fixture"; } > "$dir/seeds/$(basename "$fixture").seed"
done < <(find Tests/Fixtures -path Tests/Fixtures/fuzz -prune -o -type f \( -false "${name_tests[@]}" \) -print | sort)
# Past findings are fuzzer inputs already, control header included. Those still failing are left out, or the
# fuzzer would stop on them before it starts.
for finding in Tests/Fixtures/fuzz/*; do
    [ -f "$finding" ] || continue
    if SWIFT_BACKTRACE=enable=no "$target" "$finding" > /dev/null 2>&1; then
        cp "$finding" "$dir/seeds/"
    else
        echo "fuzz: $finding still breaks an invariant (a known issue); not seeded"
    fi
done
echo "fuzz: $(ls "$dir/seeds" | wc -l) seeds; crashes and broken invariants are written to $dir/artifacts/"

# Fork mode with -ignore_crashes: a finding is saved and the run goes on for its whole time, so a known bug the
# fuzzer meets again cannot hide the next one. Findings of this run are the artifacts newer than the marker.
marker="$dir/artifacts/.started"
touch "$marker"
status=0
SWIFT_BACKTRACE=enable=no "$target" -fork=1 -ignore_crashes=1 -max_total_time="$seconds" -rss_limit_mb=2048 \
    -malloc_limit_mb=256 -timeout=10 -max_len=$((seed_bytes + 16)) -dict=Fuzz/audio.dict \
    -artifact_prefix="$dir/artifacts/" "$@" "$dir/corpus" "$dir/seeds" || status=$?
mapfile -t found < <(find "$dir/artifacts" -type f -newer "$marker" ! -name 'min-*')
if [ "${#found[@]}" -gt 0 ]; then
    echo "fuzz: ${#found[@]} inputs crashed or broke an invariant:"
    printf '  %s\n' "${found[@]}"
    echo "Replay one with \`$target FILE\` (its message names the invariant), shrink it with"
    echo "  $target -minimize_crash=1 -max_total_time=120 -artifact_prefix=$dir/artifacts/min- FILE"
    echo "and commit the result under Tests/Fixtures/fuzz/ (FuzzRegressionTests replays that folder)."
    status=1
fi
exit "$status"
