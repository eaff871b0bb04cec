#!/usr/bin/env bash
# tools/deps.sh - install Hako's build and test dependencies (Debian 12).
#
# Idempotent and non-interactive.  Checks for every tool the build and the
# harness need; when something is missing it installs the Debian packages
# (as root, or through sudo when available), first without refreshing the
# package index and, if that fails, after `apt-get update`.  pytest falls
# back to pip when no Debian package provides it.  Prints a single line
# "deps: all present" when nothing needs doing.
set -euo pipefail

export DEBIAN_FRONTEND=noninteractive

PACKAGES=(qemu-system-x86 grub-pc-bin grub-common xorriso mtools gcc make
          binutils gdb python3 python3-pytest)
COMMANDS=(qemu-system-x86_64 grub-mkrescue xorriso mformat gcc make gdb python3)

SUDO=()

say() { printf 'deps: %s\n' "$*"; }
die() { printf 'deps: error: %s\n' "$*" >&2; exit 1; }

have_pytest() {
    command -v python3 >/dev/null 2>&1 && python3 -m pytest --version >/dev/null 2>&1
}

# Prints the missing commands (and "pytest"), one per line.
missing_tools() {
    local cmd
    for cmd in "${COMMANDS[@]}"; do
        command -v "$cmd" >/dev/null 2>&1 || echo "$cmd"
    done
    have_pytest || echo "pytest"
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

apt_install() {
    "${SUDO[@]}" apt-get install -y --no-install-recommends "${PACKAGES[@]}"
}

install_packages() {
    command -v apt-get >/dev/null 2>&1 || die "apt-get not found (expected Debian 12)"
    say "installing: ${PACKAGES[*]}"
    if ! apt_install; then
        say "install failed; refreshing the package index and retrying"
        "${SUDO[@]}" apt-get update
        apt_install
    fi
}

install_pytest_with_pip() {
    have_pytest && return 0
    say "pytest still missing; installing it with pip"
    python3 -m pip install pytest ||
        python3 -m pip install --break-system-packages pytest ||
        die "could not install pytest"
}

main() {
    local missing
    missing="$(missing_tools)"
    if [ -z "$missing" ]; then
        say "all present"
        return 0
    fi
    say "missing: $(echo $missing)"
    choose_privilege
    install_packages
    install_pytest_with_pip
    missing="$(missing_tools)"
    [ -z "$missing" ] || die "still missing after install: $(echo $missing)"
    say "all present"
}

main "$@"
