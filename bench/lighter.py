#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Issue 30: one stream in a 1280x720 window, DeskPlayer beside mpv
(--vo=x11, its CPU path) and ffplay, in the same run, under one Xvfb:

- CPU seconds (user+sys) and peak RSS for 8 s of 1080p30 and 2160p30
  clips with fine detail (testsrc2 under temporal noise, x264), video
  only; the median of RUNS runs, the players taking turns;
- the picture: a still, detailed 1080p frame shown at 1280x720, grabbed
  from the screen and compared (PSNR, and per channel) with FFmpeg's
  lanczos downscale of the frame converted to RGB with full-chroma
  interpolation (BT.709);
- minimized and covered: CPU per second while the window is minimized by
  a real WM (openbox), or covered whole by another window, against the
  same player visible, measured from /proc between the 3rd and 8th second;
- 2160p60 HEVC Main 10 (5 s, x265): frames shown and dropped by
  DeskPlayer (--stats-json) and dropped by mpv (its frame-drop-count and
  decoder-frame-drop-count over the JSON IPC), and their CPU.

Run under Xvfb (`make bench`, or `xvfb-run -a -s "-screen 0 1920x1080x24"
python3 bench/lighter.py`). Writes bench/out/lighter.json (BENCH_OUT).
"""
import json, os, socket, statistics, subprocess, sys, tempfile, time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DESK = os.environ.get("DESKPLAYER_BIN", os.path.join(ROOT, ".build/release/deskplayer"))
RUNS = int(os.environ.get("RUNS", "3"))
SECS = 8
W, H = 1280, 720
ENV = dict(os.environ, SDL_AUDIODRIVER="disk", SDL_DISKAUDIOFILE="/dev/null")


def ff(*args):
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", *args], check=True)


def make_media(d):
    clips = {}
    for name, size in (("1080p30", "1920x1080"), ("2160p30", "3840x2160")):
        path = os.path.join(d, f"fine{name}.mp4")
        ff("-f", "lavfi", "-i", f"testsrc2=size={size}:rate=30:duration={SECS + 1},noise=alls=6:allf=t",
           "-c:v", "libx264", "-preset", "veryfast", "-crf", "21", "-pix_fmt", "yuv420p",
           "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", path)
        clips[name] = path
    still = os.path.join(d, "still.mp4")
    ff("-f", "lavfi", "-i", "mandelbrot=size=1920x1080:rate=1,trim=start_frame=40:end_frame=41,noise=alls=4",
       "-frames:v", "1", "-c:v", "libx264", "-crf", "14", "-pix_fmt", "yuv420p",
       "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", still)
    hevc = os.path.join(d, "hevc2160p60.mp4")
    ff("-f", "lavfi", "-i", "testsrc2=size=3840x2160:rate=60:duration=5,noise=alls=4:allf=t", "-c:v", "libx265",
       "-preset", "ultrafast", "-crf", "24", "-pix_fmt", "yuv420p10le", "-tag:v", "hvc1",
       "-x265-params", "log-level=error", hevc)
    return clips, still, hevc


FLOOR_PICTURE = f"zscale=w={W}:h={H}:filter=bicubic"
FLOOR_SAME_PICTURE = f"zscale=w={W}:h={H}:filter=bicubic,format=gbrp"


def commands(path, seconds=SECS, paused=False):
    desk = [DESK, path, "--no-config", "--geometry", f"{W}x{H}+0+0"] + \
        (["--pause"] if paused else ["--quit-after", str(seconds)])
    mpv = ["mpv", "--really-quiet", "--no-config", "--ao=null", "--vo=x11", f"--geometry={W}x{H}+0+0",
           "--no-osc", "--no-border", path] + (["--pause"] if paused else [f"--length={seconds}"])
    ffplay = ["ffplay", "-v", "error", "-an", "-x", str(W), "-y", str(H), "-left", "0", "-top", "0",
              "-noborder", path] + ([] if paused else ["-autoexit", "-t", str(seconds)])
    if paused:
        return {"deskplayer": desk, "mpv": mpv, "ffplay": ffplay}
    # The floor (issue 40): what FFmpeg alone spends decoding the clip and
    # scaling it to the window's size in the window's pixel format, with
    # the threads a player has; and its decoding alone.
    floor = ["ffmpeg", "-nostdin", "-v", "error", "-threads", "2", "-t", str(seconds), "-i", path, "-an",
             "-vf", f"{FLOOR_PICTURE},format=bgra", "-f", "null", "-"]
    decode = ["ffmpeg", "-nostdin", "-v", "error", "-threads", "2", "-t", str(seconds), "-i", path, "-an", "-f", "null", "-"]
    # The floor above lets zscale resize in YUV (its output negotiates to
    # yuv420p) and swscale turn that into BGRA with chroma from the nearest
    # sample: 5 dB under DeskPlayer's picture (the `picture` part prints
    # both). The same floor for DeskPlayer's picture: zscale upsamples
    # chroma and applies the matrix (to planar RGB), swscale interleaves.
    same = ["ffmpeg", "-nostdin", "-v", "error", "-threads", "2", "-t", str(seconds), "-i", path, "-an",
            "-vf", f"{FLOOR_SAME_PICTURE},format=bgra", "-f", "null", "-"]
    return {"deskplayer": desk, "mpv": mpv, "ffplay": ffplay, "floor": floor, "floor=pic": same, "decode": decode}


def measure(cmd):
    with tempfile.NamedTemporaryFile("r", suffix=".time") as t:
        subprocess.run(["/usr/bin/time", "-f", "%U %S %M", "-o", t.name] + cmd, env=ENV,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        user, sys_, rss = t.read().split()[-3:]
    return float(user) + float(sys_), int(rss) / 1024


def cpu_and_memory(clips):
    rows = {}
    for name, path in clips.items():
        samples = {p: [] for p in ("deskplayer", "mpv", "ffplay", "floor", "floor=pic", "decode")}
        for _ in range(RUNS):
            for player, cmd in commands(path).items():
                samples[player].append(measure(cmd))
        rows[name] = {p: {"cpu_s": round(statistics.median(c for c, _ in s), 2),
                          "peak_rss_mb": round(statistics.median(m for _, m in s), 1)}
                      for p, s in samples.items()}
        base, floor = rows[name]["mpv"]["cpu_s"], rows[name]["floor"]["cpu_s"]
        same = rows[name]["floor=pic"]["cpu_s"]
        for p in rows[name].values():
            p["cpu_vs_mpv"] = round(p["cpu_s"] / base, 2) if base else None
            p["cpu_vs_floor"] = round(p["cpu_s"] / floor, 2) if floor else None
            p["cpu_vs_floor_same_picture"] = round(p["cpu_s"] / same, 2) if same else None
    return rows


def rgb(raw, w=W, h=H):
    return np.frombuffer(raw, np.uint8).reshape(h, w, 3).astype(np.float64)


def psnr(a, b):
    m = ((a - b) ** 2).mean()
    return round(float(10 * np.log10(255 ** 2 / m)), 2) if m else 99.0


def grab():
    return rgb(subprocess.run(["ffmpeg", "-v", "error", "-f", "x11grab", "-video_size", f"{W}x{H}",
                               "-i", os.environ["DISPLAY"] + "+0,0", "-frames:v", "1", "-f", "rawvideo",
                               "-pix_fmt", "rgb24", "-"], capture_output=True, check=True).stdout)


def picture(still):
    ref = rgb(subprocess.run(["ffmpeg", "-v", "error", "-i", still, "-frames:v", "1", "-vf",
                              "scale=1920:1080:in_color_matrix=bt709:flags=lanczos+full_chroma_int+full_chroma_inp"
                              "+accurate_rnd,format=rgb24,scale=1280:720:flags=lanczos",
                              "-f", "rawvideo", "-pix_fmt", "rgb24", "-"], capture_output=True, check=True).stdout)
    out = {}
    for player, cmd in commands(still, paused=True).items():
        p = subprocess.Popen(cmd, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            time.sleep(3)
            subprocess.run(["xdotool", "mousemove", "1919", "1079"])
            time.sleep(2.5)  # any OSD line gone
            shot = grab()
        finally:
            p.kill()
            p.wait()
        out[player] = {"psnr_db": psnr(ref, shot),
                       "per_channel_db": [float(psnr(ref[..., c], shot[..., c])) for c in range(3)]}
    # The floors' pictures, made by ffmpeg itself (no window): what each floor's CPU buys.
    for name, chain in (("floor", FLOOR_PICTURE), ("floor=pic", FLOOR_SAME_PICTURE)):
        made = rgb(subprocess.run(["ffmpeg", "-v", "error", "-i", still, "-frames:v", "1", "-vf", f"{chain},format=bgra",
                                   "-f", "rawvideo", "-pix_fmt", "rgb24", "-"], capture_output=True, check=True).stdout)
        out[name] = {"psnr_db": psnr(ref, made),
                     "per_channel_db": [float(psnr(ref[..., c], made[..., c])) for c in range(3)]}
    return out


def cpu_of(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def minimized(clip):
    """CPU per second from the 3rd to the 8th second, visible and minimized."""
    wm = subprocess.Popen(["openbox", "--sm-disable"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1)
    out = {}
    try:
        for player in ("deskplayer", "mpv"):
            cmd = commands(clip, seconds=60)[player]
            for state in ("visible", "minimized", "covered"):
                p = subprocess.Popen(cmd + (["--loop", "inf"] if player == "deskplayer" else ["--loop-file=inf"]),
                                     env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                cover = None
                try:
                    time.sleep(2)
                    if state == "minimized":
                        found = subprocess.run(["xdotool", "search", "--pid", str(p.pid)], capture_output=True, text=True)
                        for window in found.stdout.split():
                            subprocess.run(["xdotool", "windowminimize", window], stderr=subprocess.DEVNULL)
                    elif state == "covered":
                        # Another window over the whole screen (an idle DeskPlayer).
                        cover = subprocess.Popen([DESK, "--idle", "--no-config", "--geometry", "1920x1080+0+0"],
                                                 env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                    time.sleep(1)
                    start = cpu_of(p.pid)
                    time.sleep(5)
                    out.setdefault(player, {})[state] = round((cpu_of(p.pid) - start) / 5, 3)
                finally:
                    for q in (p, cover):
                        if q:
                            q.kill()
                            q.wait()
            v = out[player]["visible"]
            for state in ("minimized", "covered"):
                out[player][f"{state}_vs_visible"] = round(out[player][state] / v, 2) if v else None
    finally:
        wm.kill()
        wm.wait()
    return out


def ipc_query(path, prop, command=None):
    s = socket.socket(socket.AF_UNIX)
    s.settimeout(2)
    s.connect(path)
    s.sendall((json.dumps({"command": command or ["get_property", prop]}) + "\n").encode())
    data = s.recv(4096).decode().splitlines()
    s.close()
    for line in data:
        msg = json.loads(line)
        if "data" in msg:
            return msg["data"]
    return None


def drops(clip):
    """The whole 5 s 2160p60 clip: frames dropped by each player, and its CPU."""
    out = {}
    with tempfile.TemporaryDirectory() as d:
        stats = os.path.join(d, "stats.json")
        cpu, rss = measure([DESK, clip, "--no-config", "--geometry", f"{W}x{H}+0+0", "--stats-json", stats])
        e = json.load(open(stats))["players"][0]
        out["deskplayer"] = {"shown": e["framesPresented"], "dropped": e["framesDropped"], "cpu_s": round(cpu, 2),
                             "peak_rss_mb": round(rss, 1)}
        sock = os.path.join(d, "mpv.sock")
        with tempfile.NamedTemporaryFile("r", suffix=".time") as t:
            p = subprocess.Popen(["/usr/bin/time", "-f", "%U %S %M", "-o", t.name, "mpv", "--really-quiet", "--no-config",
                                  "--ao=null", "--vo=x11", f"--geometry={W}x{H}+0+0", "--keep-open=yes",
                                  f"--input-ipc-server={sock}", clip], env=ENV,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            dropped = None
            deadline = time.time() + 30
            while time.time() < deadline:
                try:
                    if ipc_query(sock, "eof-reached"):
                        # Frames dropped by the decoder and by the VO (mpv's own counters).
                        dropped = (ipc_query(sock, "frame-drop-count") or 0) + \
                            (ipc_query(sock, "decoder-frame-drop-count") or 0)
                        ipc_query(sock, None, command=["quit"])
                        break
                except (OSError, ValueError):
                    pass
                time.sleep(0.05)
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
            user, sys_, rss = (t.read().split() or ["0", "0", "0"])[-3:]
        out["mpv"] = {"dropped": dropped, "cpu_s": round(float(user) + float(sys_), 2), "peak_rss_mb": round(int(rss) / 1024, 1)}
    return out


def main():
    # LIGHTER_PARTS=cpu,picture: only those parts (the others are skipped, and say so).
    parts = set(os.environ.get("LIGHTER_PARTS", "cpu,picture,hidden,heavy").split(","))
    with tempfile.TemporaryDirectory() as d:
        clips, still, hevc = make_media(d)
        rows = cpu_and_memory(clips) if "cpu" in parts else {}
        shown = picture(still) if "picture" in parts else {}
        hidden = minimized(clips["1080p30"]) if "hidden" in parts else {}
        heavy = drops(hevc) if "heavy" in parts else {}
    print(f"One stream in a {W}x{H} window, {SECS} s, median of {RUNS} (CPU s = user+sys; ratio to mpv --vo=x11 and to")
    print("the floor: ffmpeg -threads 2 decoding and zscale-ing to the window's size in BGRA; floor=pic: the same")
    print("making DeskPlayer's picture, chroma upsampled before the matrix; decode: decoding alone):")
    print(f"{'clip':9} {'player':11} {'CPU s':>7} {'x mpv':>6} {'x floor':>8} {'x floor=pic':>12} {'peak RSS MB':>12}")
    for clip, players in rows.items():
        for player, r in players.items():
            print(f"{clip:9} {player:11} {r['cpu_s']:7.2f} {r['cpu_vs_mpv']:6.2f} {r['cpu_vs_floor']:8.2f}"
                  f" {r['cpu_vs_floor_same_picture']:12.2f} {r['peak_rss_mb']:12.1f}")
    print("A still detailed 1080p frame at 1280x720 against FFmpeg's lanczos (PSNR dB, whole and R G B):")
    for player, r in shown.items():
        print(f"  {player:11} {r['psnr_db']:6.2f}   {r['per_channel_db']}")
    print("CPU (cores) from the 3rd to the 8th second, 1080p30, visible, minimized and covered under openbox:")
    for player, r in hidden.items():
        print(f"  {player:11} visible {r['visible']:.3f}  minimized {r['minimized']:.3f} ({r['minimized_vs_visible']}x)"
              f"  covered {r['covered']:.3f} ({r['covered_vs_visible']}x)")
    print("2160p60 HEVC Main 10, 5 s (300 frames) in the window:")
    for player, r in heavy.items():
        print(f"  {player:11} " + ", ".join(f"{k} {v}" for k, v in r.items()))
    out_dir = os.environ.get("BENCH_OUT", os.path.join(ROOT, "bench/out"))
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "lighter.json"), "w") as f:
        json.dump({"lighter": {"window": f"{W}x{H}", "seconds": SECS, "runs": RUNS, "cpu_memory": rows,
                               "picture": shown, "minimized": hidden,
                               "hevc_2160p60_main10": heavy}}, f, indent=2)


if __name__ == "__main__":
    sys.exit(main())
