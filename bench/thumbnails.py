#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Issue 31's seek-bar thumbnails, measured (under Xvfb: `xvfb-run -a -s
"-screen 0 1920x1080x24" python3 bench/thumbnails.py [--json out.json]`).

The media: 60 s of 1280x720 at 25 fps (testsrc2), H.264 with a keyframe
every 10 s and B-frames, frame N's number drawn into its top quarter as 11
stripes (white for a 1 bit, least significant on the left).

- Time from hover to thumbnail: DeskPlayer paused in a 1280x720 window, the
  mouse put by xdotool on 20 times of the bar (a fixed pseudo-random walk);
  its --stats-json says, for each time whose picture had to be decoded, how
  long from the mouse reaching it to the picture (mean, largest), and how
  many were already made on the way to others.
  Its thumbnail threads' own CPU time per such time says what the wait
  would be on an idle core (the thread runs at nice 19: on a loaded machine
  it waits for every other thread). The machine's load average is written
  beside.
- Accuracy: the thumbnail grabbed from the screen after each move until it
  shows a picture within a second of the time (3 s at most), its frame
  number read, against the time under the mouse; how long until then
  (an upper bound: each x11grab takes a while).
- Cost: the clip plays 15 s three times: the mouse away; scrubbing over the
  bar (20 moves a second, all over it) with thumbnails; the same with
  --thumbnails=no. Frames dropped (--stats-json), the process's CPU
  seconds (user + system, from wait4) and the thumbnail threads' of each.
- An HLS stream of the same clip (a keyframe every 2 s, 6 s MPEG-TS
  segments, AAC audio) served over HTTP on 127.0.0.1 by the tests' server
  (Tests/TestSupport/hls_server.py, which logs each request and its
  bytes): the same 20 hovers, the same figures, and the segments and bytes
  fetched (the player's own, paused at the start, and the thumbnails')
  against the stream's size and the segments the 20 times fall in; and
  (without --hover-only) 15 s of it played with the mouse away and
  scrubbing as above: frames dropped and CPU seconds.
- Beside mpv: no thumbnail script is packaged here (thumbfast,
  mpv_thumbnail_script are not in Debian); what the older scripts do, one
  mpv process per thumbnail with an exact seek, a 192x108 scale, the loop
  filter skipped and one decoder thread, is timed for the same 20 times.
"""
import argparse, json, os, subprocess, sys, tempfile, time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DESK = os.environ.get("DESKPLAYER_BIN", os.path.join(ROOT, ".build/release/deskplayer"))
W, H, FPS, SECONDS = 1280, 720, 25, 60
BITS = 11
# ControlBar's layout for a tile of W x H (UI/ControlBar.swift): the seek track's x, width and middle y.
BAR_Y = H - 40
TRACK_X = 8 + 28 + 10 + 130
VOLUME_W = min(80, max(W // 8, 30))
TRACK_W = max((W - 44 - VOLUME_W - 10) - 16 - TRACK_X, 20)
TRACK_MID = BAR_Y + 20
# The thumbnail: 192x108, centred on the mouse, its bottom 4 px over the time label (a line of text + 10 px over the bar).
THUMB_W, THUMB_H = 192, 108


def walk(n, seed=12345):
    """A fixed pseudo-random sequence of fractions in [0, 1]."""
    out, state = [], seed
    for _ in range(n):
        state = (state * 1103515245 + 12345) & 0xFFFFFFFF
        out.append(((state >> 16) & 0x7FFF) / 32767)
    return out


def make_clip(path):
    code = (f"color=black:size={W}x{H // 4}:rate={FPS}:duration={SECONDS},"
            f"geq=lum='if(gt(bitand(N\\,pow(2\\,floor(X*{BITS}/W)))\\,0)\\,235\\,16)':cb=128:cr=128")
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i",
                    f"testsrc2=size={W}x{H}:rate={FPS}:duration={SECONDS}", "-f", "lavfi", "-i", code,
                    "-filter_complex", "[0][1]overlay=0:0", "-c:v", "libx264", "-preset", "veryfast", "-g", "250",
                    "-keyint_min", "250", "-sc_threshold", "0", "-bf", "3", "-pix_fmt", "yuv420p", path], check=True)


SEGMENT_SECONDS = 6
HLS_SERVER = os.path.join(ROOT, "Tests/TestSupport/hls_server.py")


def make_hls(clip, folder):
    """The clip as a VOD HLS stream: a keyframe every 2 s, 6 s segments, AAC audio."""
    os.makedirs(folder, exist_ok=True)
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-i", clip, "-f", "lavfi", "-i",
                    f"sine=f=440:sample_rate=48000:duration={SECONDS}", "-map", "0:v", "-map", "1:a",
                    "-c:v", "libx264", "-preset", "veryfast", "-g", str(2 * FPS), "-keyint_min", str(2 * FPS),
                    "-sc_threshold", "0", "-bf", "3", "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "64k",
                    "-f", "hls", "-hls_time", str(SEGMENT_SECONDS), "-hls_playlist_type", "vod",
                    os.path.join(folder, "index.m3u8")], check=True)


def served(log):
    """(path, bytes) of each request the server answered."""
    if not os.path.exists(log):
        return []
    out = []
    for line in open(log):
        fields = line.split()
        if fields:
            out.append((fields[0], int(fields[1]) if len(fields) > 1 and fields[1].isdigit() else 0))
    return out


def hls_run(clip, d, text_height, plays):
    folder = os.path.join(d, "hls")
    make_hls(clip, folder)
    log = os.path.join(d, "requests.log")
    server = subprocess.Popen(["python3", HLS_SERVER, folder, log], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    runs = None
    try:
        port = int(server.stdout.readline())
        url = f"http://127.0.0.1:{port}/index.m3u8"
        report, errors, seen, _ = hover_run(url, d, text_height, settle=2)
        segments = [(p, b) for p, b in served(log) if p.endswith(".ts")]
        if plays:
            runs = {name: play_run(url, d, "hls-" + name, scrub) for name, scrub in [("still", False), ("scrubbing", True)]}
    finally:
        server.kill()
        server.wait()
    total = sum(os.path.getsize(os.path.join(folder, f)) for f in os.listdir(folder) if f.endswith(".ts"))
    hovered = {int(time_at(track_x(f)) // SEGMENT_SECONDS) for f in walk(20)}
    return {
        "hoverToThumbnailMeanMs": report.get("thumbnailMeanMs"),
        "hoverToThumbnailMaxMs": report.get("thumbnailMaxMs"),
        "thumbnailsDecoded": report.get("thumbnailsDecoded"),
        "thumbnailsReadyAtOnce": report.get("thumbnailsReady"),
        "onScreenWithinMeanMs": round(sum(seen) / len(seen) * 1000, 1),
        "onScreenWithinMaxMs": round(max(seen) * 1000, 1),
        "accuracyMeanSeconds": round(sum(errors) / len(errors), 3),
        "accuracyMaxSeconds": round(max(errors), 3),
        "segmentsInStream": len([f for f in os.listdir(folder) if f.endswith(".ts")]),
        "segmentsHovered": len(hovered),
        "segmentRequests": len(segments),
        "segmentsFetched": len({p for p, _ in segments}),
        "bytesFetched": sum(b for _, b in segments),
        "streamBytes": total,
        **({"play15s": runs} if runs else {}),
    }


def grab(x, y, w, h, path):
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "x11grab", "-video_size", f"{w}x{h}", "-i",
                    f"{os.environ['DISPLAY']}+{x},{y}", "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", path],
                   check=True)
    return np.fromfile(path, dtype=np.uint8).reshape(h, w, 3)


def code_of(picture):
    """The frame number in the top quarter's stripes."""
    h, w, _ = picture.shape
    row = h // 8
    return sum(1 << b for b in range(BITS) if picture[row, (2 * b + 1) * w // (2 * BITS), 1] > 128)


def track_x(fraction):
    return TRACK_X + int((TRACK_W - 1) * fraction)


def time_at(x):
    return min(max((x - TRACK_X) / TRACK_W, 0), 1) * SECONDS


def xdotool(*args):
    subprocess.run(["xdotool", *map(str, args)], check=True)


def wait_window(proc):
    subprocess.run(["xdotool", "search", "--sync", "--onlyvisible", "--pid", str(proc.pid)], timeout=20,
                   stdout=subprocess.DEVNULL, check=False)


def finish(proc, timeout=30):
    """Waits for the app; its CPU seconds (user + system)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            proc.returncode = status
            return usage.ru_utime + usage.ru_stime
        time.sleep(0.05)
    proc.kill()
    _, _, usage = os.wait4(proc.pid, 0)
    return usage.ru_utime + usage.ru_stime


def hover_run(clip, d, text_height, settle=0.5):
    """Latency (the app's own figures) and accuracy (the screen's)."""
    stats = os.path.join(d, "hover.json")
    proc = subprocess.Popen([DESK, clip, "--pause", "--geometry", f"{W}x{H}+0+0", "--no-config", "--no-resume",
                             "--stats-json", stats], stderr=subprocess.PIPE)
    wait_window(proc)
    time.sleep(settle)
    errors, seen = [], []
    tip_top = BAR_Y - text_height - 10
    # What one grab takes on its own (the on-screen figure includes at least one).
    start = time.perf_counter()
    grab(0, 0, THUMB_W, THUMB_H, os.path.join(d, "thumb.rgb"))
    grab_seconds = time.perf_counter() - start
    for fraction in walk(20):
        x = track_x(fraction)
        asked = time_at(x)
        xdotool("mousemove", x, TRACK_MID - 60, "sleep", "0.05", "mousemove", x, TRACK_MID)
        start = time.perf_counter()
        left = min(max(x - THUMB_W // 2, 0), W - THUMB_W)
        # Grabbed until it shows a picture within a second of the time (3 s at most).
        while True:
            shown = code_of(grab(left, tip_top - 4 - THUMB_H, THUMB_W, THUMB_H, os.path.join(d, "thumb.rgb"))) / FPS
            if abs(shown - asked) <= 1 or time.perf_counter() - start > 3:
                break
        errors.append(abs(shown - asked))
        seen.append(time.perf_counter() - start)
    xdotool("key", "q")
    finish(proc)
    report = json.load(open(stats))
    return report, errors, seen, grab_seconds


def play_run(clip, d, name, scrub, thumbnails=True):
    stats = os.path.join(d, f"{name}.json")
    args = [DESK, clip, "--geometry", f"{W}x{H}+0+0", "--no-config", "--no-resume", "--quit-after", "15",
            "--stats-json", stats] + ([] if thumbnails else ["--thumbnails=no"])
    proc = subprocess.Popen(args, stderr=subprocess.DEVNULL)
    wait_window(proc)
    if scrub:
        moves = []
        for fraction in walk(330, seed=777):
            moves += ["mousemove", track_x(fraction), TRACK_MID, "sleep", "0.05"]
        subprocess.run(["xdotool", *map(str, moves)], timeout=60, check=False)
    else:
        xdotool("mousemove", 1919, 1079)
    cpu = finish(proc)
    report = json.load(open(stats))
    p = report["players"][0]
    return {"framesPresented": p["framesPresented"], "framesDropped": p["framesDropped"], "cpuSeconds": round(cpu, 2),
            "thumbnailsMade": report.get("thumbnailsMade", 0), "thumbnailCpuSeconds": report.get("thumbnailCpuSeconds", 0)}


def mpv_per_thumbnail(clip, d):
    """One mpv process per thumbnail, as mpv_thumbnail_script does: seconds each."""
    times = []
    for fraction in walk(20):
        t = time_at(track_x(fraction))
        out = os.path.join(d, "mpv-thumb")
        start = time.perf_counter()
        subprocess.run(["mpv", "--no-config", "--really-quiet", "--no-audio", "--vo=image", "--vo-image-format=png",
                        f"--vo-image-outdir={out}", "--frames=1", f"--start={t:.3f}", "--hr-seek=yes",
                        "--vf=scale=192:108", "--vd-lavc-skiploopfilter=all", "--vd-lavc-threads=1", clip],
                       check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60)
        times.append(time.perf_counter() - start)
    return times


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--json")
    ap.add_argument("--text-height", type=int, default=None,
                    help="the time label's line height (TextRenderer.lineHeight: 21 with DejaVu Sans)")
    ap.add_argument("--hover-only", action="store_true",
                    help="only the hovers (the file's and the HLS stream's), not the 15 s plays nor mpv")
    a = ap.parse_args()
    if "DISPLAY" not in os.environ:
        sys.exit("needs an X display: run under xvfb-run")
    with tempfile.TemporaryDirectory() as d:
        clip = os.path.join(d, "coded720.mp4")
        make_clip(clip)
        # DejaVu Sans at the app's size: the time label's line height (TextRenderer.lineHeight).
        text_height = a.text_height or 21
        load = os.getloadavg()[0]
        report, errors, seen, grab_seconds = hover_run(clip, d, text_height)
        hls = hls_run(clip, d, text_height, plays=not a.hover_only)
        if a.hover_only:
            runs, mpv = None, None
        else:
            runs = {name: play_run(clip, d, name, scrub, thumbs)
                    for name, scrub, thumbs in [("still", False, True), ("scrubbing", True, True),
                                                ("scrubbingWithoutThumbnails", True, False)]}
            mpv = mpv_per_thumbnail(clip, d)
    out = {
        "hoverToThumbnailMeanMs": report.get("thumbnailMeanMs"),
        "hoverToThumbnailMaxMs": report.get("thumbnailMaxMs"),
        "thumbnailsDecoded": report.get("thumbnailsDecoded"),
        "thumbnailsReadyAtOnce": report.get("thumbnailsReady"),
        "thumbnailCpuMsPerDecodedHover": round(report.get("thumbnailCpuSeconds", 0) * 1000
                                               / max(report.get("thumbnailsDecoded") or 1, 1), 1),
        "onScreenWithinMeanMs": round(sum(seen) / len(seen) * 1000, 1),
        "onScreenWithinMaxMs": round(max(seen) * 1000, 1),
        "oneX11GrabMs": round(grab_seconds * 1000, 1),
        "loadAverageAtStart": round(load, 2),
        "accuracyMeanSeconds": round(sum(errors) / len(errors), 3),
        "accuracyMaxSeconds": round(max(errors), 3),
        "hls": hls,
    }
    if runs and mpv:
        out.update({
            "play15s": runs,
            "thumbnailCpuSecondsWhileScrubbing": round(runs["scrubbing"]["cpuSeconds"]
                                                        - runs["scrubbingWithoutThumbnails"]["cpuSeconds"], 2),
            "mpvProcessPerThumbnailMeanMs": round(sum(mpv) / len(mpv) * 1000, 1),
            "mpvProcessPerThumbnailMaxMs": round(max(mpv) * 1000, 1),
        })
    print(json.dumps(out, indent=2))
    if a.json:
        os.makedirs(os.path.dirname(os.path.abspath(a.json)), exist_ok=True)
        with open(a.json, "w") as f:
            json.dump({"thumbnails": out}, f, indent=2)


if __name__ == "__main__":
    main()
