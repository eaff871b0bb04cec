#!/usr/bin/env bash
# tools/deps.sh - install Hako's build and test dependencies (Debian 12).
#
# Idempotent and non-interactive.  Checks for every tool the build and the
# harness need; when something is missing it installs the Debian packages
# (as root, or through sudo when available), first without refreshing the
# package index and, if that fails, after `apt-get update`.
#
# The harness's Python libraries live in a virtual environment, .venv/ at
# the top of the tree (gitignored); nothing is installed into the system's
# Python.  `./hako`, the Makefile's Python steps and the tests run under
# .venv/bin/python when it exists.  The environment is made from Debian's
# /usr/bin/python3 (package python3-venv; another python3 earlier on PATH,
# such as a pyenv one, is not used) with --system-site-packages, so that
# Debian's python3-matplotlib, python3-numpy and python3-markdown serve the report:
# the report's SVGs are byte-identical only with one matplotlib, Debian 12's
# 3.6.3, and its compiled stack is large to fetch.  Every line of
# requirements.txt is an exact `==` pin, and pip checks each pin against
# what the environment sees: a Debian copy of exactly the pinned version
# (matplotlib, numpy, Markdown) is used as it is, any other version is shadowed by
# the pinned one, installed into .venv/ from the package registry.  So the
# pins hold with or without Debian's copies; the system site only saves a
# download.  A stamp in .venv/ (the digest of requirements.txt) makes a
# second run a no-op; a changed requirements.txt is installed again.
#
# QEMU must be version 10 or newer (QEMU 7.2, Debian 12's own, starves vCPUs
# under icount and cannot load Hako's cost-model plugin; docs/design/qemu.md).
# Debian 12 has QEMU 10 in its backports suite: this script adds that suite
# beside the machine's own Debian source entry (the same mirror and keyring,
# read from /etc/apt; no host is written here) and installs qemu-system-x86
# from it.  Prints a single line "deps: all present" when nothing needs doing.
#
# The second arch, SH-4 (QEMU's r2d board, docs/design/sh4.md), needs Debian
# 12's cross compiler gcc-sh4-linux-gnu and qemu-system-sh4, which is in
# qemu-system-misc: that comes from the same backports suite as
# qemu-system-x86, so both QEMUs are one version.  Its build also loads a
# GCC plugin (tools/build/sh_treg_off.cc), built with g++ against the cross
# compiler's plugin headers, gcc-12-plugin-dev-sh4-linux-gnu.
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
          binutils gdb python3 python3-venv python3-matplotlib python3-numpy python3-markdown
          gcc-sh4-linux-gnu g++ gcc-12-plugin-dev-sh4-linux-gnu)
COMMANDS=(qemu-system-x86_64 qemu-system-sh4 grub-mkrescue xorriso mformat gcc make gdb python3
          sh4-linux-gnu-gcc g++)
# The QEMU packages taken from backports, and the binary of each whose version is checked.
QEMU_PACKAGES=(qemu-system-x86 qemu-system-misc)
QEMU_BINARIES=(qemu-system-x86_64 qemu-system-sh4)
# The firmware a pc guest boots (SeaBIOS), from the suite QEMU comes from: another
# version moves what the BIOS reserves and so the figures (an older SeaBIOS moved
# sysbench's spawn_exit_wait by 20 instructions and 106 modelled cycles; the result
# files record its digest, tools/hakotool/runmeta.py).
FIRMWARE_PACKAGES=(seabios)
QEMU_MAJOR_MIN=10
# glibc's static C library: the Linux peer's benchmark is linked with it.
STATIC_LIBC=/usr/lib/x86_64-linux-gnu/libc.a
# The SH-4 cross compiler's plugin headers (gcc-12-plugin-dev-sh4-linux-gnu).
SH4_PLUGIN_HEADER=/usr/lib/gcc-cross/sh4-linux-gnu/12/plugin/include/gcc-plugin.h
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PEER_DIR="$ROOT/build/peer"
PEER_META=linux-image-amd64
# The virtual environment (see the header) and the Python it is made from.
VENV="$ROOT/.venv"
REQUIREMENTS="$ROOT/requirements.txt"
VENV_STAMP="$VENV/hako-requirements.sha256"
BASE_PYTHON=/usr/bin/python3
BACKPORTS_LIST=/etc/apt/sources.list.d/hako-backports.sources

SUDO=()
# Another apt or dpkg at work (a second checkout's `make deps`, the
# system's own updates) holds dpkg's lock: wait for it instead of failing.
APT=(apt-get -o DPkg::Lock::Timeout=600)

say() { printf 'deps: %s\n' "$*"; }
die() { printf 'deps: error: %s\n' "$*" >&2; exit 1; }

# Debian's Python with its venv module (python3-venv brings ensurepip).
have_venv_module() {
    [ -x "$BASE_PYTHON" ] && "$BASE_PYTHON" -c 'import ensurepip, venv' >/dev/null 2>&1
}

have_matplotlib() {
    [ -x "$BASE_PYTHON" ] && "$BASE_PYTHON" -c 'import matplotlib' >/dev/null 2>&1
}

# The major version of the installed QEMU (qemu-system-x86_64, or the
# binary given), or 0 without one.
qemu_major() {
    local v
    v="$("${1:-qemu-system-x86_64}" --version 2>/dev/null | sed -n 's/.*version \([0-9]*\)\..*/\1/p' | head -1)"
    echo "${v:-0}"
}

# True when every QEMU binary of QEMU_BINARIES is there with version >= QEMU_MAJOR_MIN.
qemus_current() {
    local bin
    for bin in "${QEMU_BINARIES[@]}"; do
        command -v "$bin" >/dev/null 2>&1 && [ "$(qemu_major "$bin")" -ge "$QEMU_MAJOR_MIN" ] ||
            return 1
    done
}

# Prints what is missing (commands, "python3-venv", "qemu>=10"...), one per line.
missing_tools() {
    local cmd
    for cmd in "${COMMANDS[@]}"; do
        command -v "$cmd" >/dev/null 2>&1 || echo "$cmd"
    done
    have_venv_module || echo "python3-venv"
    [ -f "$STATIC_LIBC" ] || echo "libc.a"
    [ -f "$SH4_PLUGIN_HEADER" ] || echo "gcc-plugin.h (sh4)"
    have_matplotlib || echo "matplotlib"
    local bin
    for bin in "${QEMU_BINARIES[@]}"; do
        if command -v "$bin" >/dev/null 2>&1 &&
           [ "$(qemu_major "$bin")" -lt "$QEMU_MAJOR_MIN" ]; then
            echo "$bin>=$QEMU_MAJOR_MIN"
        fi
    done
    stale_firmware
}

# The FIRMWARE_PACKAGES installed at another version than the backports suite's
# (apt's index, no network); none when that suite is not configured.
stale_firmware() {
    local p have want
    for p in "${FIRMWARE_PACKAGES[@]}"; do
        have="$(dpkg-query -W -f='${Version}' "$p" 2>/dev/null || true)"
        want="$(apt-cache policy -t "$(codename)-backports" "$p" 2>/dev/null |
                sed -n 's/ *Candidate: //p')"
        case "$want" in ""|"(none)") continue ;; esac
        [ "$have" = "$want" ] || echo "$p=$want"
    done
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
    qemus_current && [ -z "$(stale_firmware)" ] && return 0
    enable_backports
    say "installing ${QEMU_PACKAGES[*]} from $code-backports"
    "${SUDO[@]}" "${APT[@]}" install -y --no-install-recommends -t "$code-backports" "${QEMU_PACKAGES[@]}" \
        "${FIRMWARE_PACKAGES[@]}" ||
        die "could not install QEMU $QEMU_MAJOR_MIN from $code-backports"
    qemus_current ||
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

# The stamp's content: requirements.txt's digest and the Python the
# environment was made from.
venv_stamp() {
    printf '%s %s\n' "$(sha256sum "$REQUIREMENTS" | cut -d' ' -f1)" "$BASE_PYTHON"
}

# Make .venv/ and install requirements.txt into it, unless the stamp says
# that was done for this requirements.txt.  An environment whose python no
# longer starts (its base Python removed or upgraded) is made anew.
setup_venv() {
    if [ -f "$VENV_STAMP" ] && [ "$(cat "$VENV_STAMP")" = "$(venv_stamp)" ] &&
       "$VENV/bin/python" -c '' >/dev/null 2>&1; then
        return 0
    fi
    if [ -d "$VENV" ] && ! "$VENV/bin/python" -c '' >/dev/null 2>&1; then
        say "$VENV does not start; making it anew"
        rm -rf "$VENV"
    fi
    if [ ! -x "$VENV/bin/python" ]; then
        say "making the Python environment .venv/ (from $BASE_PYTHON)"
        "$BASE_PYTHON" -m venv --system-site-packages "$VENV" ||
            die "python3 -m venv failed (Debian package python3-venv)"
    fi
    rm -f "$VENV_STAMP"
    say "installing requirements.txt into .venv/"
    "$VENV/bin/python" -m pip install --disable-pip-version-check --no-input -q \
        -r "$REQUIREMENTS" </dev/null ||
        die "pip could not install requirements.txt into .venv/"
    venv_stamp > "$VENV_STAMP"
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

# `deps.sh browser` (make test): Debian's headless Chromium, which renders the
# HTML report in tests/harness/test_report_browser.py.  Only make test needs it.
BROWSER_PACKAGE=chromium-headless-shell

browser() {
    command -v "$BROWSER_PACKAGE" >/dev/null 2>&1 && return 0
    command -v apt-get >/dev/null 2>&1 || die "apt-get not found (expected Debian 12)"
    choose_privilege
    say "installing $BROWSER_PACKAGE (make test renders the HTML report in it)"
    if ! "${SUDO[@]}" "${APT[@]}" install -y --no-install-recommends "$BROWSER_PACKAGE"; then
        "${SUDO[@]}" "${APT[@]}" update
        "${SUDO[@]}" "${APT[@]}" install -y --no-install-recommends "$BROWSER_PACKAGE" ||
            die "could not install $BROWSER_PACKAGE"
    fi
}

main() {
    local missing
    case "${1:-}" in
        peer-kernel) peer_kernel; return 0 ;;
        browser) browser; return 0 ;;
    esac
    missing="$(missing_tools)"
    if [ -z "$missing" ]; then
        setup_venv
        peer_kernel
        say "all present (QEMU $(qemu_major), Python libraries in .venv/)"
        return 0
    fi
    say "missing: $(echo $missing)"
    choose_privilege
    install_packages
    install_qemu
    missing="$(missing_tools)"
    [ -z "$missing" ] || die "still missing after install: $(echo $missing)"
    setup_venv
    peer_kernel
    say "all present (QEMU $(qemu_major), Python libraries in .venv/)"
}

# Run when executed; a test may source the file for its functions.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    main "$@"
fi
