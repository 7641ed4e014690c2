#!/bin/sh
# Installs the Debian packages warpsim needs to build and test on a fresh machine.
set -e
PKGS="build-essential cmake pkg-config clang libinih-dev libjansson-dev libcmocka-dev zlib1g-dev liblzma-dev libzstd-dev"
PKGS="$PKGS gnuplot-nox" # figures of warpsim report
OPT="libmetis-doc" # real METIS graphs for the loader tests (those tests skip without it)
missing=""
for p in $PKGS; do
    dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
opt_missing=""
for p in $OPT; do
    dpkg -s "$p" >/dev/null 2>&1 || opt_missing="$opt_missing $p"
done
[ -z "$missing$opt_missing" ] && exit 0
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
echo "bootstrap: installing$missing$opt_missing"
$SUDO apt-get update -qq || echo "bootstrap: apt-get update failed; trying the cached lists"
[ -z "$missing" ] || DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing
if [ -n "$opt_missing" ]; then
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $opt_missing ||
        echo "bootstrap: optional$opt_missing not installed (its tests are skipped)"
fi
