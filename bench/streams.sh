#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# HLS from a local server (127.0.0.1, Tests/TestSupport/hls_server.py
# counting bytes per request): three variants (180p/360p/720p, 4 s, 1 s
# segments) behind a master playlist, played with --max-resolution 640x360
# and looped 10 times. Bytes served for 10 passes / bytes for one pass, and
# bytes of the variants not chosen (goal 0), DeskPlayer beside mpv and ffplay.
# Writes the figures to bench/out/streams.json too (BENCH_OUT sets the folder).
# Usage: bench/streams.sh   (run from the repository root; `make bench`)
set -euo pipefail
BIN=$PWD/.build/release/deskplayer
OUTDIR=${BENCH_OUT:-bench/out}
mkdir -p "$OUTDIR"
OUT=$(mktemp -d)
SERVER=""
trap '[ -n "$SERVER" ] && kill -9 $SERVER 2>/dev/null; rm -rf "$OUT"' EXIT
master="#EXTM3U"
i=0
for v in 320:180:300 640:360:800 1280:720:2000; do
    IFS=: read -r w h k <<< "$v"
    mkdir -p "$OUT/hls/v$i"
    ffmpeg -v error -y -i assets/demo.mp4 -t 4 -vf "scale=$w:$h" -c:v libx264 -preset ultrafast -b:v "${k}k" -g 30 \
        -c:a aac -b:a 64k -f hls -hls_time 1 -hls_playlist_type vod "$OUT/hls/v$i/index.m3u8"
    master+=$'\n'"#EXT-X-STREAM-INF:BANDWIDTH=$(( (k + 64) * 1000 )),RESOLUTION=${w}x${h}"$'\n'"v$i/index.m3u8"
    i=$((i + 1))
done
echo "$master" > "$OUT/hls/master.m3u8"
python3 Tests/TestSupport/hls_server.py "$OUT/hls" "$OUT/log" > "$OUT/port" &
SERVER=$!
for _ in $(seq 50); do [ -s "$OUT/port" ] && break; sleep 0.1; done
URL="http://127.0.0.1:$(cat "$OUT/port")/master.m3u8"

# bytes PASSES-LABEL: (all bytes, bytes outside v1/) of the log so far, then clears it.
bytes() { awk '$2 ~ /^[0-9]+$/ { all += $2; if ($1 !~ /^\/v1\// && $1 != "/master.m3u8") other += $2 } END { printf "%d %d\n", all, other }' "$OUT/log"; : > "$OUT/log"; }
fast=(env SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=disk SDL_DISKAUDIOFILE=/dev/null SDL_DISKAUDIODELAY=0)

echo "HLS loop from a local server: 3 variants, 640x360 preferred, 10 passes of 4 s"
printf "%-12s %14s %14s %10s %22s\n" player "1 pass bytes" "10 pass bytes" "ratio" "other-variant bytes"
run() {  # NAME, command for one pass, command for ten passes
    local name=$1 one=$2 ten=$3
    : > "$OUT/log"
    eval "$one" >/dev/null 2>&1 || true
    read -r b1 o1 < <(bytes)
    eval "$ten" >/dev/null 2>&1 || true
    read -r b10 o10 < <(bytes)
    printf "%-12s %14d %14d %10.2f %22d\n" "$name" "$b1" "$b10" "$(echo "$b10 / $b1" | bc -l)" "$((o1 + o10))"
    echo "$name|$b1|$b10|$((o1 + o10))" >> "$OUT/rows"
}
run DeskPlayer "${fast[*]} timeout 60 $BIN '$URL' --max-resolution 640x360" \
    "${fast[*]} timeout 120 $BIN '$URL' --max-resolution 640x360 --loop 10"
run "no cache" "${fast[*]} timeout 60 $BIN '$URL' --max-resolution 640x360 --stream-cache-size 0" \
    "${fast[*]} timeout 120 $BIN '$URL' --max-resolution 640x360 --stream-cache-size 0 --loop 10"
run mpv "timeout 60 mpv --no-config --vo=null --ao=null --untimed --hls-bitrate=900000 '$URL'" \
    "timeout 120 mpv --no-config --vo=null --ao=null --untimed --hls-bitrate=900000 --loop-file=9 '$URL'"
run ffplay "SDL_AUDIODRIVER=dummy timeout 60 ffplay -v error -nodisp -autoexit '$URL'" \
    "SDL_AUDIODRIVER=dummy timeout 120 ffplay -v error -nodisp -autoexit -loop 10 '$URL'"
echo "(no cache: DeskPlayer with --stream-cache-size 0, the naive seek-to-zero loop. ffplay -loop fails to seek back in"
echo " HLS (FFmpeg 5.1 refuses a time before the first packet read), so it plays one pass; it also probes every variant.)"

# Faults on the second segment of the chosen variant, injected by the server,
# played in real time: what was lost, how long playback waited, what was said.
echo
echo "Faults on segment 1 of 4 (1 s each), DeskPlayer in real time (120 frames in all):"
printf "%-10s %8s %10s %8s  %s\n" fault frames "waited s" "wall s" "what the user saw (stderr and OSD)"
: > "$OUT/faults"
for fault in none 404 500x2 500 reset truncate stall5; do
    spec=""; [ "$fault" != none ] && spec="/v1/index1.ts=$fault"
    python3 Tests/TestSupport/hls_server.py "$OUT/hls" "$OUT/faultlog" "$spec" > "$OUT/fport" &
    fserver=$!
    for _ in $(seq 50); do [ -s "$OUT/fport" ] && break; sleep 0.1; done
    start=$(date +%s.%N)
    SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy timeout 60 $BIN "http://127.0.0.1:$(cat "$OUT/fport")/master.m3u8" \
        --max-resolution 640x360 --stats-json "$OUT/fault.json" 2> "$OUT/fault.err" >/dev/null || true
    wall=$(echo "$(date +%s.%N) - $start" | bc -l)
    kill -9 $fserver 2>/dev/null || true; wait $fserver 2>/dev/null || true; rm -f "$OUT/fport"
    read -r frames waited < <(python3 -c "import json,sys; p=json.load(open(sys.argv[1]))['players'][0]; print(p['framesPresented'], p.get('waitingSeconds', 0))" "$OUT/fault.json")
    said=$( (grep -v CRITICAL "$OUT/fault.err" || true) | head -1 | cut -c1-80); [ -z "$said" ] && said="-"
    [ "$fault" = stall5 ] && said="Waiting for data… (OSD) for ${waited} s"
    printf "%-10s %8s %10s %8.1f  %s\n" "$fault" "$frames" "$waited" "$wall" "$said"
    echo "$fault|$frames|$waited|$wall|$said" >> "$OUT/faults"
done
python3 - "$OUTDIR/streams.json" "$OUT/rows" "$OUT/faults" <<'EOF'
import json, sys
players = {}
for line in open(sys.argv[2]):
    name, one, ten, other = line.strip().split("|")
    players[name] = {"one_pass_bytes": int(one), "ten_pass_bytes": int(ten),
                     "ratio": round(int(ten) / int(one), 2) if int(one) else None, "other_variant_bytes": int(other)}
faults = {}
for line in open(sys.argv[3]):
    fault, frames, waited, wall, said = line.rstrip("\n").split("|", 4)
    faults[fault] = {"frames": int(frames), "waited_s": float(waited), "wall_s": round(float(wall), 2), "said": said}
json.dump({"streams": {"what": "HLS, 3 variants, 640x360 preferred, 10 passes of 4 s from a local server",
                       "players": players, "faults": faults}}, open(sys.argv[1], "w"), indent=2)
EOF
