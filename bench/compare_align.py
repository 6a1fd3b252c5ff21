#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""compare-align timed beside a plain FFT cross-correlation in numpy of the
same decoded sound (under Xvfb: `xvfb-run -a -s "-screen 0 1920x1080x24"
python3 bench/compare_align.py [--json out.json] [--seconds 60]`).

The media: a reference (testsrc2 1280x720 at 30 fps, pink noise at 48 kHz,
H.264 and AAC) and a re-encode of it cut 1.234 s in (the sound from that
sample on, at 44.1 kHz, AAC 96k), so the truth is 1.234 s.

- DeskPlayer: `--compare flip REF CUT --compare-align audio`, paused; the
  offset and the seconds its analysis took (decoding both starts again,
  resampling to 48 kHz mono, the FFT correlation on its own thread) are
  read from `compare-align-result` over the control socket.
- numpy: ffmpeg decodes the same spans (30 s of the reference, 20 s of
  the cut) to mono float at 48 kHz (swresample, as DeskPlayer does); then
  one full-rate FFT cross-correlation (numpy.fft.rfft, normalised by the
  overlap's energy, the peak within ±10 s). Its time is the correlation
  alone, and the decoding beside it.
"""
import argparse, json, os, socket, subprocess, sys, tempfile, time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DESK = os.environ.get("DESKPLAYER_BIN", os.path.join(ROOT, ".build/release/deskplayer"))
RATE, TRUTH, SEARCH = 48000, 1.234, 10.0
NOISE = "anoisesrc=color=pink:seed=42:sample_rate=48000:amplitude=0.5"
PICTURE = "testsrc2=size=1280x720:rate=30"


def ffmpeg(*args):
    subprocess.run(["ffmpeg", "-v", "error", "-y", *args], check=True)


def make(dir, seconds):
    ref, cut = os.path.join(dir, "ref.mp4"), os.path.join(dir, "cut44.mp4")
    ffmpeg("-f", "lavfi", "-i", PICTURE, "-f", "lavfi", "-i", NOISE, "-t", str(seconds), "-c:v", "libx264",
           "-preset", "veryfast", "-crf", "20", "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "128k", ref)
    ffmpeg("-f", "lavfi", "-i", PICTURE + ",trim=start_frame=37,setpts=PTS-STARTPTS",
           "-f", "lavfi", "-i", NOISE + ",atrim=start=1.234,asetpts=PTS-STARTPTS,aresample=44100",
           "-t", str(seconds - 2), "-c:v", "libx264", "-preset", "ultrafast", "-crf", "26", "-pix_fmt", "yuv420p",
           "-c:a", "aac", "-b:a", "96k", cut)
    return ref, cut


def ipc(path, command):
    with socket.socket(socket.AF_UNIX) as s:
        s.connect(path)
        s.sendall((json.dumps({"command": command}) + "\n").encode())
        data = b""
        # Events may come first: read until the reply (the line with "error").
        while True:
            for line in data.decode(errors="replace").splitlines(keepends=True):
                if line.endswith("\n") and '"error"' in line:
                    return json.loads(line)
            chunk = s.recv(65536)
            if not chunk:
                return {}
            data += chunk


def deskplayer(ref, cut, dir):
    sock = os.path.join(dir, "ipc.sock")
    env = dict(os.environ, SDL_AUDIODRIVER="dummy")
    proc = subprocess.Popen([DESK, ref, cut, "--compare", "flip", "--compare-align", "audio", "--pause", "--no-config",
                             "--geometry", "640x360", "--input-ipc-server", sock],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.time() + 120
        while time.time() < deadline:
            if os.path.exists(sock):
                try:
                    result = ipc(sock, ["get_property", "compare-align-result"]).get("data") or []
                except OSError:
                    result = []
                if result and result[0].get("state") not in (None, "running"):
                    ipc(sock, ["quit"])
                    return result[0]
            time.sleep(0.05)
        raise SystemExit("deskplayer: no alignment within 120 s")
    finally:
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


def decode(path, seconds):
    out = subprocess.run(["ffmpeg", "-v", "error", "-i", path, "-t", str(seconds), "-vn", "-ac", "1", "-ar", str(RATE),
                          "-f", "f32le", "-"], check=True, stdout=subprocess.PIPE).stdout
    return np.frombuffer(out, dtype=np.float32).astype(np.float64)


def numpy_offset(a, b):
    """The lag L (a[i + L] against b[i]) of the highest normalised correlation within ±SEARCH s."""
    n = 1 << (len(a) + len(b) - 1).bit_length()
    c = np.fft.irfft(np.fft.rfft(a, n) * np.conj(np.fft.rfft(b, n)), n)
    ea, eb = np.concatenate(([0.0], np.cumsum(a * a))), np.concatenate(([0.0], np.cumsum(b * b)))
    limit = int(SEARCH * RATE)
    lags = np.arange(-limit, limit + 1)
    start, end = np.maximum(0, lags), np.minimum(len(a), len(b) + lags)
    ok = end - start >= min(len(a), len(b)) // 4
    lags, start, end = lags[ok], start[ok], end[ok]
    energy = np.sqrt((ea[end] - ea[start]) * (eb[end - lags] - eb[start - lags]))
    r = c[lags % n] / np.maximum(energy, 1e-30)
    best = int(np.argmax(r))
    return lags[best] / RATE, float(r[best])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--json")
    parser.add_argument("--seconds", type=float, default=40, help="length of the reference made")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as dir:
        ref, cut = make(dir, args.seconds)
        desk = deskplayer(ref, cut, dir)
        t0 = time.perf_counter()
        a, b = decode(ref, 30), decode(cut, 20)
        t1 = time.perf_counter()
        offset, r = numpy_offset(a, b)
        t2 = time.perf_counter()
    sample = 1 / RATE
    rows = {
        "truth_s": TRUTH,
        "deskplayer": {"offset_s": desk.get("offset"), "samples_off": (desk.get("offset", 0) - TRUTH) / sample,
                       "confidence": desk.get("confidence"), "seconds": desk.get("seconds"), "method": desk.get("method"),
                       "binary": DESK},
        "numpy": {"offset_s": offset, "samples_off": (offset - TRUTH) / sample, "confidence": r,
                  "correlation_seconds": t2 - t1, "ffmpeg_decode_seconds": t1 - t0},
    }
    print(f"truth: {TRUTH} s (one sample at 48 kHz: {sample * 1e6:.1f} us)")
    print(f"deskplayer compare-align: {desk.get('offset')} s ({rows['deskplayer']['samples_off']:+.2f} samples), "
          f"confidence {desk.get('confidence')}, {desk.get('seconds')} s (decoding both starts and correlating)")
    print(f"numpy FFT correlation:    {offset} s ({rows['numpy']['samples_off']:+.2f} samples), confidence {r:.3f}, "
          f"{t2 - t1:.3f} s correlating (+ {t1 - t0:.3f} s ffmpeg decoding)")
    if args.json:
        os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=2)


if __name__ == "__main__":
    sys.exit(main())
