#!/usr/bin/env bash
# tools/deps.sh - install Hako's build and test dependencies (Debian 12).
#
# Idempotent and non-interactive.  Checks for every tool the build and the
# harness need; when something is missing it installs the Debian packages
# (as root, or through sudo when available), first without refreshing the
# package index and, if that fails, after `apt-get update`.  pytest,
# matplotlib (the report's plots, `make report`), Markdown (the report's
# HTML page) and jsonschema (the result files' schema test) come from
# Debian's python3-pytest, python3-matplotlib, python3-markdown and
# python3-jsonschema and fall back to pip, at Debian 12's versions of the
# report's two, when the python3 on PATH does not see them (another Python
# than Debian's).
#
# QEMU must be version 10 or newer (QEMU 7.2, Debian 12's own, starves vCPUs
# under icount and cannot load Hako's cost-model plugin; docs/design/qemu.md).
# Debian 12 has QEMU 10 in its backports suite: this script adds that suite
# beside the machine's own Debian source entry (the same mirror and keyring,
# read from /etc/apt; no host is written here) and installs qemu-system-x86
# from it.  Prints a single line "deps: all present" when nothing needs doing.
#
# The Linux peer baseline (`./hako bench peer`) boots Debian's own kernel:
# `tools/deps.sh peer-kernel` (also run by the plain call) downloads the
# package the linux-image-amd64 metapackage of this release depends on with
# `apt-get download` and extracts only its /boot/vmlinuz-* into
# build/peer/vmlinuz, its name and version into build/peer/vmlinuz.package.
# Nothing is installed on the host: no kernel, no initramfs-tools run.
set -euo pipefail

export DEBIAN_FRONTEND=noninteractive

PACKAGES=(grub-pc-bin grub-common xorriso mtools gcc libc6-dev make
          binutils gdb python3 python3-pytest python3-matplotlib python3-markdown
          python3-jsonschema)
COMMANDS=(qemu-system-x86_64 grub-mkrescue xorriso mformat gcc make gdb python3)
QEMU_MAJOR_MIN=10
# glibc's static C library: the Linux peer's benchmark is linked with it.
STATIC_LIBC=/usr/lib/x86_64-linux-gnu/libc.a
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PEER_DIR="$ROOT/build/peer"
PEER_META=linux-image-amd64
BACKPORTS_LIST=/etc/apt/sources.list.d/hako-backports.sources

SUDO=()
# Another apt or dpkg at work (a second checkout's `make deps`, the
# system's own updates) holds dpkg's lock: wait for it instead of failing.
APT=(apt-get -o DPkg::Lock::Timeout=600)

say() { printf 'deps: %s\n' "$*"; }
die() { printf 'deps: error: %s\n' "$*" >&2; exit 1; }

have_pytest() {
    command -v python3 >/dev/null 2>&1 && python3 -m pytest --version >/dev/null 2>&1
}

have_jsonschema() {
    command -v python3 >/dev/null 2>&1 && python3 -c 'import jsonschema' >/dev/null 2>&1
}

have_matplotlib() {
    command -v python3 >/dev/null 2>&1 && python3 -c 'import matplotlib' >/dev/null 2>&1
}

have_markdown() {
    command -v python3 >/dev/null 2>&1 && python3 -c 'import markdown' >/dev/null 2>&1
}

# The major version of the installed QEMU, or 0 without one.
qemu_major() {
    local v
    v="$(qemu-system-x86_64 --version 2>/dev/null | sed -n 's/.*version \([0-9]*\)\..*/\1/p' | head -1)"
    echo "${v:-0}"
}

# Prints the missing commands (and "pytest", "qemu>=10"), one per line.
missing_tools() {
    local cmd
    for cmd in "${COMMANDS[@]}"; do
        command -v "$cmd" >/dev/null 2>&1 || echo "$cmd"
    done
    have_pytest || echo "pytest"
    [ -f "$STATIC_LIBC" ] || echo "libc.a"
    have_matplotlib || echo "matplotlib"
    have_markdown || echo "markdown"
    have_jsonschema || echo "jsonschema"
    if command -v qemu-system-x86_64 >/dev/null 2>&1 &&
       [ "$(qemu_major)" -lt "$QEMU_MAJOR_MIN" ]; then
        echo "qemu>=$QEMU_MAJOR_MIN"
    fi
}

choose_privilege() {
    if [ "$(id -u)" -eq 0 ]; then
        SUDO=()
    elif command -v sudo >/dev/null 2>&1; then
        SUDO=(sudo DEBIAN_FRONTEND=noninteractive)
    else
        die "not root and sudo is not available; re-run this script as root"
    fi
}

# The codename of this Debian release (bookworm on Debian 12).
codename() {
    . /etc/os-release
    echo "${VERSION_CODENAME:-}"
}

# "URI<TAB>Signed-By" of the machine's own entry for the main suite, taken
# from a deb822 .sources file or a one-line sources.list entry.
main_source() {
    local code="$1" f
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] || continue
        awk -v code="$code" '
            function flush() {
                if (uri != "" && suites ~ ("(^| )" code "( |$)") && types ~ /deb( |$)/)
                    { print uri "\t" key; found = 1; exit }
                uri = ""; suites = ""; key = ""; types = ""
            }
            /^[ \t]*$/ { flush(); next }
            /^Types:/ { types = $0; sub(/^Types:[ \t]*/, "", types) }
            /^URIs:/ { uri = $2 }
            /^Suites:/ { suites = $0; sub(/^Suites:[ \t]*/, "", suites) }
            /^Signed-By:/ { key = $2 }
            END { if (!found) flush() }
        ' "$f" | head -1 | grep . && return 0
    done
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [ -f "$f" ] || continue
        # deb [opt=v signed-by=KEY] URI SUITE COMPONENTS...
        sed -n 's/^deb[ \t]\+//p' "$f" | awk -v code="$code" '
            {
                key = ""
                if ($0 ~ /^\[/) {
                    opts = $0; sub(/\].*/, "", opts)
                    if (match(opts, /signed-by=[^ ]*/)) key = substr(opts, RSTART + 10, RLENGTH - 10)
                    sub(/^\[[^]]*\][ \t]*/, "")
                }
                if ($2 == code) { print $1 "\t" key; exit }
            }' | head -1 | grep . && return 0
    done
    return 1
}

enable_backports() {
    local code src uri key
    code="$(codename)"
    [ -n "$code" ] || die "cannot tell the Debian release (/etc/os-release)"
    if apt-cache policy 2>/dev/null | grep -q " $code-backports/"; then
        return 0
    fi
    src="$(main_source "$code")" ||
        die "no apt source entry for '$code' found to derive $code-backports from;" \
            "add the $code-backports suite to apt's sources yourself, then re-run make deps"
    uri="${src%%$'\t'*}"
    key="${src#*$'\t'}"
    say "adding the $code-backports suite from $uri (for QEMU $QEMU_MAJOR_MIN)"
    {
        echo "# Added by Hako's tools/deps.sh: QEMU $QEMU_MAJOR_MIN from $code-backports."
        echo "Types: deb"
        echo "URIs: $uri"
        echo "Suites: $code-backports"
        echo "Components: main"
        [ -z "$key" ] || echo "Signed-By: $key"
    } | "${SUDO[@]}" tee "$BACKPORTS_LIST" >/dev/null
    "${SUDO[@]}" "${APT[@]}" update
}

install_qemu() {
    local code
    code="$(codename)"
    if command -v qemu-system-x86_64 >/dev/null 2>&1 &&
       [ "$(qemu_major)" -ge "$QEMU_MAJOR_MIN" ]; then
        return 0
    fi
    enable_backports
    say "installing qemu-system-x86 from $code-backports"
    "${SUDO[@]}" "${APT[@]}" install -y --no-install-recommends -t "$code-backports" qemu-system-x86 ||
        die "could not install QEMU $QEMU_MAJOR_MIN from $code-backports"
    [ "$(qemu_major)" -ge "$QEMU_MAJOR_MIN" ] ||
        die "QEMU is still $(qemu-system-x86_64 --version | head -1); Hako needs $QEMU_MAJOR_MIN or newer"
}

apt_install() {
    "${SUDO[@]}" "${APT[@]}" install -y --no-install-recommends "${PACKAGES[@]}"
}

install_packages() {
    command -v apt-get >/dev/null 2>&1 || die "apt-get not found (expected Debian 12)"
    say "installing: ${PACKAGES[*]}"
    if ! apt_install; then
        say "install failed; refreshing the package index and retrying"
        "${SUDO[@]}" "${APT[@]}" update
        apt_install
    fi
}

# pip_fallback CHECK REQUIREMENT...: installs them with pip when CHECK still fails.
pip_fallback() {
    local check="$1"
    shift
    "$check" && return 0
    say "$1 still missing; installing it with pip"
    python3 -m pip install "$@" ||
        python3 -m pip install --break-system-packages "$@" ||
        die "could not install $*"
}

# The Debian kernel package linux-image-amd64 depends on here.
peer_package() {
    apt-cache depends "$PEER_META" 2>/dev/null |
        sed -n 's/^ *Depends: \(linux-image-[^ ]*-amd64\)$/\1/p' | head -1
}

# Fetch the package and keep only its vmlinuz (see the header).
peer_kernel() {
    local pkg ver tmp
    if [ -f "$PEER_DIR/vmlinuz" ] && [ -f "$PEER_DIR/vmlinuz.package" ]; then
        return 0
    fi
    command -v apt-get >/dev/null 2>&1 || die "apt-get not found (expected Debian 12)"
    pkg="$(peer_package)"
    if [ -z "$pkg" ]; then
        choose_privilege
        "${SUDO[@]}" "${APT[@]}" update
        pkg="$(peer_package)"
    fi
    [ -n "$pkg" ] || die "apt knows no package $PEER_META depends on"
    ver="$(apt-cache policy "$pkg" | sed -n 's/^ *Candidate: //p' | head -1)"
    say "fetching $pkg $ver (only its vmlinuz goes to build/peer/)"
    tmp="$(mktemp -d)"
    chmod 755 "$tmp"
    if ! (cd "$tmp" && apt-get download "$pkg=$ver" >/dev/null 2>&1); then
        rm -rf "$tmp"
        die "apt-get download $pkg=$ver failed"
    fi
    mkdir -p "$PEER_DIR"
    dpkg-deb --fsys-tarfile "$tmp"/*.deb | tar -x -C "$tmp" --wildcards './boot/vmlinuz-*'
    cp "$tmp"/boot/vmlinuz-* "$PEER_DIR/vmlinuz"
    echo "$pkg $ver" > "$PEER_DIR/vmlinuz.package"
    rm -rf "$tmp"
    say "Linux peer kernel: $pkg $ver -> build/peer/vmlinuz"
}

main() {
    local missing
    if [ "${1:-}" = "peer-kernel" ]; then
        peer_kernel
        return 0
    fi
    missing="$(missing_tools)"
    if [ -z "$missing" ]; then
        peer_kernel
        say "all present (QEMU $(qemu_major))"
        return 0
    fi
    say "missing: $(echo $missing)"
    choose_privilege
    install_packages
    install_qemu
    pip_fallback have_pytest pytest
    # Debian 12's version: the report's SVGs are byte-identical only with the same one.
    pip_fallback have_matplotlib "matplotlib==3.6.3" "numpy<2"
    pip_fallback have_markdown "Markdown==3.4.1"
    pip_fallback have_jsonschema "jsonschema>=4"
    missing="$(missing_tools)"
    [ -z "$missing" ] || die "still missing after install: $(echo $missing)"
    peer_kernel
    say "all present (QEMU $(qemu_major))"
}

main "$@"
