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
# Extra arguments go to libFuzzer, e.g. `bash Fuzz/fuzz.sh -minimize_crash=1 -runs=10000 crash-file`.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$here/.."

seconds=${FUZZ_SECONDS:-60}
dir=${FUZZ_DIR:-.build-fuzz}
swiftc=${SWIFTC:-swiftc}
# Fixtures of these types seed the corpus: every format the library reads or is to read.
seed_extensions=(mp3 mp2 bit aac adts ac3 eac3 ogg opus flac wav aif aiff caf m4a mp4)
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
    "$swiftc" "${flags[@]}" -module-name AudioFileStream -emit-module -emit-module-path "$dir/AudioFileStream.swiftmodule" \
        -wmo -c -o "$dir/AudioFileStream.o" "${library[@]}"
    "$swiftc" "${flags[@]}" -module-name AudioFileStreamFuzz -I "$dir" -use-ld=lld \
        Fuzz/*.swift "${shared[@]}" "$dir/AudioFileStream.o" -o "$target"
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
# Past findings are fuzzer inputs already, control header included.
find Tests/Fixtures/fuzz -type f -exec cp {} "$dir/seeds/" \; 2>/dev/null || true
echo "fuzz: $(ls "$dir/seeds" | wc -l) seeds; crashes and broken invariants are written to $dir/artifacts/"

status=0
"$target" -max_total_time="$seconds" -rss_limit_mb=2048 -malloc_limit_mb=256 -timeout=10 \
    -max_len=$((seed_bytes + 16)) -dict=Fuzz/audio.dict -artifact_prefix="$dir/artifacts/" -print_final_stats=1 \
    "$@" "$dir/corpus" "$dir/seeds" || status=$?
if [ "$status" -ne 0 ]; then
    echo "fuzz: found a crash or a broken invariant; the input is in $dir/artifacts/. Shrink it with"
    echo "  $target -minimize_crash=1 -runs=20000 -artifact_prefix=$dir/artifacts/min- $dir/artifacts/<file>"
    echo "then commit it under Tests/Fixtures/fuzz/ (FuzzRegressionTests replays that folder)."
fi
exit "$status"
