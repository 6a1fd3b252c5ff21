#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Seeds for `make fuzz`, made at fuzz time from the bundled assets: tiny clips
# (64x36 video, 8 kHz mono audio, a few KB each) in the containers and codecs
# DeskPlayer meets, the tone clips cut short, and broken variants like the
# corpus test's (truncated, header bytes flipped, timestamps jumping back).
# Usage: bench/fuzz-seeds.sh DIR   (run from the repository root)
set -euo pipefail
DIR=${1:?usage: bench/fuzz-seeds.sh DIR}
mkdir -p "$DIR"
ff() { ffmpeg -v error -y "$@" </dev/null; }
V=(-i assets/demo.mp4 -t 0.3 -vf scale=64:36 -r 10)
A=(-ac 1 -ar 8000)
ff "${V[@]}" -c:v libx264 -preset ultrafast -g 2 -c:a aac -b:a 8k "${A[@]}" "$DIR/h264-aac.mp4"
ff "${V[@]}" -c:v libx264 -preset ultrafast -g 2 -c:a aac -b:a 8k "${A[@]}" -movflags +faststart "$DIR/faststart.mp4"
ff "${V[@]}" -c:v libvpx -b:v 20k -c:a libopus -b:a 8k -ac 1 "$DIR/vp8-opus.webm"
ff "${V[@]}" -c:v mpeg4 -q:v 20 -c:a libmp3lame -b:a 8k "${A[@]}" "$DIR/mpeg4-mp3.avi"
ff "${V[@]}" -c:v libx264 -preset ultrafast -c:a mp2 -b:a 32k -ar 16000 -ac 1 -f mpegts "$DIR/h264-mp2.ts"
ff "${V[@]}" -c:v mjpeg -q:v 20 -c:a pcm_s16le "${A[@]}" "$DIR/mjpeg-pcm.mkv"
ff "${V[@]}" -an -c:v libtheora -q:v 1 "$DIR/theora.ogv"
ff -i assets/demo.mp4 -t 0.2 -vf scale=16:16 -r 10 -an -pix_fmt yuv420p "$DIR/raw.y4m"
ff -i assets/demo.mp4 -t 0.3 -vf scale=32:18 -r 5 -an "$DIR/anim.gif"
for t in tone.mp3 tone.flac tone.opus tone.wav tone-aac44.m4a tone-aac48.m4a; do
    ext=${t##*.}
    ff -i "assets/$t" -t 0.15 -c copy "$DIR/cut-$t" 2>/dev/null || ff -i "assets/$t" -t 0.15 "${A[@]}" "$DIR/cut-$t"
    [ "$(stat -c %s "$DIR/cut-$t")" -gt 8192 ] && ff -i "assets/$t" -t 0.15 "${A[@]}" "$DIR/small-$ext.$ext" && rm "$DIR/cut-$t"
done
ff -f lavfi -i "sine=frequency=440:sample_rate=8000:duration=0.2" -c:a libvorbis "$DIR/vorbis.ogg"
ff -f lavfi -i "sine=frequency=440:sample_rate=8000:duration=0.2" -c:a pcm_u8 "$DIR/u8.wav"
# Tracks: two audio tracks and text (SRT, ASS) and bitmap (PGS) subtitles in Matroska.
printf '1\n00:00:00,050 --> 00:00:00,200\nhé ✓\n' > "$DIR/t.srt"
printf '[Script Info]\nScriptType: v4.00+\n\n[V4+ Styles]\nFormat: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding\nStyle: S,DejaVu Sans,20,&H00FFFF,&HFF,&H0,&H0,1,0,0,0,100,100,0,0,1,2,0,8,5,5,5,1\n\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\nDialogue: 0,0:00:00.10,0:00:00.25,S,,0,0,0,,{\\pos(10,10)}x\n' > "$DIR/t.ass"
python3 Tests/TestSupport/make_pgs.py "$DIR/t.sup" 64 36 0.05:0.2
ff -i assets/demo.mp4 -f lavfi -i "sine=frequency=880:sample_rate=8000:duration=0.3" -i "$DIR/t.srt" -i "$DIR/t.ass" -i "$DIR/t.sup" \
    -t 0.3 -vf scale=64:36 -r 10 -map 0:v -map 0:a -map 1 -map 2 -map 3 -map 4 -c:v libx264 -preset ultrafast -c:a aac -b:a 8k "${A[@]}" \
    -c:s:0 srt -c:s:1 ass -c:s:2 copy "$DIR/tracks.mkv"
rm -f "$DIR/t.srt" "$DIR/t.ass" "$DIR/t.sup"
printf '#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\nh264-mp2.ts\n#EXT-X-ENDLIST\n' > "$DIR/list.m3u8"
# Broken variants of the mp4: truncated, header bytes flipped, played twice end to end.
whole="$DIR/faststart.mp4"
size=$(stat -c %s "$whole")
for percent in 10 50 90; do head -c $((size * percent / 100)) "$whole" > "$DIR/cut$percent.mp4"; done
python3 - "$whole" "$DIR" <<'EOF'
import sys
data = open(sys.argv[1], "rb").read()
for i, offset in enumerate([4, 40, 200]):
    d = bytearray(data)
    for k in range(offset, min(offset + 16, len(d))):
        d[k] ^= 0xA5
    open(f"{sys.argv[2]}/flipped{i}.mp4", "wb").write(bytes(d))
EOF
cat "$DIR/h264-mp2.ts" "$DIR/h264-mp2.ts" > "$DIR/backwards.ts"
ls "$DIR" | wc -l | xargs echo "fuzz seeds in $DIR:"; du -sh "$DIR" | cut -f1 | xargs echo "total"
