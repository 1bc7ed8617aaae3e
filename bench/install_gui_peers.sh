#!/usr/bin/env bash
# Install what the GUI checks need (Debian/Ubuntu): xboard and PyChess, Fairy-Max as their
# opponent, Polyglot (xboard's UCI adapter), Xvfb (a display without a screen), xdotool (keys for
# PyChess) and ImageMagick (screenshots). Then tests/gui/test_gui_xboard.py and tests/gui/test_gui_pychess.py
# run instead of skipping, and bench/gui_screenshots.py can redo docs/*.png. Given package names,
# it installs those instead (CI installs Chromium for the web tests so, on its own: a failure there
# must not cost the GUI tests).
#
#     bash bench/install_gui_peers.sh
#     bash bench/install_gui_peers.sh chromium chromium-driver
set -euo pipefail
if [ "$#" -gt 0 ]; then
    PACKAGES=("$@")
else
    PACKAGES=(xboard pychess fairymax polyglot xvfb xdotool imagemagick)
fi
if [ "$(id -u)" -eq 0 ]; then
    SUDO=()
elif command -v sudo >/dev/null; then
    SUDO=(sudo)
else
    echo "install_gui_peers.sh: run as root or install sudo (needs: ${PACKAGES[*]})" >&2
    exit 1
fi
"${SUDO[@]}" apt-get update
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y "${PACKAGES[@]}"
