#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Recording a camera: `deskplayer --camera` on a stand-in camera (lavfi's
# testsrc2 at 1280x720, 30 fps, paced at real time as a webcam delivers)
# previewing it and recording SECONDS with `record` (H.264 by libx264
# veryfast/zerolatency, fragmented MP4), beside ffmpeg doing the same
# capture and encode (same source, same encoder settings) in the same run.
# Figures: CPU seconds of each process for the whole run (DeskPlayer's
# include its preview), the frames in each file (ffprobe; SECONDS x 30 is
# every frame) and DeskPlayer's dropped count. Writes bench/out/record.json.
# Usage: bench/record.sh [SECONDS]   (from the repository root; under a
# display or with SDL_VIDEODRIVER=dummy)
set -euo pipefail
BIN=${BIN:-.build/release/deskplayer}
OUTDIR=${BENCH_OUT:-bench/out}
SECONDS_TO_RECORD=${1:-10}
mkdir -p "$OUTDIR"
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
SOURCE="testsrc2=size=1280x720:rate=30"
SOCK="$OUT/ipc.sock"

ask() { printf '%s\n' "$1" | socat -t 2 - "UNIX-CONNECT:$SOCK" 2>/dev/null || true; }

/usr/bin/time -f "%U %S %M" -o "$OUT/dp.time" "$BIN" --no-config --camera "lavfi:$SOURCE,realtime" --no-microphone \
    --record-to "$OUT/takes" --input-ipc-server "$SOCK" 2>"$OUT/dp.err" &
PLAYER=$!
until ask '{"command":["get_property","seekable"]}' | grep -q '"data":false'; do sleep 0.1; done  # live, opened
ask '{"command":["record"]}' >/dev/null
until ask '{"command":["get_property","recording"]}' | grep -q '"data":true'; do sleep 0.1; done
sleep "$SECONDS_TO_RECORD"  # a bench: the recording runs this long on the wall clock, as a person's would
ask '{"command":["record"]}' >/dev/null
until ask '{"command":["get_property","recording"]}' | grep -q '"data":false'; do sleep 0.1; done
until ask '{"command":["get_property","path"]}' | grep -q '\.mp4'; do sleep 0.1; done  # the take plays
ask '{"command":["quit"]}' >/dev/null
wait $PLAYER
TAKE=$(ls "$OUT"/takes/*.mp4)

/usr/bin/time -f "%U %S %M" -o "$OUT/ff.time" ffmpeg -nostdin -v error -y -f lavfi -i "$SOURCE,realtime" \
    -t "$SECONDS_TO_RECORD" -c:v libx264 -preset veryfast -tune zerolatency -crf 23 -g 30 -pix_fmt yuv420p \
    -movflags frag_keyframe+empty_moov+default_base_moof "$OUT/ff.mp4"

frames() { ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames -of csv=p=0 "$1"; }
duration() { ffprobe -v error -show_entries format=duration -of csv=p=0 "$1"; }
python3 - "$OUTDIR/record.json" "$SECONDS_TO_RECORD" "$OUT/dp.time" "$OUT/ff.time" \
    "$(frames "$TAKE")" "$(duration "$TAKE")" "$(frames "$OUT/ff.mp4")" "$(duration "$OUT/ff.mp4")" <<'PY'
import json, sys
path, seconds, dp_time, ff_time = sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4]
def cpu(p):
    user, sys_, rss = open(p).read().split()[-3:]
    return float(user) + float(sys_), int(rss)
dp_cpu, dp_rss = cpu(dp_time)
ff_cpu, ff_rss = cpu(ff_time)
result = {
    "source": "lavfi testsrc2 1280x720@30, realtime",
    "deskplayer": {"cpuSeconds": round(dp_cpu, 2), "maxRSSKB": dp_rss, "frames": int(sys.argv[5]),
                   "seconds": float(sys.argv[6]), "includes": "the preview and the run before and after recording"},
    "ffmpeg": {"cpuSeconds": round(ff_cpu, 2), "maxRSSKB": ff_rss, "frames": int(sys.argv[7]), "seconds": float(sys.argv[8])},
    "recordedSeconds": seconds,
}
json.dump({"record": result}, open(path, "w"), indent=2)
print(f"record {seconds:.0f} s 1280x720@30: deskplayer {dp_cpu:.2f} CPU s, {result['deskplayer']['frames']} frames "
      f"({result['deskplayer']['seconds']:.2f} s); ffmpeg {ff_cpu:.2f} CPU s, {result['ffmpeg']['frames']} frames")
PY
