#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Composition export: N sources of 5 s (MP3, AAC, FLAC in turn) crossfaded by
# 1 s and rendered to a float WAV. Seconds of audio per second of wall time
# and peak RSS for 5, 20 and 80 sources (memory must not grow with the
# count); beside it ffmpeg doing the same crossfade chain (acrossfade, linear).
# Writes the figures to bench/out/composition.json too (BENCH_OUT sets the folder).
# Usage: bench/composition.sh   (run from the repository root; `make bench`)
set -euo pipefail
BIN=.build/release/deskplayer
OUTDIR=${BENCH_OUT:-bench/out}
mkdir -p "$OUTDIR"
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
: > "$OUT/rows"  # exporter sources audio_s wall_s rss_kb
exts=(mp3 m4a flac)
for i in $(seq 0 79); do
    ext=${exts[$((i % 3))]}
    ffmpeg -v error -y -f lavfi -i "sine=frequency=$((200 + i * 10)):sample_rate=44100:duration=5" "$OUT/s$i.$ext"
done
sources() { for i in $(seq 0 $(($1 - 1))); do printf '%s ' "$OUT/s$i.${exts[$((i % 3))]}"; done; }

echo "Composition export: N sources x 5 s crossfaded by 1 s, to 48 kHz float WAV"
printf "%-24s %10s %10s %14s %12s\n" exporter "audio s" "wall s" "audio s/wall s" "peak RSS MB"
for n in 5 20 80; do
    audio=$(echo "$n * 4 + 1" | bc)
    # shellcheck disable=SC2046
    /usr/bin/time -f "%e %M" -o "$OUT/t" $BIN --crossfade 1 $(sources $n) --export-audio "$OUT/out.wav" 2>/dev/null
    read -r wall rss < <(tail -n1 "$OUT/t")
    printf "%-24s %10s %10s %14.1f %12.1f\n" "DeskPlayer $n sources" "$audio" "$wall" "$(echo "$audio / $wall" | bc -l)" "$(echo "$rss/1024" | bc -l)"
    [ "$n" = 20 ] && echo "$wall" > "$OUT/ours20"
    echo "deskplayer $n $audio $wall $rss" >> "$OUT/rows"
    # ffmpeg: the same chain as one filter graph.
    inputs=() graph="" last="0:a"
    for i in $(seq 0 $((n - 1))); do inputs+=(-i "$OUT/s$i.${exts[$((i % 3))]}"); done
    for i in $(seq 1 $((n - 1))); do graph+="[$last][$i:a]acrossfade=d=1:c1=tri:c2=tri[x$i];"; last="x$i"; done
    graph+="[$last]aresample=48000,aformat=sample_fmts=flt:channel_layouts=stereo[out]"
    /usr/bin/time -f "%e %M" -o "$OUT/f" ffmpeg -v error -y "${inputs[@]}" -filter_complex "$graph" -map "[out]" -c:a pcm_f32le "$OUT/ff.wav"
    read -r fwall frss < <(tail -n1 "$OUT/f")
    printf "%-24s %10s %10s %14.1f %12.1f   (DeskPlayer %.1fx its speed)\n" "ffmpeg acrossfade $n" "$audio" "$fwall" \
        "$(echo "$audio / $fwall" | bc -l)" "$(echo "$frss/1024" | bc -l)" "$(echo "$fwall / $wall" | bc -l)"
    echo "ffmpeg_acrossfade $n $audio $fwall $frss" >> "$OUT/rows"
done
python3 - "$OUTDIR/composition.json" "$OUT/rows" <<'EOF'
import json, sys
runs = {}
for line in open(sys.argv[2]):
    who, n, audio, wall, rss = line.split()
    runs.setdefault(f"{n}_sources", {})[who] = {
        "audio_s": float(audio), "wall_s": float(wall), "audio_s_per_wall_s": round(float(audio) / max(float(wall), 1e-3), 1),
        "peak_rss_mb": round(int(rss) / 1024, 1)}
for row in runs.values():
    if "deskplayer" in row and "ffmpeg_acrossfade" in row:
        row["deskplayer_speed_x_ffmpeg"] = round(row["ffmpeg_acrossfade"]["wall_s"] / max(row["deskplayer"]["wall_s"], 1e-3), 2)
json.dump({"composition": {"what": "N sources x 5 s crossfaded by 1 s to 48 kHz float WAV", "runs": runs}},
          open(sys.argv[1], "w"), indent=2)
EOF
