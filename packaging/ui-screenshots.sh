#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The playlist panel and the control bar (the pointer resting on the next
# button, its tooltip shown) at 1x and at Xft.dpi 192 (2x), as PNG crops in
# OUT: playlist-panel.png, control-bar.png, and their -2x forms. Each scale
# in an X server of its own (-noreset: what xrdb sets stays), so the desktop's
# own Xft.dpi is left alone. Needs Xvfb, xrdb, xdotool, socat and ffmpeg.
#
# Usage: packaging/ui-screenshots.sh BINARY OUT
set -euo pipefail
binary=$(realpath "$1")
out=$2
root=$(dirname "$(dirname "$(realpath "$0")")")
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
ipc() { printf '%s\n' "$1" | socat - "UNIX-CONNECT:$scratch/ipc.sock" >/dev/null; }
for scale in 1 2; do
    w=$((960 * scale)) h=$((540 * scale))
    Xvfb -displayfd 3 -noreset -nolisten tcp -screen 0 "${w}x${h}x24" 3>"$scratch/display" 2>/dev/null &
    server=$!
    while [ ! -s "$scratch/display" ]; do sleep 0.1; done
    export DISPLAY=":$(cat "$scratch/display")"
    [ "$scale" = 2 ] && echo "Xft.dpi: 192" | xrdb -nocpp -merge
    XDG_STATE_HOME="$scratch/state" SDL_AUDIODRIVER=dummy "$binary" "$root/assets/demo.mp4" "$root/assets/compare.mp4" \
        "$root/assets/tone.mp3" --pause --start 3 --no-config --no-remember --geometry "${w}x${h}+0+0" \
        --input-ipc-server "$scratch/ipc.sock" 2>/dev/null &
    player=$!
    until [ -S "$scratch/ipc.sock" ]; do sleep 0.1; done
    sleep 2  # the files open, the panel's pictures are made
    ipc '{"command": ["set_property", "playlist-panel", true]}'
    sleep 2
    xdotool mousemove $((300 * scale)) $((300 * scale)) sleep 0.2 mousemove $(((8 + 32 + 32 + 14) * scale)) $((h - 20 * scale))
    sleep 1.2  # the tooltip shows once the pointer rests
    suffix=$([ "$scale" = 2 ] && echo "-2x" || true)
    ffmpeg -v error -y -f x11grab -draw_mouse 0 -video_size "${w}x${h}" -i "$DISPLAY+0,0" -frames:v 1 "$scratch/full.png"
    ffmpeg -v error -y -i "$scratch/full.png" -vf "crop=$((380 * scale)):$((300 * scale)):$((w - 380 * scale)):0" \
        "$out/playlist-panel$suffix.png"
    ffmpeg -v error -y -i "$scratch/full.png" -vf "crop=$((580 * scale)):$((90 * scale)):0:$((h - 90 * scale))" \
        "$out/control-bar$suffix.png"
    ipc '{"command": ["quit"]}'
    wait "$player" || true
    rm -f "$scratch/display"
    kill "$server"
    wait "$server" 2>/dev/null || true
done
ls -l "$out"/playlist-panel*.png "$out"/control-bar*.png
