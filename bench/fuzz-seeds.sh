#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Seeds for `make fuzz`, made at fuzz time from the bundled assets: tiny clips
# (64x36 video, 8 kHz mono audio, a few KB each) in the containers and codecs
# DeskPlayer meets, the tone clips cut short, and broken variants like the
# corpus test's (truncated, header bytes flipped, timestamps jumping back),
# and the files that reach the filters (issue 50): a phone's rotated clip with
# an odd timescale, variable frame rate, interlaced, HDR10, a cover. Each
# other door of App/FuzzTargets.swift gets seeds of its own in DIR/TARGET:
# subtitle files, HLS playlists, compositions, config files, state files.
# Usage: bench/fuzz-seeds.sh DIR   (run from the repository root; media seeds in DIR/media)
set -euo pipefail
ROOT=${1:?usage: bench/fuzz-seeds.sh DIR}
DIR="$ROOT/media"
mkdir -p "$DIR" "$ROOT"/{subtitle,hls,composition,config,state}
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
# Through the filters: a phone held upright whose frame rate reads 30000090/1001003
# (rotation), frames at uneven times (VFR), interlaced MPEG-2 (deinterlacing),
# HDR10 HEVC (tone mapping), an MP3 with a cover picture.
ff -i assets/demo.mp4 -t 0.3 -vf scale=64:36 -r 30000/1001 -an -c:v libx264 -preset ultrafast -video_track_timescale 30000090 "$DIR/odd-timescale-plain.mp4"
ff -i "$DIR/odd-timescale-plain.mp4" -c copy -metadata:s:v rotate=90 "$DIR/phone-rotated.mp4" && rm "$DIR/odd-timescale-plain.mp4"
ff -i assets/demo.mp4 -t 0.4 -vf "scale=64:36,setpts='N/10/TB+if(gt(N,2),0.05,0)/TB'" -vsync vfr -an -c:v libx264 -preset ultrafast "$DIR/vfr.mkv"
ff -i assets/demo.mp4 -t 0.3 -vf scale=64:36,interlace=scan=tff -an -c:v mpeg2video -flags +ilme+ildct -top 1 "$DIR/interlaced.mpg"
ff -f lavfi -i testsrc2=size=64x36:rate=10:duration=0.3 -vf "zscale=tin=bt709:min=bt709:pin=bt709:rin=tv:t=smpte2084:m=bt2020nc:p=bt2020:r=tv:npl=100,format=yuv420p10le" \
    -c:v libx265 -pix_fmt yuv420p10le -x265-params colorprim=bt2020:transfer=smpte2084:colormatrix=bt2020nc:log-level=error "$DIR/hdr10.mp4"
ff -f lavfi -i color=c=red:s=16x16 -frames:v 1 "$ROOT/cover.png"
ff -f lavfi -i "sine=frequency=440:sample_rate=8000:duration=0.2" -i "$ROOT/cover.png" -map 0 -map 1 -c:a libmp3lame -b:a 8k \
    -c:v png -disposition:v attached_pic "$DIR/cover.mp3" && rm "$ROOT/cover.png"
# The text doors.
printf '1\n00:00:00,050 --> 00:00:00,200\nhé ✓ <i>x</i>\n\n2\n00:00:01,000 --> 99:00:00,000\nlong\n' > "$ROOT/subtitle/a.srt"
printf 'WEBVTT\n\n00:00.050 --> 00:00.200 line:0\nvtt\n' > "$ROOT/subtitle/b.vtt"
printf '[Script Info]\nScriptType: v4.00+\nPlayResX: 64\nPlayResY: 48\n\n[V4+ Styles]\nFormat: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding\nStyle: S,DejaVu Sans,20,&H00FFFF,&HFF,&H0,&H0,1,0,0,0,100,100,0,0,1,2,0,8,5,5,5,1\n\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\nDialogue: 0,0:00:00.00,0:00:01.00,S,,0,0,0,,{\\pos(10,10)\\fs200}x\n' > "$ROOT/subtitle/c.ass"
python3 Tests/TestSupport/make_pgs.py "$ROOT/subtitle/d.sup" 64 36 0.05:0.2
printf '#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="English",LANGUAGE="en",DEFAULT=YES,URI="a/en.m3u8"\n#EXT-X-STREAM-INF:BANDWIDTH=900000,RESOLUTION=1280x720,AUDIO="aud"\nv0/index.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=400000,RESOLUTION=640x360\nhttp://h/v1.m3u8\n' > "$ROOT/hls/master.m3u8"
printf '#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:9223372036854775807\n#EXT-X-MAP:URI="init.mp4"\n#EXTINF:2.0,\nseg0.m4s\n#EXTINF:1e308,\nseg1.m4s\n#EXT-X-DISCONTINUITY\n#EXTINF:-1,\n../seg2.m4s\n#EXT-X-ENDLIST\n' > "$ROOT/hls/media.m3u8"
printf '{"tracks": [{"name": "music", "segments": [{"source": "a.mp3", "at": 0, "from": 1, "duration": 5},\n  {"source": "b.flac", "at": 4}], "volume": [{"at": 0, "to": 4, "from_volume": 0, "to_volume": 1, "curve": "linear"}]}]}\n' > "$ROOT/composition/show.json"
printf 'tracks:\n  - name: voice\n    segments:\n      - {source: v.wav, at: 1e300, duration: 1e-300}\n' > "$ROOT/composition/extreme.yaml"
printf '# keys\nSPACE cycle pause\nCtrl+a keypress a\na keypress a\nx {pip} set compare-side 1e300\nMBTN_RIGHT script-binding menu #menu: Open…\n#menu: Compare > Wipe   set compare wipe\nLEFT seek -5 exact\n' > "$ROOT/config/input.conf"
printf '# options\nvolume=150\nloop-file=inf\nspeed=1e300\ngeometry=99999x99999+-5+-5\nlayout=grid\nno-remember\n' > "$ROOT/config/deskplayer.conf"
printf '{"volume": 80, "mute": false, "window": {"width": 1280, "height": 720, "x": -32768, "y": 9223372036854775807}}\n' > "$ROOT/state/remembered.json"
printf '{"version": 1, "positions": {"/a/film.mkv": 1e308, "/b.mp4": -5, "c": "x"}}\n' > "$ROOT/state/resume.json"
for d in "$ROOT"/*/; do echo "fuzz seeds in $d: $(ls "$d" | wc -l), $(du -sh "$d" | cut -f1)"; done
