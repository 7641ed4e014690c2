#!/bin/sh
# Installs the Debian packages warpsim needs to build and test on a fresh machine.
set -e
PKGS="build-essential cmake pkg-config clang libinih-dev libjansson-dev libcmocka-dev zlib1g-dev liblzma-dev libzstd-dev"
PKGS="$PKGS gnuplot-nox" # figures of warpsim report
missing=""
for p in $PKGS; do
    dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
echo "bootstrap: installing$missing"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing
