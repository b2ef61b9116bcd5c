#!/usr/bin/env bash
# Checks the systemd units and the installed config, without a running systemd (CI runs in a container):
#   1. stages an install (scripts/install.sh into a temporary DESTDIR, with the binaries in BUILD);
#   2. systemd-analyze verify --root=STAGE on the staged units: syntax, dependencies, ExecStart= binaries;
#      any warning fails too;
#   3. systemd-analyze security --offline=true: the service's overall exposure must be <= MAX_EXPOSURE (2.0);
#   4. the staged config.yaml, and its commented radio example, pass `audiostreamd --check`;
#   5. the sysusers.d file creates the user audiostreamd (systemd-sysusers --dry-run);
#   6. the binaries and the libraries they load need no executable stack (MemoryDenyWriteExecute=yes).
# Settings, from the environment: BUILD (default .build/release, else .build/debug), PREFIX (/usr/local),
# MAX_EXPOSURE (2.0). Exits 0 when all pass.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
PREFIX=${PREFIX:-/usr/local}
MAX_EXPOSURE=${MAX_EXPOSURE:-2.0}
if [ -z "${BUILD:-}" ]; then
    BUILD=$root/.build/release
    [ -x "$BUILD/audiostreamd" ] || BUILD=$root/.build/debug
fi
unitdir=/etc/systemd/system

fail() { echo "check-units: FAILED: $*" >&2; exit 1; }
command -v systemd-analyze >/dev/null \
    || fail "systemd-analyze is missing: apt-get install systemd (make test installs it)"

stage=$(mktemp -d /tmp/audiostreamd-units.XXXXXX)
trap 'rm -rf "$stage"' EXIT

echo "== install into $stage"
DESTDIR=$stage PREFIX=$PREFIX UNITDIR=$unitdir SYSCONFDIR=/etc BUILD=$BUILD SYSUSERS=no \
    bash "$root/scripts/install.sh" >"$stage.log" 2>&1 || { cat "$stage.log" >&2; rm -f "$stage.log"; fail "install.sh"; }
rm -f "$stage.log"

# verify --root resolves dependencies (sysinit.target, sockets.target, …) under the root: give it the
# distribution's units.
for system in /usr/lib/systemd/system /lib/systemd/system; do
    if [ -e "$system/sysinit.target" ]; then
        mkdir -p "$stage/usr/lib/systemd"
        cp -a "$system" "$stage/usr/lib/systemd/"
        break
    fi
done
[ -e "$stage/usr/lib/systemd/system/sysinit.target" ] || fail "no sysinit.target in /usr/lib/systemd/system"

units=("$stage$unitdir/audiostreamd.service" "$stage$unitdir/audiostreamd.socket"
       "$stage$unitdir/audiostreamd-control.socket" "$stage$unitdir/audiostreamd-stream@jazz.socket")
echo "== systemd-analyze verify --root=$stage ${units[*]#"$stage"}"
status=0
output=$(cd "$stage" && systemd-analyze verify --root="$stage" "${units[@]}" 2>&1) || status=$?
[ -z "$output" ] || echo "$output"
[ "$status" -eq 0 ] || fail "systemd-analyze verify exited $status"
[ -z "$output" ] || fail "systemd-analyze verify warned (above)"
echo "verify: no errors, no warnings"

echo "== systemd-analyze security --offline=true audiostreamd.service"
report=$(systemd-analyze security --offline=true --root="$stage" "$stage$unitdir/audiostreamd.service" 2>&1) \
    || { echo "$report"; fail "systemd-analyze security failed"; }
echo "$report" | grep -E '^✗' || true
overall=$(echo "$report" | grep -E 'Overall exposure level' || true)
echo "$overall"
exposure=$(echo "$overall" | sed -nE 's/.*: ([0-9]+\.[0-9]+) .*/\1/p')
[ -n "$exposure" ] || { echo "$report"; fail "no 'Overall exposure level' line in the report"; }
awk -v e="$exposure" -v m="$MAX_EXPOSURE" 'BEGIN { exit !(e <= m) }' \
    || fail "exposure $exposure is above $MAX_EXPOSURE: harden systemd/audiostreamd.service"

echo "== audiostreamd --check on the installed config (paths moved into the stage)"
daemon=$stage$PREFIX/bin/audiostreamd
config=$stage/etc/audiostreamd/config.yaml
sed "s|$PREFIX/|$stage$PREFIX/|g" "$config" >"$stage/config.yaml"
"$daemon" --check --config "$stage/config.yaml" || fail "the installed config.yaml does not pass --check"
# The commented radio example, uncommented, must stay valid too.
sed -E 's/^  # ( *)(- name|source|socket|path|mode|connectTimeout|stallTimeout|reconnect)/  \1\2/' \
    "$stage/config.yaml" >"$stage/config-radio.yaml"
grep -q 'name: jazz' "$stage/config-radio.yaml" || fail "the commented radio example is gone from config.yaml"
"$daemon" --check --config "$stage/config-radio.yaml" || fail "config.yaml's commented radio example does not pass --check"

if command -v systemd-sysusers >/dev/null; then
    echo "== systemd-sysusers --dry-run on the staged sysusers.d/audiostreamd.conf"
    users=$(systemd-sysusers --root="$stage" --dry-run 2>&1) || { echo "$users"; fail "systemd-sysusers refused it"; }
    echo "$users" | grep -E "^Creating (user|group)"
    echo "$users" | grep -q "^Creating user 'audiostreamd'" || { echo "$users"; fail "no user audiostreamd"; }
fi

echo "== executable stacks (MemoryDenyWriteExecute=yes refuses them)"
for binary in "$daemon" "$stage$PREFIX/bin/audiostream"; do
    for file in "$binary" $(ldd "$binary" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }'); do
        if readelf -lW "$file" | awk '$1 == "GNU_STACK" && $NF ~ /E/ { found = 1 } END { exit !found }'; then
            fail "$file wants an executable stack, which MemoryDenyWriteExecute=yes refuses"
        fi
    done
done
echo "none"

echo "check-units: OK (exposure $exposure <= $MAX_EXPOSURE)"
