#!/usr/bin/env bash
# Installs audiostreamd, audiostream (with audiostream-fetch, its reader of URLs), the systemd units and a default configuration (`make install` runs it
# after a release build). Settings, from the environment:
#   PREFIX=/usr/local            binaries in PREFIX/bin, the demo MP3 in PREFIX/share/audiostreamd
#   DESTDIR=                     staging root prepended to every path written (the files name the real paths)
#   UNITDIR=/etc/systemd/system  the units
#   SYSCONFDIR=/etc              SYSCONFDIR/audiostreamd/config.yaml (only if absent) and SYSCONFDIR/sysusers.d
#   BUILD=.build/release         where the built binaries are (the tests use .build/debug)
#   SYSUSERS=auto                auto: create the audiostreamd user with systemd-sysusers when DESTDIR is
#                                empty and we are root; no: never
# Idempotent: binaries, units and the demo are replaced, an existing config.yaml is kept.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
PREFIX=${PREFIX:-/usr/local}
DESTDIR=${DESTDIR:-}
UNITDIR=${UNITDIR:-/etc/systemd/system}
SYSCONFDIR=${SYSCONFDIR:-/etc}
BUILD=${BUILD:-.build/release}
SYSUSERS=${SYSUSERS:-auto}

fail() { echo "install.sh: $*" >&2; exit 1; }
for name in PREFIX UNITDIR SYSCONFDIR; do
    value=${!name}
    [[ $value == /* ]] || fail "$name must be an absolute path, not '$value'"
    # No trailing slash, so that PREFIX=/opt/x/ gives /opt/x/bin.
    value=${value%/}
    printf -v "$name" '%s' "${value:-/}"
done
[[ $BUILD == /* ]] || BUILD=$root/$BUILD
binaries=(audiostreamd audiostream audiostream-fetch)
for binary in "${binaries[@]}"; do
    [ -x "$BUILD/$binary" ] || fail "$BUILD/$binary is missing: build it first (make install does)"
done

# The files in systemd/ name the default paths; these give them the real ones.
escape() { printf '%s' "$1" | sed 's/[\\|&]/\\&/g'; }
substitute=(-e "s|/usr/local/|$(escape "$PREFIX")/|g" -e "s|/etc/audiostreamd/|$(escape "$SYSCONFDIR")/audiostreamd/|g")

# put MODE SOURCE TARGET [sed]: installs SOURCE as DESTDIR/TARGET, through the substitution when asked.
put() {
    local mode=$1 source=$2 target=$DESTDIR$3
    install -d -m 0755 "$(dirname "$target")"
    if [ "${4:-}" = sed ]; then
        local temporary
        temporary=$(mktemp)
        sed "${substitute[@]}" "$source" >"$temporary"
        install -m "$mode" "$temporary" "$target"
        rm -f "$temporary"
    else
        install -m "$mode" "$source" "$target"
    fi
    echo "installed $target"
}

# audiostream runs audiostream-fetch from its own folder: they stay side by side.
for binary in "${binaries[@]}"; do
    put 0755 "$BUILD/$binary" "$PREFIX/bin/$binary"
done
put 0644 "$root/demo/demo.mp3" "$PREFIX/share/audiostreamd/demo.mp3"
put 0644 "$root/docs/operations.md" "$PREFIX/share/doc/audiostreamd/operations.md"
for unit in "$root"/systemd/*.service "$root"/systemd/*.socket; do
    put 0644 "$unit" "$UNITDIR/$(basename "$unit")" sed
done
put 0644 "$root/systemd/audiostreamd.sysusers" "$SYSCONFDIR/sysusers.d/audiostreamd.conf"

# Never overwrite an operator's configuration.
config=$SYSCONFDIR/audiostreamd/config.yaml
if [ -e "$DESTDIR$config" ]; then
    echo "kept $DESTDIR$config (already there; the new default is $root/systemd/config.yaml)"
else
    put 0644 "$root/systemd/config.yaml" "$config" sed
fi

# The service runs as the system user audiostreamd, which the socket units also need.
if [ -z "$DESTDIR" ] && [ "$SYSUSERS" = auto ] && [ "$(id -u)" -eq 0 ] && command -v systemd-sysusers >/dev/null; then
    systemd-sysusers "$SYSCONFDIR/sysusers.d/audiostreamd.conf"
    echo "user audiostreamd: $(id audiostreamd)"
elif [ -z "$DESTDIR" ] && ! getent passwd audiostreamd >/dev/null; then
    echo "note: create the user audiostreamd before starting the units:" \
        "systemd-sysusers $SYSCONFDIR/sysusers.d/audiostreamd.conf (as root)"
fi

# The Swift runtime is found through the binary's RUNPATH (the toolchain that built it, unless it was linked
# with --static-swift-stdlib): it must stay installed, outside /home and /root, which the service cannot see.
if runpath=$(readelf -d "$BUILD/audiostreamd" 2>/dev/null | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p') \
    && [[ $runpath =~ (^|:)(/home|/root|/run/user) ]]; then
    echo "warning: audiostreamd loads the Swift runtime from $runpath, which ProtectHome=yes hides from the" \
        "service: install a toolchain outside /home and /root, or build with --static-swift-stdlib" >&2
fi

if [ -z "$DESTDIR" ]; then
    echo "next: systemctl daemon-reload && systemctl enable --now audiostreamd.socket audiostreamd.service"
fi
