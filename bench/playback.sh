#!/usr/bin/env bash
# CPU seconds and peak RSS for playing the bundled 720p demo (10 s) in one
# window under the same Xvfb, DeskPlayer beside ffplay and mpv, in one run.
# Usage: bench/playback.sh [seconds]   (run from the repository root; `make bench`)
set -euo pipefail
SECS=${1:-10}
FILE=assets/demo.mp4
BIN=.build/release/deskplayer
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

measure() {  # name, command...
    local name=$1; shift
    /usr/bin/time -f "%U %S %M" -o "$OUT/$name.time" "$@" >/dev/null 2>"$OUT/$name.err" || true
    read -r user sys rss < <(tail -n1 "$OUT/$name.time")
    cpu=$(echo "$user + $sys" | bc -l)
    echo "$name $cpu $rss"
}

run_all() {
    export SDL_AUDIODRIVER=disk SDL_DISKAUDIOFILE=/dev/null
    measure deskplayer $BIN $FILE --quit-after "$SECS" --geometry 1280x720+0+0 --stats-json "$OUT/stats.json"
    measure ffplay ffplay -v error -autoexit -t "$SECS" -x 1280 -y 720 -left 0 -top 0 $FILE
    measure mpv mpv --really-quiet --no-config --ao=null --vo=x11 --length="$SECS" --geometry=1280x720+0+0 $FILE
}

results=$(run_all)
echo "Playing $FILE for $SECS s under Xvfb (1280x720 window):"
printf "%-12s %10s %12s %10s\n" player "CPU s" "peak RSS MB" "CPU ratio"
base=$(echo "$results" | awk '$1=="deskplayer"{print $2}')
echo "$results" | while read -r name cpu rss; do
    printf "%-12s %10.2f %12.1f %10.2f\n" "$name" "$cpu" "$(echo "$rss/1024" | bc -l)" "$(echo "$cpu/$base" | bc -l)"
done
if [ -f "$OUT/stats.json" ]; then
    echo "DeskPlayer stats:"; grep -E "timeToFirstFrameMs|framesDropped|framesPresented|maxAVOffsetMs|renderer" "$OUT/stats.json"
fi
