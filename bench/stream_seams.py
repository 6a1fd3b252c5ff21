#!/usr/bin/env python3
"""Stream loop-seam benchmark: samples inserted (+) or lost (-) at each loop
seam of streamed and transport-stream media, DeskPlayer beside mpv and
ffplay, measured in the same run on the same media.

The media is what FFmpeg's own muxers make of 2 s of video (testsrc2, 30 fps,
H.264) and 2 s of stereo noise (AAC, 44.1 or 48 kHz): HLS with MPEG-TS
segments, HLS with fMP4 segments, HLS whose audio is an alternate rendition
(EXT-X-MEDIA, one ffmpeg run: one timeline), one .ts file, and audio only as
a .ts file and as raw ADTS (.aac). HLS is served from a local HTTP server.
The content is 2 s long, so a seam that adds nothing is a pass of exactly
2 s: MPEG-TS and ADTS carry no edit list, so AAC's encoder priming (before
the first video frame) and padding (past the last frame's end) play unless
the player cuts them.

Noise makes every position unique, so cross-correlation with the source
finds each pass exactly. DeskPlayer and ffplay play through SDL's disk audio
driver at its real-time pace, mpv through --ao=pcm; the seam error is
start(k+1) - start(k) - content length, in samples at the capture's rate
(DeskPlayer: 48 kHz; ffplay and mpv: the stream's rate); "once" (null in the
JSON) when a player played the content once and did not loop (ffplay and HLS).

DeskPlayer's video side of each seam is checked too, from --frame-log: the
first frame at 0, and the step across each seam (1 frame: nothing repeated,
skipped or held); steps elsewhere are listed (a late frame dropped on a loaded
machine shows as a step of 2). Audio
alone says nothing of its priming and padding: DeskPlayer plays every decoded
sample, and is also measured with --audio-trim given FFmpeg's (1024, and the
padding its encoder leaves after 2 s).

DESKPLAYER_BIN overrides the binary (default: the release build).
Usage: bench/stream_seams.py [--json bench/out/stream_seams.json] [--players deskplayer,mpv,ffplay]
                             [--only KIND-RATE, e.g. hls-ts or ts-44100]
"""
import csv, functools, http.server, json, os, subprocess, sys, tempfile, threading
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("DESKPLAYER_BIN", os.path.join(ROOT, ".build/release/deskplayer"))
SECONDS, PASSES, FPS = 2, 3, 30
# name, kind, has video
KINDS = [
    ("HLS, TS segments", "hls-ts", True),
    ("HLS, fMP4 segments", "hls-fmp4", True),
    ("HLS, audio rendition", "hls-rendition", True),
    ("TS file", "ts", True),
    ("TS file, audio only", "ts-audio", False),
    ("ADTS (.aac)", "adts", False),
]


def padding(rate):
    """The padding FFmpeg's AAC encoder leaves after SECONDS at `rate` (1024 priming, 1024-sample frames)."""
    n = SECONDS * rate + 1024
    return -n % 1024
RATES = [44100, 48000]


def run(cmd, env=None, timeout=90):
    e = dict(os.environ)
    e.update(env or {})
    try:
        return subprocess.run(cmd, env=e, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None


def make_media(tmp, kind, rate):
    """The media of one case; returns the path or URL path under `tmp` to play."""
    folder = os.path.join(tmp, f"{kind}-{rate}")
    os.makedirs(folder, exist_ok=True)
    video = ["-f", "lavfi", "-i", f"testsrc2=size=320x180:rate={FPS}:duration={SECONDS}"]
    audio = ["-f", "lavfi", "-i", f"anoisesrc=color=white:amplitude=0.3:sample_rate={rate}:duration={SECONDS}:seed=7"]
    venc = ["-c:v", "libx264", "-preset", "ultrafast", "-g", str(FPS)]
    aenc = ["-c:a", "aac", "-b:a", "128k", "-ac", "2"]
    hls = ["-f", "hls", "-hls_time", "1", "-hls_playlist_type", "vod"]
    ff = ["ffmpeg", "-v", "error", "-y"]
    if kind == "hls-ts":
        run(ff + video + audio + venc + aenc + hls + [os.path.join(folder, "index.m3u8")])
        return f"{kind}-{rate}/index.m3u8"
    if kind == "hls-fmp4":
        run(ff + video + audio + venc + aenc + hls + ["-hls_segment_type", "fmp4", os.path.join(folder, "index.m3u8")])
        return f"{kind}-{rate}/index.m3u8"
    if kind == "hls-rendition":
        run(ff + video + audio + ["-map", "0:v", "-map", "1:a"] + venc + aenc + hls
            + ["-master_pl_name", "master.m3u8", "-var_stream_map", "v:0,agroup:aud a:0,agroup:aud,default:yes",
               os.path.join(folder, "stream_%v.m3u8")])
        return f"{kind}-{rate}/master.m3u8"
    if kind == "ts":
        path = os.path.join(folder, "clip.ts")
        run(ff + video + audio + venc + aenc + [path])
        return path
    if kind == "ts-audio":
        path = os.path.join(folder, "clip.ts")
        run(ff + audio + aenc + [path])
        return path
    path = os.path.join(folder, "clip.aac")
    run(ff + audio + aenc + [path])
    return path


def reference(rate, at):
    """The source noise (left channel), resampled by ffmpeg to `at`."""
    out = subprocess.run(["ffmpeg", "-v", "error", "-f", "lavfi", "-i",
                          f"anoisesrc=color=white:amplitude=0.3:sample_rate={rate}:duration={SECONDS}:seed=7",
                          "-ac", "2", "-ar", str(at), "-f", "f32le", "-"], stdout=subprocess.PIPE, check=True).stdout
    return np.frombuffer(out, dtype="<f4")[0::2]


def pass_starts(capture, ref, rate):
    """Where each pass starts: the offset that best matches the source's opening."""
    n = SECONDS * rate
    probe = ref[rate // 10: rate // 10 + 4096]  # 100 ms in: past the first frame
    starts, expected = [], None
    for _ in range(PASSES):
        if expected is None:
            lo, hi = 0, min(len(capture) - len(probe), rate * 6)
        else:
            lo, hi = max(0, expected - rate // 5), min(len(capture) - len(probe), expected + rate // 5)
        if hi <= lo:
            break
        corr = np.correlate(capture[lo:hi + len(probe)], probe, mode="valid")
        if corr.max() < 0.25 * float(np.dot(probe, probe)):
            break  # the source is not there: the player stopped
        # The first pass: the earliest match (later passes match as well).
        peak = int(np.argmax(corr)) if expected is not None else int(np.argmax(corr >= 0.8 * corr.max()))
        best = lo + peak - rate // 10
        starts.append(best)
        expected = best + n
    return starts


def seam_errors(capture, ref, rate):
    """Per seam; None when the content was heard only once (the player did not loop)."""
    starts = pass_starts(capture, ref, rate)
    if len(starts) == 1:
        return None
    return [starts[k + 1] - starts[k] - SECONDS * rate for k in range(len(starts) - 1)]


def cell(errors):
    if errors is None:
        return "once"  # played, did not loop
    return ",".join(f"{e:+d}" for e in errors) or "n/a"


def read_wav_float(path):
    """The samples and rate of a float WAV, walking its chunks."""
    data = open(path, "rb").read() if os.path.exists(path) else b""
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


def raw(path, fmt):
    if not os.path.exists(path):
        return np.zeros(0, dtype=np.float32)
    data = np.fromfile(path, dtype=fmt)
    return data[0::2].astype(np.float32) / (32768.0 if fmt == "<i2" else 1.0)


def video_seams(log):
    """From --frame-log: frames presented, and the pts step at each seam and elsewhere (frames)."""
    try:
        pts = [float(r["pts_s"]) for r in csv.DictReader(open(log))]
    except OSError:
        return None
    steps = [round((b - a) * FPS, 3) for a, b in zip(pts, pts[1:])]
    # Across each seam (pass k starts at k * SECONDS): the step from the
    # last frame shown before it to the first after, in frames (1: exact).
    seams = []
    for k in range(1, PASSES):
        at = next((i for i in range(len(steps)) if pts[i] < k * SECONDS <= pts[i + 1] + 1e-9), None)
        seams.append(None if at is None else steps[at])
    # Elsewhere, a step of more than one frame is a late frame dropped (a
    # loaded machine); less than one would be a repeat.
    odd = [(round(pts[i + 1], 4), steps[i]) for i in range(len(steps)) if steps[i] != 1.0]
    return {"frames": len(pts), "expected": PASSES * SECONDS * FPS, "first_pts": pts[0] if pts else None,
            "seam_steps": seams, "steps_not_one_frame": odd[:10]}


def main():
    players = sys.argv[sys.argv.index("--players") + 1].split(",") if "--players" in sys.argv \
        else ["deskplayer", "mpv", "ffplay"]
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=tmp))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_address[1]}/"
        only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else None
        for name, kind, has_video in KINDS:
            for rate in RATES:
                if only and only not in f"{kind}-{rate}":
                    continue
                media = make_media(tmp, kind, rate)
                url = base + media if kind.startswith("hls") else media
                row = {}
                if "deskplayer" in players:
                    capture, log = os.path.join(tmp, "dp.raw"), os.path.join(tmp, "frames.csv")
                    for f in (capture, log):
                        if os.path.exists(f):
                            os.remove(f)
                    r = run([BIN, url, "--loop", str(PASSES), "--frame-log", log, "--geometry", "320x180"],
                            {"SDL_AUDIODRIVER": "disk", "SDL_DISKAUDIOFILE": capture, "SDL_VIDEODRIVER": "dummy"})
                    row["deskplayer"] = seam_errors(raw(capture, "<f4"), reference(rate, 48000), 48000)
                    if not has_video:
                        # Audio alone says nothing of its priming and padding: what
                        # --audio-trim does with FFmpeg's (1024 and the padding left).
                        trim = f"1024,{padding(rate)}"
                        if os.path.exists(capture):
                            os.remove(capture)
                        run([BIN, url, "--loop", str(PASSES), "--audio-trim", trim],
                            {"SDL_AUDIODRIVER": "disk", "SDL_DISKAUDIOFILE": capture, "SDL_VIDEODRIVER": "dummy"})
                        row["deskplayer_trimmed"] = seam_errors(raw(capture, "<f4"), reference(rate, 48000), 48000)
                        row["audio_trim"] = trim
                    if has_video:
                        row["deskplayer_video"] = video_seams(log)
                    if r is not None:
                        said = [l for l in r.stderr.decode(errors="replace").splitlines() if l.startswith("deskplayer")]
                        if said:
                            row["deskplayer_said"] = said[:3]
                if "ffplay" in players:
                    capture = os.path.join(tmp, "ff.raw")
                    if os.path.exists(capture):
                        os.remove(capture)
                    # ffplay needs a display for its video (the bench runs under xvfb-run).
                    run(["ffplay", "-autoexit", "-loop", str(PASSES), "-x", "320", "-y", "180", url],
                        {"SDL_AUDIODRIVER": "disk", "SDL_DISKAUDIOFILE": capture})
                    row["ffplay"] = seam_errors(raw(capture, "<i2"), reference(rate, rate), rate)
                if "mpv" in players:
                    wav = os.path.join(tmp, "mpv.wav")
                    if os.path.exists(wav):
                        os.remove(wav)
                    run(["mpv", "--no-config", "--really-quiet", "--vo=null", "--ao=pcm", f"--ao-pcm-file={wav}",
                         "--audio-format=float", "--audio-channels=stereo", f"--loop-file={PASSES - 1}", url])
                    pcm, mpv_rate = read_wav_float(wav)
                    row["mpv"] = seam_errors(pcm[0::2], reference(rate, mpv_rate or rate), mpv_rate or rate) \
                        if len(pcm) else []
                results[f"{name}, AAC {rate / 1000:g} kHz"] = row
        server.shutdown()
    print(f"Stream loop seams: samples inserted (+) or lost (-) per seam, {PASSES} passes of {SECONDS} s content "
          "(DeskPlayer at 48 kHz; ffplay and mpv at the stream's rate; once: played but did not loop)")
    print(f"{'source':38} {'DeskPlayer':>12} {'mpv':>14} {'ffplay':>14}  DeskPlayer video seams")
    for name, row in results.items():
        cells = [cell(row.get(p, [])) for p in ("deskplayer", "mpv", "ffplay")]
        v = row.get("deskplayer_video")
        video = "" if v is None else f"first at {v['first_pts']}, seam steps {v['seam_steps']} frames; " \
            f"{v['frames']}/{v['expected']} frames" + \
            (f", elsewhere (pts, frames) {v['steps_not_one_frame']}" if v["steps_not_one_frame"] else ", every step one frame")
        print(f"{name:38} {cells[0]:>12} {cells[1]:>14} {cells[2]:>14}  {video}")
        if "deskplayer_trimmed" in row:
            print(f"{'  DeskPlayer --audio-trim ' + row['audio_trim']:38} {cell(row['deskplayer_trimmed']):>12}")
        for line in row.get("deskplayer_said", []):
            print(f"{'':38} said: {line}")
    if "--json" in sys.argv:
        path = sys.argv[sys.argv.index("--json") + 1]
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        with open(path, "w") as f:
            json.dump({"stream_seams": {"passes": PASSES, "content_seconds": SECONDS, "cases": results}}, f, indent=2)


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


if __name__ == "__main__":
    main()
