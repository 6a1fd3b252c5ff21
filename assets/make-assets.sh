#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Makes the bundled media with the ffmpeg command line. Run from anywhere:
#   sh assets/make-assets.sh
# Everything is synthetic (test patterns, tones), so the files are small and
# their content is known exactly: tests compare against it.
set -eu
cd "$(dirname "$0")"
FONT=/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf
ff() { ffmpeg -nostdin -hide_banner -loglevel error -y "$@"; }

# demo.mp4: 1280x720 30 fps H.264 + AAC 44.1 kHz stereo, 10 s. The big
# number is the frame index; the tone is 441 Hz (100 samples a period).
ff -f lavfi -i "testsrc2=size=1280x720:rate=30:duration=10" \
   -f lavfi -i "sine=frequency=441:sample_rate=44100:duration=10" \
   -filter_complex "[0:v]drawtext=fontfile=$FONT:text='%{frame_num}':fontsize=160:fontcolor=white:box=1:boxcolor=black@0.6:x=(w-tw)/2:y=(h-th)/2[v];[1:a]pan=stereo|c0=c0|c1=c0[a]" \
   -map "[v]" -map "[a]" -c:v libx264 -preset veryfast -crf 30 -g 30 -pix_fmt yuv420p \
   -colorspace bt709 -color_primaries bt709 -color_trc bt709 \
   -c:a aac -b:a 96k -movflags +faststart demo.mp4

# compare.mp4: a second 1280x720 clip at 25 fps with a 48 kHz 480 Hz tone, 8 s.
ff -f lavfi -i "testsrc=size=1280x720:rate=25:duration=8" \
   -f lavfi -i "sine=frequency=480:sample_rate=48000:duration=8" \
   -filter_complex "[0:v]drawtext=fontfile=$FONT:text='B %{frame_num}':fontsize=120:fontcolor=yellow:box=1:boxcolor=black@0.6:x=(w-tw)/2:y=(h-th)/2[v]" \
   -map "[v]" -map 1:a -c:v libx264 -preset veryfast -crf 30 -g 25 -pix_fmt yuv420p \
   -colorspace bt709 -color_primaries bt709 -color_trc bt709 \
   -c:a aac -b:a 64k -ac 2 -movflags +faststart compare.mp4

# Short audio clips, 2 s of a tone that is whole periods long at its rate.
ff -f lavfi -i "sine=frequency=441:sample_rate=44100:duration=2" -c:a aac -b:a 96k tone-aac44.m4a
ff -f lavfi -i "sine=frequency=480:sample_rate=48000:duration=2" -c:a aac -b:a 96k tone-aac48.m4a
ff -f lavfi -i "sine=frequency=441:sample_rate=44100:duration=2" -c:a libmp3lame -b:a 128k tone.mp3
ff -f lavfi -i "sine=frequency=480:sample_rate=48000:duration=2" -c:a libopus -b:a 64k tone.opus
ff -f lavfi -i "sine=frequency=441:sample_rate=44100:duration=2" -c:a flac tone.flac
ff -f lavfi -i "sine=frequency=480:sample_rate=48000:duration=2" -ac 2 -c:a pcm_s16le tone.wav
