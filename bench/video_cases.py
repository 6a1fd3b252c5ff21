#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Issue 18's video cases for DeskPlayer, mpv and ffplay on this machine,
in the same run (under Xvfb: `xvfb-run -a -s "-screen 0 1920x1080x24"
python3 bench/video_cases.py [--json out.json] [--shots DIR]`).

For each case the media is made with ffmpeg the way devices make it, each
player shows it in a 480x360 window at the screen's top-left, and what it
shows is measured the same way for all three:
- phone (640x360 coded, 90° display matrix): where the corner marker is on
  screen (upright = where ffmpeg's autorotate puts it);
- Ogg Theora, raw .h264, raw .m2v, B-frame AVI, MPEG-PS (4 s, 100 frames):
  frames presented / dropped (DeskPlayer's --stats-json, mpv's frame
  counters through its JSON IPC, ffplay's -stats `fd`);
- interlaced MPEG-2 of a pattern moving sideways: the comb energy (mean
  squared difference of neighbouring rows) of the picture on screen,
  against the progressive source's;
- PQ HEVC Main10: PSNR of the picture on screen against FFmpeg's own
  zscale/tonemap chain (the same as DeskPlayer's), and its mean level.
"""
import argparse, json, os, shutil, socket, subprocess, sys, tempfile, time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DESK = os.environ.get("DESKPLAYER_BIN", os.path.join(ROOT, ".build/release/deskplayer"))
W, H = 480, 360
MARKED = ("color=c=0x404040:size=640x360:rate=25:duration=4,"
          "drawbox=x=0:y=0:w=128:h=96:color=red:t=fill,drawbox=x=272:y=0:w=96:h=64:color=lime:t=fill")
PATTERN = ["-f", "lavfi", "-i", "testsrc=size=320x180:rate=25:duration=4"]
TONE = ["-f", "lavfi", "-i", "sine=frequency=440:duration=4"]
MOVING = "testsrc=size=320x180:rate=50:duration=4,scroll=h=0.01"
TONEMAP = ("zscale=t=linear:npl=100,format=gbrpf32le,zscale=p=bt709,tonemap=tonemap=hable:desat=0,"
           "zscale=t=bt709:m=bt709:r=tv:d=error_diffusion,format=gbrp")


def ff(*args):
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", *args], check=True)


def make_media(d):
    p = lambda n: os.path.join(d, n)
    ff("-f", "lavfi", "-i", MARKED, "-c:v", "libx264", "-pix_fmt", "yuv420p", p("plain.mp4"))
    ff("-i", p("plain.mp4"), "-c", "copy", "-metadata:s:v", "rotate=270", p("phone.mp4"))  # 90° clockwise
    ff(*PATTERN, *TONE, "-c:v", "libtheora", "-q:v", "6", "-c:a", "libvorbis", p("theora.ogv"))
    ff(*PATTERN, "-c:v", "libx264", "-pix_fmt", "yuv420p", p("raw.h264"))
    ff(*PATTERN, "-c:v", "mpeg2video", p("raw.m2v"))
    ff(*PATTERN, *TONE, "-c:v", "mpeg4", "-bf", "2", "-c:a", "mp3", p("bframes.avi"))
    ff(*PATTERN, *TONE, "-c:v", "mpeg2video", "-bf", "2", "-c:a", "mp2", "-f", "vob", p("program.mpg"))
    ff("-f", "lavfi", "-i", MOVING, "-vf", "interlace=scan=tff:lowpass=0", "-c:v", "mpeg2video", "-q:v", "2",
       "-flags", "+ilme+ildct", "-top", "1", "-an", p("interlaced.mpg"))
    ff("-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=4", "-vf",
       "zscale=tin=bt709:min=bt709:pin=bt709:rin=tv:t=smpte2084:m=bt2020nc:p=bt2020:r=tv:npl=100,format=yuv420p10le",
       "-c:v", "libx265", "-pix_fmt", "yuv420p10le", "-x265-params",
       "colorprim=bt2020:transfer=smpte2084:colormatrix=bt2020nc:log-level=error", "-tag:v", "hvc1", p("hdr10.mp4"))
    return p


def grab(path):
    disp = os.environ["DISPLAY"]
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "x11grab", "-video_size", f"{W}x{H}", "-i", f"{disp}+0,0",
                    "-frames:v", "1", path], check=True)
    raw = subprocess.run(["ffmpeg", "-v", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"],
                         capture_output=True, check=True).stdout
    return np.frombuffer(raw, np.uint8).reshape(H, W, 3).astype(np.float64)


def ref_picture(args, size):
    raw = subprocess.run(["ffmpeg", "-v", "error", *args, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"],
                         capture_output=True, check=True).stdout
    return np.frombuffer(raw, np.uint8).reshape(size[1], size[0], 3).astype(np.float64)


def picture_box(img):
    lit = img.sum(axis=2) > 30
    ys, xs = np.nonzero(lit)
    if len(xs) == 0:
        return None
    return xs.min(), ys.min(), xs.max() + 1, ys.max() + 1


def start(player, media, extra_desk=(), paused=True, start_at=1.0, ipc=None):
    env = dict(os.environ, SDL_AUDIODRIVER="dummy")
    if player == "deskplayer":
        cmd = [DESK, media, "--no-config", "--geometry", f"{W}x{H}+0+0", "--keep-open", *extra_desk]
        if paused:
            cmd += ["--pause", "--start", str(start_at)]
    elif player == "mpv":
        cmd = ["mpv", "--no-config", "--really-quiet", f"--geometry={W}x{H}+0+0", "--no-border", "--ao=null",
               "--keep-open=yes", "--osd-level=0", "--cursor-autohide=always"]
        if paused:
            cmd += ["--pause", f"--start={start_at}"]
        if ipc:
            cmd += [f"--input-ipc-server={ipc}"]
        cmd += [media]
    else:
        cmd = ["ffplay", "-hide_banner", "-x", str(W), "-y", str(H), "-left", "0", "-top", "0", "-noborder",
               "-an" if not paused else "-nostats", media]
        if paused:
            cmd[1:1] = ["-ss", str(start_at)]
    return subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def stop(proc):
    proc.terminate()
    try:
        proc.wait(5)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def shot(player, media, out, wait=3.0, **kw):
    proc = start(player, media, **kw)
    time.sleep(wait)
    subprocess.run(["xdotool", "mousemove", "1919", "1079"])
    time.sleep(0.3)
    img = grab(out)
    stop(proc)
    return img


def marker_case(p, shots):
    """Where the red corner marker of an upright phone video lands."""
    rows = {}
    for player in ["deskplayer", "mpv", "ffplay"]:
        img = shot(player, p("phone.mp4"), os.path.join(shots, f"phone-{player}.png"))
        box = picture_box(img)
        red = (img[:, :, 0] > 180) & (img[:, :, 1] < 80) & (img[:, :, 2] < 80)
        ys, xs = np.nonzero(red)
        if box is None or len(xs) < 20:
            rows[player] = "no picture"
            continue
        x0, y0, x1, y1 = box
        fx, fy = (xs.mean() - x0) / (x1 - x0), (ys.mean() - y0) / (y1 - y0)
        corner = ("top" if fy < 0.5 else "bottom") + "-" + ("left" if fx < 0.5 else "right")
        shape = "portrait" if (y1 - y0) > (x1 - x0) else "landscape"
        rows[player] = f"{shape} {x1 - x0}x{y1 - y0}, marker {corner}" + (" (upright)" if corner == "top-right" and shape == "portrait" else "")
    return rows


def ipc_query(path, prop):
    s = socket.socket(socket.AF_UNIX)
    s.settimeout(2)
    s.connect(path)
    s.sendall((json.dumps({"command": ["get_property", prop]}) + "\n").encode())
    data = s.recv(4096).decode().splitlines()
    s.close()
    for line in data:
        msg = json.loads(line)
        if "data" in msg:
            return msg["data"]
    return None


def frames_case(p, name):
    """Frames presented and dropped over the whole 4 s clip, and how long it took."""
    media = p(name)
    rows = {}
    env = dict(os.environ, SDL_AUDIODRIVER="dummy")
    with tempfile.TemporaryDirectory() as d:
        stats = os.path.join(d, "stats.json")
        t0 = time.time()
        subprocess.run([DESK, media, "--no-config", "--geometry", f"{W}x{H}+0+0", "--stats-json", stats],
                       env=env, timeout=30, capture_output=True)
        took = time.time() - t0
        e = json.load(open(stats))["players"][0]
        rows["deskplayer"] = f"{e['framesPresented']} shown, {e['framesDropped']} dropped, {took:.1f} s"
        sock = os.path.join(d, "mpv.sock")
        t0 = time.time()
        proc = start("mpv", media, paused=False, ipc=sock)
        dropped, took = None, None
        deadline = time.time() + 20
        while time.time() < deadline:
            try:
                if ipc_query(sock, "eof-reached"):
                    took = time.time() - t0
                    # Frames dropped by the decoder and by the VO (mpv's own counters).
                    dropped = (ipc_query(sock, "frame-drop-count") or 0) + (ipc_query(sock, "decoder-frame-drop-count") or 0)
                    break
            except (OSError, ValueError):
                pass
            time.sleep(0.05)
        stop(proc)
        rows["mpv"] = f"{dropped} dropped, {took:.1f} s" if took is not None else "did not reach the end"
        t0 = time.time()
        out = subprocess.run(["ffplay", "-hide_banner", "-autoexit", "-stats", "-x", str(W), "-y", str(H),
                              "-left", "0", "-top", "0", "-noborder", media],
                             env=env, capture_output=True, timeout=30, text=True)
        took = time.time() - t0
        fds = [int(t.split("fd=")[1].split()[0]) for t in out.stderr.replace("\r", "\n").splitlines() if "fd=" in t]
        rows["ffplay"] = f"{fds[-1]} dropped, {took:.1f} s" if fds else "?"
    return rows


def comb_energy(img):
    return float(((img[1:] - img[:-1]) ** 2).mean())


def crop_box(img):
    box = picture_box(img)
    if box is None:
        return None
    x0, y0, x1, y1 = box
    return img[y0 + 2:y1 - 2, x0 + 2:x1 - 2]


def interlaced_case(p, shots):
    """Comb energy inside the picture (bars left out), against the progressive source at that size."""
    rows = {}
    for player in ["deskplayer", "mpv", "ffplay"]:
        img = shot(player, p("interlaced.mpg"), os.path.join(shots, f"interlaced-{player}.png"))
        pic = crop_box(img)
        if pic is None:
            rows[player] = "no picture"
            continue
        h, w = pic.shape[0] + 4, pic.shape[1] + 4
        src = ref_picture(["-f", "lavfi", "-i", MOVING, "-vf", f"select=eq(n\\,50),scale={w}:{h}:flags=bilinear"], (w, h))
        rows[player] = f"comb {comb_energy(pic):.0f} (progressive source {comb_energy(src[2:-2, 2:-2]):.0f})"
    return rows


def psnr(a, b):
    h, w = min(a.shape[0], b.shape[0]), min(a.shape[1], b.shape[1])
    mse = ((a[:h, :w] - b[:h, :w]) ** 2).mean()
    return 99 if mse == 0 else 10 * np.log10(255 ** 2 / mse)


def hdr_case(p, shots):
    """PSNR of the picture against the SDR source the PQ file was made from
    (an ideal mapping gets it back) and against FFmpeg's own tone mapping."""
    rows = {}
    for player, extra in [("deskplayer", None), ("mpv", None), ("mpv --vo=gpu --gpu-sw", ["--vo=gpu", "--gpu-sw"]),
                          ("ffplay", None)]:
        kind = player.split()[0]
        if extra:
            proc = subprocess.Popen(["mpv", "--no-config", "--really-quiet", f"--geometry={W}x{H}+0+0", "--no-border",
                                     "--ao=null", "--pause", "--start=1", "--osd-level=0", *extra, p("hdr10.mp4")],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(4)
            subprocess.run(["xdotool", "mousemove", "1919", "1079"])
            img = grab(os.path.join(shots, "hdr-mpv-gpu.png"))
            stop(proc)
        else:
            img = shot(kind, p("hdr10.mp4"), os.path.join(shots, f"hdr-{kind}.png"))
        box = picture_box(img)
        if box is None:
            rows[player] = "no picture"
            continue
        x0, y0, x1, y1 = box
        pic = img[y0:y1, x0:x1]
        size = (x1 - x0, y1 - y0)
        mapped = ref_picture(["-ss", "1", "-i", p("hdr10.mp4"), "-vf", TONEMAP + f",scale={size[0]}:{size[1]}:flags=bilinear"], size)
        source = ref_picture(["-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=4", "-vf",
                              f"select=eq(n\\,25),scale={size[0]}:{size[1]}:flags=bilinear"], size)
        rows[player] = f"{psnr(pic, source):.1f} dB vs the SDR source, {psnr(pic, mapped):.1f} dB vs FFmpeg's tonemap"
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--json")
    ap.add_argument("--shots", default=os.path.join(ROOT, "bench/out/video-shots"))
    a = ap.parse_args()
    os.makedirs(a.shots, exist_ok=True)
    work = tempfile.mkdtemp()
    try:
        p = make_media(work)
        results = {"phone video (90° display matrix)": marker_case(p, a.shots)}
        for name, label in [("theora.ogv", "Ogg Theora"), ("raw.h264", "raw .h264"), ("raw.m2v", "raw .m2v"),
                            ("bframes.avi", "AVI with B-frames"), ("program.mpg", "MPEG-PS")]:
            results[label + " (100 frames, 4 s)"] = frames_case(p, name)
        results["interlaced MPEG-2, moving (comb energy on screen)"] = interlaced_case(p, a.shots)
        results["HDR10 (PQ HEVC Main10)"] = hdr_case(p, a.shots)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"| case | DeskPlayer | mpv {subprocess.run(['mpv', '--version'], capture_output=True, text=True).stdout.split()[1]} | ffplay |")
    print("|---|---|---|---|")
    for case, rows in results.items():
        mpv = rows.get("mpv") + (f"; with --vo=gpu --gpu-sw: {rows['mpv --vo=gpu --gpu-sw']}" if "mpv --vo=gpu --gpu-sw" in rows else "")
        print(f"| {case} | {rows.get('deskplayer')} | {mpv} | {rows.get('ffplay')} |")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=2)


if __name__ == "__main__":
    main()
