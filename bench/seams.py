#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Loop-seam benchmark: samples inserted (+) or lost (-) at each loop seam,
DeskPlayer beside ffplay and mpv, measured in the same run on the same files.

Each clip is 2 s of stereo noise (noise makes every position unique, so
cross-correlation finds each pass exactly; a tone repeats every period).
Every player loops it 3 times into a raw capture: DeskPlayer and ffplay
through SDL's disk audio driver at its real-time pace (an infinitely fast
device would starve any player that decodes on threads), mpv through --ao=pcm. For each pass we find
where the clip starts in the capture; the seam error is
start(k+1) - start(k) - clip length.

Usage: bench/seams.py [--json bench/results-seams.json]   (`make bench`)
"""
import json, os, subprocess, sys, tempfile
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, ".build/release/deskplayer")
CLIPS = [  # name, rate, ffmpeg encoder arguments
    ("AAC 44.1 kHz (mp4)", "m4a", 44100, ["-c:a", "aac", "-b:a", "128k"]),
    ("AAC 48 kHz (mp4)", "m4a", 48000, ["-c:a", "aac", "-b:a", "128k"]),
    ("MP3 44.1 kHz", "mp3", 44100, ["-c:a", "libmp3lame", "-b:a", "192k"]),
    ("Opus (ogg)", "opus", 48000, ["-c:a", "libopus", "-b:a", "128k"]),
    ("FLAC 44.1 kHz", "flac", 44100, ["-c:a", "flac"]),
    ("PCM 48 kHz (wav)", "wav", 48000, ["-c:a", "pcm_s16le"]),
]
SECONDS, PASSES = 2, 3


def run(cmd, env=None, timeout=60):
    e = dict(os.environ)
    e.update(env or {})
    return subprocess.run(cmd, env=e, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=timeout)


def decode(path, rate):
    """The clip as ffmpeg decodes it: left channel, float, at `rate`."""
    out = subprocess.run(["ffmpeg", "-v", "error", "-i", path, "-ac", "2", "-ar", str(rate), "-f", "f32le", "-"],
                         stdout=subprocess.PIPE, check=True).stdout
    return np.frombuffer(out, dtype="<f4")[0::2]


def pass_starts(capture, reference, rate):
    """Where each pass starts: the offset that best matches the clip's opening."""
    n = SECONDS * rate
    probe = reference[rate // 10: rate // 10 + 4096]  # 100 ms in: past any fade-in
    starts, expected = [], None
    for k in range(PASSES):
        if expected is None:
            lo, hi = 0, min(len(capture) - len(probe), rate * 3)
        else:
            lo, hi = max(0, expected - rate // 5), min(len(capture) - len(probe), expected + rate // 5)
        if hi <= lo:
            break
        window = capture[lo:hi + len(probe)]
        corr = np.correlate(window, probe, mode="valid")
        best = lo + int(np.argmax(corr)) - rate // 10
        starts.append(best)
        expected = best + n
    return starts


def seam_errors(capture, reference, rate):
    starts = pass_starts(capture, reference, rate)
    n = SECONDS * rate
    return [starts[k + 1] - starts[k] - n for k in range(len(starts) - 1)]


def capture_raw(path, fmt, channels):
    data = np.fromfile(path, dtype=fmt)
    return data[0::channels].astype(np.float32) / (32768.0 if fmt == "<i2" else 1.0)


def read_wav_float(path):
    """The samples and rate of a float WAV, walking its chunks."""
    data = open(path, "rb").read()
    pos, rate = 12, 0
    while pos + 8 <= len(data):
        cid, size = data[pos:pos + 4], int.from_bytes(data[pos + 4:pos + 8], "little")
        if cid == b"fmt ":
            rate = int.from_bytes(data[pos + 12:pos + 16], "little")
        if cid == b"data":
            end = pos + 8 + (size if 0 < size < len(data) else len(data))
            return np.frombuffer(data[pos + 8:end][: (end - pos - 8) // 4 * 4], dtype="<f4"), rate
        pos += 8 + size + (size & 1)
    return np.zeros(0, dtype="<f4"), rate


def main():
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, ext, rate, enc in CLIPS:
            clip = os.path.join(tmp, f"noise{rate}.{ext}")
            run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i",
                 f"anoisesrc=color=white:amplitude=0.3:sample_rate={rate}:duration={SECONDS}:seed=7",
                 "-ac", "2"] + enc + [clip])
            row = {}
            # DeskPlayer: always 48 kHz stereo float.
            raw = os.path.join(tmp, "dp.raw")
            run([BIN, clip, "--loop", str(PASSES)], {"SDL_AUDIODRIVER": "disk", "SDL_DISKAUDIOFILE": raw,
                                                      "SDL_VIDEODRIVER": "dummy"})
            row["deskplayer"] = seam_errors(capture_raw(raw, "<f4", 2), decode(clip, 48000), 48000)
            # ffplay: opens SDL at the clip's rate, 16-bit, the clip's channels.
            raw = os.path.join(tmp, "ff.raw")
            run(["ffplay", "-nodisp", "-autoexit", "-loop", str(PASSES), clip],
                {"SDL_AUDIODRIVER": "disk", "SDL_DISKAUDIOFILE": raw})
            row["ffplay"] = seam_errors(capture_raw(raw, "<i2", 2), decode(clip, rate), rate)
            # mpv: --loop-file=N repeats N times after the first play.
            wav = os.path.join(tmp, "mpv.wav")
            run(["mpv", "--no-config", "--really-quiet", "--vo=null", "--ao=pcm", f"--ao-pcm-file={wav}",
                 "--audio-format=float", "--audio-channels=stereo", f"--loop-file={PASSES - 1}", clip])
            pcm, mpv_rate = read_wav_float(wav)
            row["mpv"] = seam_errors(pcm[0::2], decode(clip, mpv_rate), mpv_rate)
            results[name] = row
    print(f"Loop seams: samples inserted (+) or lost (-) per seam, {PASSES} passes of a {SECONDS} s clip")
    print(f"{'source':22} {'DeskPlayer':>14} {'ffplay':>14} {'mpv':>14}")
    for name, row in results.items():
        cells = [",".join(f"{e:+d}" for e in row[p]) or "n/a" for p in ("deskplayer", "ffplay", "mpv")]
        print(f"{name:22} {cells[0]:>14} {cells[1]:>14} {cells[2]:>14}")
    if "--json" in sys.argv:
        path = sys.argv[sys.argv.index("--json") + 1]
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        with open(path, "w") as f:
            json.dump({"seams": results}, f, indent=2)


if __name__ == "__main__":
    main()
