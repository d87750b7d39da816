#!/usr/bin/env bash
# The project's two commands: `./run.sh app` starts the app, `./run.sh test` runs the tests.
# Each does all the set-up it needs on a fresh machine (virtual environment, packages, fonts).
set -euo pipefail
cd "$(dirname "$0")"
export YOLO_OFFLINE=1 YOLO_CONFIG_DIR="${YOLO_CONFIG_DIR:-$PWD/.venv/ultralytics}" PIP_DISABLE_PIP_VERSION_CHECK=1
VENV=.venv
PY=$VENV/bin/python

setup() {
    if [ ! -x "$PY" ]; then
        python3.11 -m venv "$VENV" 2>/dev/null || python3 -m venv "$VENV"
    fi
    local stamp="$VENV/.installed-$(cat pyproject.toml run.sh | sha1sum | cut -c1-12)"
    if [ ! -f "$stamp" ]; then
        "$PY" -m pip install -q --upgrade pip
        # Torch first, pinned, so that nothing pulls another build from the registry.
        "$PY" -m pip install -q "torch==2.14.1" "torchvision==0.29.1"
        "$PY" -m pip install -q -e ".[test]"
        touch "$stamp"
    fi
    # Fonts for the synthetic renders (Debian packages; datasets/synth/styles.py FONT_CATALOGUE names the fonts
    # of each): installed when any package is missing and we may install.
    local fonts="fonts-dejavu fonts-dejavu-core fonts-liberation fonts-roboto fonts-roboto-unhinted fonts-freefont-ttf \
        fonts-open-sans fonts-noto-core fonts-comfortaa fonts-quicksand fonts-cantarell fonts-lato fonts-mplus fonts-dosis \
        fonts-croscore fonts-crosextra-carlito fonts-cabin fonts-karla fonts-clear-sans fonts-urw-base35 fonts-manrope \
        fonts-b612 fonts-play fonts-league-spartan fonts-texgyre fonts-roboto-slab fonts-hack fonts-eurofurence \
        fonts-comic-neue fonts-averia-sans-gwf fonts-inter fonts-bebas-neue fonts-beteckna fonts-sora fonts-millimetre \
        fonts-jetbrains-mono fonts-dejavu-extra fonts-jura"
    # shellcheck disable=SC2086
    if ! dpkg -s $fonts >/dev/null 2>&1; then
        if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
            # shellcheck disable=SC2086
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $fonts >/dev/null 2>&1 || {
                apt-get update -qq >/dev/null 2>&1 || true
                DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $fonts >/dev/null 2>&1 || true
            }
        else
            echo "warning: fonts for the synthetic renders are missing; as root: apt-get install $fonts" >&2
        fi
    fi
    mkdir -p "$YOLO_CONFIG_DIR"
}

cmd="${1:-help}"; shift || true
case "$cmd" in
    setup) setup ;;
    app)   setup; exec "$VENV/bin/rummi" app "$@" ;;
    test)  setup; exec "$PY" -m pytest "$@" ;;
    rummi) setup; exec "$VENV/bin/rummi" "$@" ;;
    *) echo "usage: ./run.sh app [--port N] | test [pytest args] | rummi ARGS | setup"; exit 2 ;;
esac
