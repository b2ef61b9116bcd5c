#!/usr/bin/env bash
# Runs the built tests. On failure the failed expectations are printed again at the end, where a log cut to
# its tail still shows them.
set -uo pipefail
swift=${SWIFT:-swift}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$swift" test --skip-build 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
if [ "$status" -ne 0 ]; then
    echo "---- failed expectations, again ----"
    grep -E "recorded an issue|^\S*↳|error:|Fatal|crash" "$log" | grep -v "^✘ Suite" | tail -n 80
fi
exit "$status"
