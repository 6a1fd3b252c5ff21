#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
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

Issue 28 adds the streams packagers make: AC-3, E-AC-3 and Opus in HLS TS
segments (and Opus in a .ts file), audio-only HLS, a discontinuity whose second
piece's sound starts 0.12 s after its picture (4 s passes), timestamps that
wrap 33 bits, a B-frame TS whose first keyframe carries no DTS, and a master
playlist whose best variant's segments answer 404. For each, whether every
later pass is sample-identical to the first (else the largest difference).

DESKPLAYER_BIN overrides the binary (default: the release build).
Usage: bench/stream_seams.py [--json bench/out/stream_seams.json] [--players deskplayer,mpv,ffplay]
                             [--only KIND-RATE, e.g. hls-ts, ts-44100 or hls-opus]
"""
import csv, functools, http.server, json, os, subprocess, sys, tempfile, threading
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("DESKPLAYER_BIN", os.path.join(ROOT, ".build/release/deskplayer"))
SECONDS, PASSES, FPS = 2, 3, 30  # SECONDS: the content of most cases (see KINDS)
# name, kind, has video, the AAC rates it is made at (None: 48 kHz, another codec), content seconds a pass
KINDS = [
    ("HLS, TS segments", "hls-ts", True, [44100, 48000], 2),
    ("HLS, fMP4 segments", "hls-fmp4", True, [44100, 48000], 2),
    ("HLS, audio rendition", "hls-rendition", True, [44100, 48000], 2),
    ("TS file", "ts", True, [44100, 48000], 2),
    ("TS file, audio only", "ts-audio", False, [44100, 48000], 2),
    ("ADTS (.aac)", "adts", False, [44100, 48000], 2),
    # Issue 28: the streams packagers make.
    ("HLS, TS, AC-3", "hls-ac3", True, [None], 2),
    ("HLS, TS, E-AC-3", "hls-eac3", True, [None], 2),
    ("HLS, TS, Opus", "hls-opus", True, [None], 2),
    ("TS file, Opus", "ts-opus", True, [None], 2),
    ("HLS, audio only", "hls-audio", False, [48000], 2),
    ("HLS, discontinuity, 0.12 s audio hole", "hls-hole", True, [48000], 4),
    ("TS file, 33-bit wrap at 1.3 s", "ts-wrap", True, [48000], 2),
    ("TS file, B-frames, 1st keyframe no DTS", "ts-nodts", True, [48000], 2),
    ("HLS master, best variant's segments 404", "hls-missing", True, [48000], 2),
]
CODEC = {"hls-ac3": "AC-3", "hls-eac3": "E-AC-3", "hls-opus": "Opus", "ts-opus": "Opus"}


def padding(rate):
    """The padding FFmpeg's AAC encoder leaves after SECONDS at `rate` (1024 priming, 1024-sample frames)."""
    n = SECONDS * rate + 1024
    return -n % 1024
def run(cmd, env=None, timeout=90):
    e = dict(os.environ)
    e.update(env or {})
    try:
        return subprocess.run(cmd, env=e, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None


def strip_first_video_dts(src, dst):
    """`src` with its first video PES header's DTS made stuffing (PTS only), as some packagers write it."""
    d = bytearray(open(src, "rb").read())
    for i in range(0, len(d) - 187, 188):
        if not d[i + 1] & 0x40:
            continue
        o = i + 4 + ((1 + d[i + 4]) if (d[i + 3] >> 4) & 2 else 0)
        if d[o:o + 3] == b"\x00\x00\x01" and d[o + 3] & 0xF0 == 0xE0:
            if d[o + 7] & 0xC0 == 0xC0:
                d[o + 7] = (d[o + 7] & 0x3F) | 0x80
                d[o + 9] = (d[o + 9] & 0x0F) | 0x20
                d[o + 14:o + 19] = b"\xff" * 5
            break
    open(dst, "wb").write(d)


def make_media(tmp, kind, rate):
    """The media of one case; returns the path or URL path under `tmp` to play, and the HTTP faults to inject."""
    rate = rate or 48000
    folder = os.path.join(tmp, f"{kind}-{rate}")
    os.makedirs(folder, exist_ok=True)
    video = ["-f", "lavfi", "-i", f"testsrc2=size=320x180:rate={FPS}:duration={SECONDS}"]
    audio = ["-f", "lavfi", "-i", f"anoisesrc=color=white:amplitude=0.3:sample_rate={rate}:duration={SECONDS}:seed=7"]
    venc = ["-c:v", "libx264", "-preset", "ultrafast", "-g", str(FPS)]
    aenc = ["-c:a", "aac", "-b:a", "128k", "-ac", "2"]
    hls = ["-f", "hls", "-hls_time", "1", "-hls_playlist_type", "vod"]
    ff = ["ffmpeg", "-v", "error", "-y"]
    codec = {"hls-ac3": "ac3", "hls-eac3": "eac3", "hls-opus": "libopus", "ts-opus": "libopus"}.get(kind)
    if codec:
        aenc = ["-c:a", codec, "-ac", "2"]
    if kind in ("hls-ts", "hls-ac3", "hls-eac3", "hls-opus"):
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
    if kind == "hls-audio":
        run(ff + audio + aenc + hls + [os.path.join(folder, "index.m3u8")])
        return f"{kind}-{rate}/index.m3u8"
    if kind == "hls-hole":
        # Two pieces made apart; the second's sound starts 0.12 s after its picture.
        for piece, inputs in (("p1", video + audio), ("p2", ["-f", "lavfi", "-i", f"testsrc=size=320x180:rate={FPS}:duration=2",
                                                             "-itsoffset", "0.12", "-f", "lavfi", "-i",
                                                             f"anoisesrc=color=pink:amplitude=0.3:sample_rate={rate}:duration=1.88:seed=9"])):
            os.makedirs(os.path.join(folder, piece), exist_ok=True)
            run(ff + inputs + venc + aenc + hls + [os.path.join(folder, piece, "index.m3u8")])
        with open(os.path.join(folder, "index.m3u8"), "w") as f:
            f.write("#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:1\n#EXT-X-PLAYLIST-TYPE:VOD\n"
                    "#EXTINF:1.0,\np1/index0.ts\n#EXTINF:1.0,\np1/index1.ts\n#EXT-X-DISCONTINUITY\n"
                    "#EXTINF:1.0,\np2/index0.ts\n#EXTINF:1.0,\np2/index1.ts\n#EXT-X-ENDLIST\n")
        return f"{kind}-{rate}/index.m3u8"
    if kind == "hls-missing":
        # Two variants; every segment of the best one answers 404 (the server's FAULTS).
        for v, size in (("v0", "320x180"), ("v1", "160x90")):
            os.makedirs(os.path.join(folder, v), exist_ok=True)
            run(ff + ["-f", "lavfi", "-i", f"testsrc2=size={size}:rate={FPS}:duration={SECONDS}"] + audio + venc + aenc
                + hls + [os.path.join(folder, v, "index.m3u8")])
        with open(os.path.join(folder, "master.m3u8"), "w") as f:
            f.write("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=900000,RESOLUTION=320x180\nv0/index.m3u8\n"
                    "#EXT-X-STREAM-INF:BANDWIDTH=400000,RESOLUTION=160x90\nv1/index.m3u8\n")
        FAULTS.update({f"/{kind}-{rate}/v0/index0.ts", f"/{kind}-{rate}/v0/index1.ts"})
        return f"{kind}-{rate}/master.m3u8"
    if kind in ("ts", "ts-opus"):
        path = os.path.join(folder, "clip.ts")
        run(ff + video + audio + venc + aenc + [path])
        return path
    if kind == "ts-wrap":
        path = os.path.join(folder, "clip.ts")
        run(ff + video + audio + venc + aenc + ["-output_ts_offset", "95441", path])
        return path
    if kind == "ts-nodts":
        path = os.path.join(folder, "clip.ts")
        run(ff + video + audio + ["-c:v", "libx264", "-g", str(FPS)] + aenc + [os.path.join(folder, "bframes.ts")])
        strip_first_video_dts(os.path.join(folder, "bframes.ts"), path)
        return path
    if kind == "ts-audio":
        path = os.path.join(folder, "clip.ts")
        run(ff + audio + aenc + [path])
        return path
    path = os.path.join(folder, "clip.aac")
    run(ff + audio + aenc + [path])
    return path


# Paths the HTTP server answers with 404 (hls-missing).
FAULTS = set()


def reference(rate, at):
    """The source noise (left channel), resampled by ffmpeg to `at`."""
    out = subprocess.run(["ffmpeg", "-v", "error", "-f", "lavfi", "-i",
                          f"anoisesrc=color=white:amplitude=0.3:sample_rate={rate}:duration={SECONDS}:seed=7",
                          "-ac", "2", "-ar", str(at), "-f", "f32le", "-"], stdout=subprocess.PIPE, check=True).stdout
    return np.frombuffer(out, dtype="<f4")[0::2]


def pass_starts(capture, ref, rate, seconds=SECONDS):
    """Where each pass starts: the offset that best matches the source's opening."""
    n = seconds * rate
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


def seam_errors(capture, ref, rate, seconds=SECONDS):
    """Per seam; None when the content was heard only once (the player did not loop)."""
    starts = pass_starts(capture, ref, rate, seconds)
    if len(starts) == 1:
        return None
    return [starts[k + 1] - starts[k] - seconds * rate for k in range(len(starts) - 1)]


def pass_differences(capture, ref, rate, seconds=SECONDS):
    """The largest difference of each later pass from the first, sample for sample (0: identical).
    The passes are found against the source, which may sit a few samples off the player's own pass
    start (fMP4's priming cut: 15 samples), so the last 256 samples of each pass are left out: the
    last pass's would reach past the end of what was played."""
    starts = pass_starts(capture, ref, rate, seconds)
    n = seconds * rate - 256
    first = capture[starts[0]:starts[0] + n] if starts else []
    out = []
    for s in starts[1:]:
        # Found against the source, a start can sit a sample off where the
        # pass really starts (resampled content lies between the source's
        # samples): the closest of the neighbouring alignments counts.
        diffs = [float(np.max(np.abs(capture[t:t + n] - first))) for t in range(s - 2, s + 3)
                 if t >= 0 and len(capture[t:t + n]) == len(first) == n]
        out.append(min(diffs) if diffs else None)
    return out


def same_cell(diffs):
    if diffs is None or not diffs:
        return "n/a"
    if any(d is None for d in diffs):
        return "short"
    return "identical" if max(diffs) == 0 else f"{max(diffs):.1e}"


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


def video_seams(log, seconds=SECONDS):
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
        at = next((i for i in range(len(steps)) if pts[i] < k * seconds <= pts[i + 1] + 1e-9), None)
        seams.append(None if at is None else steps[at])
    # Elsewhere, a step of more than one frame is a late frame dropped (a
    # loaded machine); less than one would be a repeat.
    odd = [(round(pts[i + 1], 4), steps[i]) for i in range(len(steps)) if steps[i] != 1.0]
    return {"frames": len(pts), "expected": PASSES * seconds * FPS, "first_pts": pts[0] if pts else None,
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
        for name, kind, has_video, rates, seconds in KINDS:
            for rate in rates:
                if only and only not in f"{kind}-{rate or 48000}":
                    continue
                media = make_media(tmp, kind, rate)
                url = base + media if kind.startswith("hls") else media
                source_rate = rate or 48000
                row = {}
                if "deskplayer" in players:
                    capture, log = os.path.join(tmp, "dp.raw"), os.path.join(tmp, "frames.csv")
                    for f in (capture, log):
                        if os.path.exists(f):
                            os.remove(f)
                    r = run([BIN, url, "--loop", str(PASSES), "--frame-log", log, "--geometry", "320x180"],
                            {"SDL_AUDIODRIVER": "disk", "SDL_DISKAUDIOFILE": capture, "SDL_VIDEODRIVER": "dummy"})
                    pcm, ref = raw(capture, "<f4"), reference(source_rate, 48000)
                    row["deskplayer"] = seam_errors(pcm, ref, 48000, seconds)
                    row["deskplayer_same"] = pass_differences(pcm, ref, 48000, seconds)
                    if not has_video and rate is not None and kind != "hls-audio":
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
                        row["deskplayer_video"] = video_seams(log, seconds)
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
                    pcm, ref = raw(capture, "<i2"), reference(source_rate, source_rate)
                    row["ffplay"] = seam_errors(pcm, ref, source_rate, seconds)
                    row["ffplay_same"] = pass_differences(pcm, ref, source_rate, seconds)
                if "mpv" in players:
                    wav = os.path.join(tmp, "mpv.wav")
                    if os.path.exists(wav):
                        os.remove(wav)
                    run(["mpv", "--no-config", "--really-quiet", "--vo=null", "--ao=pcm", f"--ao-pcm-file={wav}",
                         "--audio-format=float", "--audio-channels=stereo", f"--loop-file={PASSES - 1}", url])
                    pcm, mpv_rate = read_wav_float(wav)
                    ref = reference(source_rate, mpv_rate or source_rate)
                    row["mpv"] = seam_errors(pcm[0::2], ref, mpv_rate or source_rate, seconds) if len(pcm) else []
                    row["mpv_same"] = pass_differences(pcm[0::2], ref, mpv_rate or source_rate, seconds) if len(pcm) else []
                audio_name = CODEC.get(kind) or f"AAC {source_rate / 1000:g} kHz"
                results[f"{name}, {audio_name}"] = row
        server.shutdown()
    print(f"Stream loop seams: samples inserted (+) or lost (-) per seam, {PASSES} passes of {SECONDS} s content "
          "(4 s for the discontinuity; DeskPlayer at 48 kHz; ffplay and mpv at the stream's rate; once: played but "
          "did not loop); then whether every later pass is sample-identical to the first (else the largest difference)")
    print(f"{'source':44} {'DeskPlayer':>12} {'mpv':>14} {'ffplay':>14}  DeskPlayer video seams")
    for name, row in results.items():
        cells = [cell(row.get(p, [])) for p in ("deskplayer", "mpv", "ffplay")]
        same = [same_cell(row.get(p + "_same")) for p in ("deskplayer", "mpv", "ffplay")]
        v = row.get("deskplayer_video")
        video = "" if v is None else f"first at {v['first_pts']}, seam steps {v['seam_steps']} frames; " \
            f"{v['frames']}/{v['expected']} frames" + \
            (f", elsewhere (pts, frames) {v['steps_not_one_frame']}" if v["steps_not_one_frame"] else ", every step one frame")
        print(f"{name:44} {cells[0]:>12} {cells[1]:>14} {cells[2]:>14}  {video}")
        print(f"{'  passes identical to the first':44} {same[0]:>12} {same[1]:>14} {same[2]:>14}")
        if "deskplayer_trimmed" in row:
            print(f"{'  DeskPlayer --audio-trim ' + row['audio_trim']:44} {cell(row['deskplayer_trimmed']):>12}")
        for line in row.get("deskplayer_said", []):
            print(f"{'':44} said: {line}")
    if "--json" in sys.argv:
        path = sys.argv[sys.argv.index("--json") + 1]
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        with open(path, "w") as f:
            json.dump({"stream_seams": {"passes": PASSES, "content_seconds": SECONDS, "cases": results}}, f, indent=2)


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        if self.path in FAULTS:
            self.send_error(404)
            return
        super().do_GET()


if __name__ == "__main__":
    main()
