#!/usr/bin/env bash
# Tiles: N copies of the 720p30 demo in one 1920x1080 window under Xvfb for
# SECS seconds: frames dropped, CPU seconds and peak RSS; beside it 4 ffplay
# and 4 mpv --vo=x11 processes playing the same clip in the same run.
# Usage: bench/tiles.sh [seconds]   (run from the repository root; `make bench`)
set -euo pipefail
SECS=${1:-10}
FILE=assets/demo.mp4
BIN=.build/release/deskplayer
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
export SDL_AUDIODRIVER=disk SDL_DISKAUDIOFILE=/dev/null

echo "Tiles of $FILE (1280x720 30 fps) for $SECS s in a 1920x1080 window:"
printf "%-22s %8s %8s %10s %12s\n" player presented dropped "CPU s" "peak RSS MB"
for n in 1 4 9; do
    files=$(for _ in $(seq "$n"); do printf '%s ' "$FILE"; done)
    # shellcheck disable=SC2086
    /usr/bin/time -f "%U %S %M" -o "$OUT/t" $BIN $files --layout grid --geometry 1920x1080+0+0 \
        --quit-after "$SECS" --stats-json "$OUT/s.json" >/dev/null 2>&1 || true
    read -r u s m < <(tail -n1 "$OUT/t")
    presented=$(grep -o '"framesPresented" : [0-9]*' "$OUT/s.json" | awk '{t+=$3} END {print t}')
    dropped=$(grep -o '"framesDropped" : [0-9]*' "$OUT/s.json" | awk '{t+=$3} END {print t}')
    printf "%-22s %8s %8s %10.2f %12.1f\n" "DeskPlayer $n tiles" "$presented" "$dropped" "$(echo "$u+$s" | bc -l)" "$(echo "$m/1024" | bc -l)"
done
run4() {  # name, command... : four processes at once, summed CPU, largest RSS
    local name=$1; shift
    for i in 1 2 3 4; do /usr/bin/time -f "%U %S %M" -o "$OUT/p$i" "$@" >/dev/null 2>"$OUT/e$i" & done
    wait
    cat "$OUT"/p? | awk -v name="$name" '{cpu+=$1+$2; if ($3>rss) rss=$3} END {printf "%-22s %8s %8s %10.2f %12.1f\n", name, "-", "-", cpu, rss/1024}'
}
run4 "ffplay x4" ffplay -v error -autoexit -t "$SECS" -x 960 -y 540 $FILE
run4 "mpv --vo=x11 x4" mpv --really-quiet --no-config --ao=null --vo=x11 --length="$SECS" --geometry=960x540 $FILE
echo "(ffplay and mpv: CPU summed over the four processes, RSS of the largest; they report no drop count here)"
