#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# CPU at playback speeds 1x, 1.5x and 2x, DeskPlayer beside mpv (--speed) in
# one run, under the same Xvfb: the 720p demo with its sound (10 s of media,
# played to its end: 10, 6.7 and 5 s), and 12 s of music-like sound alone
# (a harmonic series and noise gated at a syllable rate), where the time
# stretcher is most of the work. Both keep the pitch at other speeds
# (DeskPlayer: libavfilter's atempo; mpv: its scaletempo2). Audio goes to
# SDL's disk driver (/dev/null, real-time pace) and mpv's null output.
# Writes bench/out/speed.json too (BENCH_OUT sets the folder).
# Usage: bench/speed.sh   (run from the repository root under xvfb-run; `make bench`)
set -euo pipefail
BIN=.build/release/deskplayer
VIDEO=assets/demo.mp4
OUTDIR=${BENCH_OUT:-bench/out}
SPEEDS=${SPEEDS:-"1 1.5 2"}
mkdir -p "$OUTDIR"
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
AUDIO=$OUT/music.wav
# 12 s: a 220 Hz harmonic series (11 partials) and pink noise, gated at 4 Hz.
ffmpeg -v error -y -f lavfi -i "aevalsrc='0.6*(0.55+0.45*sin(2*PI*4*t))*(0.15*(sin(2*PI*220*t)+sin(2*PI*440*t)/2+sin(2*PI*660*t)/3+sin(2*PI*880*t)/4+sin(2*PI*1100*t)/5+sin(2*PI*1320*t)/6))':s=48000:d=12" \
    -f lavfi -i "anoisesrc=color=pink:amplitude=0.1:duration=12:sample_rate=48000" \
    -filter_complex "[0:a][1:a]amix=inputs=2:normalize=0,pan=stereo|c0=c0|c1=c0" -c:a pcm_s16le "$AUDIO"

measure() {  # label, command...
    local label=$1; shift
    local start end
    start=$(date +%s.%N)
    /usr/bin/time -f "%U %S %M" -o "$OUT/time" "$@" >/dev/null 2>"$OUT/err" || true
    end=$(date +%s.%N)
    read -r user sys rss < <(tail -n1 "$OUT/time")
    echo "$label $(echo "$user + $sys" | bc -l) $rss $(echo "$end - $start" | bc -l)"
}

run_all() {
    export SDL_AUDIODRIVER=disk SDL_DISKAUDIOFILE=/dev/null
    for speed in $SPEEDS; do
        measure "video deskplayer $speed" $BIN $VIDEO --no-config --speed "$speed" --geometry 1280x720+0+0 \
            --stats-json "$OUT/stats-$speed.json"
        measure "video mpv $speed" mpv --really-quiet --no-config --ao=null --vo=x11 --speed="$speed" \
            --geometry=1280x720+0+0 $VIDEO
        measure "audio deskplayer $speed" $BIN "$AUDIO" --no-config --speed "$speed" --geometry 640x360+0+0
        measure "audio mpv $speed" mpv --really-quiet --no-config --ao=null --no-video --speed="$speed" "$AUDIO"
    done
}

run_all > "$OUT/results"
echo "Playing at 1x, 1.5x and 2x under Xvfb (CPU seconds for the whole file; ratio: DeskPlayer / mpv):"
printf "%-6s %-6s %14s %10s %12s %10s\n" media speed "DeskPlayer CPU" "mpv CPU" "ratio" "wall s (DP)"
for kind in video audio; do
    for speed in $SPEEDS; do
        read -r _ _ _ dp dprss dpwall < <(grep "^$kind deskplayer $speed " "$OUT/results")
        read -r _ _ _ mp mprss mpwall < <(grep "^$kind mpv $speed " "$OUT/results")
        printf "%-6s %-6s %14.2f %10.2f %12.2f %10.1f\n" "$kind" "${speed}x" "$dp" "$mp" "$(echo "$dp / $mp" | bc -l)" "$dpwall"
    done
done
python3 - "$OUTDIR/speed.json" "$OUT/results" "$OUT" <<'EOF'
import json, os, sys
path, results, folder = sys.argv[1], sys.argv[2], sys.argv[3]
rows = {}
for line in open(results):
    kind, player, speed, cpu, rss, wall = line.split()
    row = rows.setdefault(f"{kind} {speed}x", {"media": kind, "speed": float(speed)})
    row[player] = {"cpu_s": round(float(cpu), 2), "peak_rss_mb": round(int(rss) / 1024, 1), "wall_s": round(float(wall), 2)}
for row in rows.values():
    dp, mp = row.get("deskplayer", {}).get("cpu_s"), row.get("mpv", {}).get("cpu_s")
    row["cpu_ratio_deskplayer_to_mpv"] = round(dp / mp, 2) if dp and mp else None
    stats = os.path.join(folder, f"stats-{row['speed']:g}.json")
    if row["media"] == "video" and os.path.exists(stats):
        entry = json.load(open(stats))["players"][0]
        row["deskplayer"]["stats"] = {k: entry.get(k) for k in
                                      ("framesPresented", "framesSkipped", "framesDropped", "maxAVOffsetMs", "audioUnderruns")}
        s = row["deskplayer"]["stats"]
        print(f"DeskPlayer at {row['speed']:g}x: {s['framesPresented']} frames shown, {s['framesSkipped']} skipped by schedule, "
              f"{s['framesDropped']} late, A/V offset at most {s['maxAVOffsetMs']} ms, {s['audioUnderruns']} underruns")
json.dump({"speed": {"video": "assets/demo.mp4 (10 s, 720p30, AAC)", "audio": "12 s of harmonic series and pink noise, 48 kHz",
                     "rows": list(rows.values())}}, open(path, "w"), indent=2)
EOF
