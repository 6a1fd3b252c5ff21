#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Hardware decoding on an NVIDIA GPU (FFmpeg's cuda hwaccel), unattended.

For H.264 and HEVC, 8- and 10-bit, at 1080p and 2160p (testsrc2 with grain,
made here with ffmpeg), it measures:
  - ffmpeg: PSNR of its -hwaccel cuda decode against its software decode
    (every frame; inf: identical);
  - DeskPlayer with --hwdec=nvdec and --hwdec=no: hwdec-current read over
    the control socket while playing, CPU seconds per second of video,
    frames dropped, and the PSNR of its screenshot of the frame at 2 s
    (video, own size) against ffmpeg's software decode of that frame;
  - mpv with --hwdec=nvdec-copy and --hwdec=no in the same run: the
    decoder it used and CPU per second of video (--vo=x11, like DeskPlayer's
    software renderer).
Prints a table; exits 2 with a clear message where there is no NVIDIA device
or FFmpeg cannot open it. Run from the repository root; under Xvfb when no
DISPLAY (it starts xvfb-run itself). Usage: bench/hwdec.py [seconds]
Environment: DESKPLAYER_BIN (default .build/release/deskplayer), BENCH_OUT.
"""
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time

SECS = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 10
BIN = os.environ.get("DESKPLAYER_BIN", ".build/release/deskplayer")
OUTDIR = os.environ.get("BENCH_OUT", "bench/out")


def die(message):
    print(f"hwdec bench: {message}", file=sys.stderr)
    sys.exit(2)


def run(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, **kw)


def check_machine():
    if not os.path.exists("/dev/nvidiactl"):
        die("no NVIDIA device (/dev/nvidiactl is missing): this bench needs an NVIDIA GPU and its driver")
    for tool in ("ffmpeg", "ffprobe", "mpv"):
        if shutil.which(tool) is None:
            die(f"{tool} is not installed")
    if not os.access(BIN, os.X_OK):
        die(f"{BIN} is not built (swift build -c release, or set DESKPLAYER_BIN)")
    probe = run(["ffmpeg", "-v", "error", "-init_hw_device", "cuda=gpu", "-f", "lavfi", "-i", "nullsrc=s=64x64",
                 "-frames:v", "1", "-f", "null", "-"])
    if probe.returncode != 0:
        die("FFmpeg cannot open the CUDA device: " + (probe.stderr.strip().splitlines() or ["?"])[-1])


CLIPS = [  # name, codec, pixel format, size
    ("h264-8bit-1080p", "libx264", "yuv420p", "1920x1080"),
    ("h264-10bit-1080p", "libx264", "yuv420p10le", "1920x1080"),
    ("hevc-8bit-1080p", "libx265", "yuv420p", "1920x1080"),
    ("hevc-10bit-1080p", "libx265", "yuv420p10le", "1920x1080"),
    ("h264-8bit-2160p", "libx264", "yuv420p", "3840x2160"),
    ("h264-10bit-2160p", "libx264", "yuv420p10le", "3840x2160"),
    ("hevc-8bit-2160p", "libx265", "yuv420p", "3840x2160"),
    ("hevc-10bit-2160p", "libx265", "yuv420p10le", "3840x2160"),
]


def make_clip(folder, name, codec, pix_fmt, size):
    path = os.path.join(folder, name + ".mkv")
    extra = ["-x265-params", "log-level=error"] if codec == "libx265" else []
    r = run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi",
             "-i", f"testsrc2=size={size}:rate=30:duration={SECS + 3}", "-vf", "noise=alls=6:allf=t",
             "-c:v", codec, "-preset", "veryfast", "-pix_fmt", pix_fmt, "-g", "60"] + extra + [path])
    if r.returncode != 0:
        die(f"ffmpeg could not make {name}: {r.stderr.strip()}")
    return path


def ffmpeg_psnr(path):
    """PSNR of ffmpeg's cuda decode (copied back) against its software decode, average over all frames."""
    r = run(["ffmpeg", "-nostdin", "-hide_banner", "-hwaccel", "cuda", "-i", path, "-i", path,
             "-lavfi", "[0:v][1:v]psnr", "-f", "null", "-"])
    m = re.search(r"PSNR .*average:(\S+)", r.stderr)
    return m.group(1) if m else "error"


def frame_at_2s(path, out):
    run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-ss", "2", "-i", path, "-frames:v", "1", "-pix_fmt", "rgb24", out])


def image_psnr(a, b):
    r = run(["ffmpeg", "-nostdin", "-hide_banner", "-i", a, "-i", b, "-lavfi",
             "[0:v]format=rgb24[x];[1:v]format=rgb24[y];[x][y]psnr", "-f", "null", "-"])
    m = re.search(r"PSNR .*average:(\S+)", r.stderr)
    return m.group(1) if m else "error"


class IPC:
    def __init__(self, path):
        deadline = time.time() + 15
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                self.sock.connect(path)
                break
            except OSError:
                if time.time() > deadline:
                    raise
                time.sleep(0.1)
        self.sock.settimeout(10)
        self.buffer = b""
        self.next_id = 1

    def command(self, *parts):
        rid = self.next_id
        self.next_id += 1
        self.sock.sendall((json.dumps({"command": list(parts), "request_id": rid}) + "\n").encode())
        while True:
            while b"\n" not in self.buffer:
                chunk = self.sock.recv(65536)
                if not chunk:
                    return {}
                self.buffer += chunk
            line, self.buffer = self.buffer.split(b"\n", 1)
            message = json.loads(line)
            if message.get("request_id") == rid:
                return message

    def get(self, name):
        reply = self.command("get_property", name)
        return reply.get("data") if reply.get("error") == "success" else None

    def wait_for(self, name, check, seconds=20):
        deadline = time.time() + seconds
        while time.time() < deadline:
            value = self.get(name)
            if value is not None and check(value):
                return value
            time.sleep(0.1)
        return None


def cpu_of(time_file):
    try:
        user, system, _ = open(time_file).read().split()[-3:]
        return float(user) + float(system)
    except (OSError, ValueError):
        return float("nan")


def deskplayer(path, hwdec, work, reference):
    sock = os.path.join(work, "ipc.sock")
    stats = os.path.join(work, "stats.json")
    timing = os.path.join(work, "time")
    shot = os.path.join(work, "shot.png")
    for f in (sock, stats, shot):
        if os.path.exists(f):
            os.remove(f)
    env = dict(os.environ, SDL_AUDIODRIVER="dummy")
    process = subprocess.Popen(["/usr/bin/time", "-f", "%U %S %M", "-o", timing, BIN, path, "--no-config",
                                f"--hwdec={hwdec}", "--vo", "x11", "--geometry", "1280x720+0+0",
                                "--quit-after", str(SECS), "--stats-json", stats, "--input-ipc-server", sock],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    current, psnr = "?", "error"
    try:
        ipc = IPC(sock)
        ipc.wait_for("time-pos", lambda t: t > 0.5)
        current = ipc.get("hwdec-current") or "?"
        # The picture it decoded: the frame at 2 s, paused, at its own size.
        ipc.wait_for("time-pos", lambda t: t > 2.5)
        ipc.command("set_property", "pause", True)
        ipc.command("seek", 2, "absolute")
        time.sleep(1)
        if ipc.command("screenshot-to-file", shot).get("error") == "success":
            psnr = image_psnr(reference, shot)
        ipc.command("set_property", "pause", False)
    except (OSError, ValueError) as error:
        print(f"  (DeskPlayer {hwdec}: {error})", file=sys.stderr)
    _, err = process.communicate(timeout=SECS + 60)
    report = {}
    try:
        report = json.load(open(stats))["players"][0]
    except (OSError, ValueError, KeyError, IndexError):
        pass
    said = [line for line in err.splitlines() if "hardware decoding" in line]
    return {"current": report.get("hwdecCurrent") or current, "at-start": current, "cpu": cpu_of(timing),
            "dropped": report.get("framesDropped", "?"), "psnr": psnr, "said": said[:1]}


def mpv(path, hwdec, work):
    timing = os.path.join(work, "time")
    r = run(["/usr/bin/time", "-f", "%U %S %M", "-o", timing, "mpv", "--no-config", f"--hwdec={hwdec}",
             "--vo=x11", "--ao=null", "--geometry=1280x720+0+0", f"--end={SECS}", "--msg-level=vd=v", path],
            timeout=SECS + 60)
    used = "no"
    m = re.search(r"Using hardware decoding \(([^)]+)\)", r.stdout + r.stderr)
    if m:
        used = m.group(1)
    dropped = re.findall(r"Dropped: (\d+)", r.stdout + r.stderr)
    return {"current": used, "cpu": cpu_of(timing), "dropped": dropped[-1] if dropped else "?"}


def main():
    if not os.environ.get("DISPLAY"):
        if shutil.which("xvfb-run") is None:
            die("no DISPLAY and no xvfb-run")
        os.execvp("xvfb-run", ["xvfb-run", "-a", "-s", "-screen 0 1920x1080x24", sys.executable] + sys.argv)
    check_machine()
    os.makedirs(OUTDIR, exist_ok=True)
    work = tempfile.mkdtemp()
    rows, results = [], []
    try:
        for name, codec, pix_fmt, size in CLIPS:
            print(f"{name}…", file=sys.stderr)
            path = make_clip(work, name, codec, pix_fmt, size)
            reference = os.path.join(work, "ref.png")
            frame_at_2s(path, reference)
            hw_vs_sw = ffmpeg_psnr(path)
            for player, hwdec in (("deskplayer", "nvdec"), ("deskplayer", "no"), ("mpv", "nvdec-copy"), ("mpv", "no")):
                r = deskplayer(path, hwdec, work, reference) if player == "deskplayer" else mpv(path, hwdec, work)
                r.update(clip=name, player=player, hwdec=hwdec, ffmpeg_psnr=hw_vs_sw)
                results.append(r)
                rows.append((name, player, hwdec, r["current"], r["cpu"] / SECS, r["dropped"],
                             hw_vs_sw if player == "deskplayer" and hwdec != "no" else "",
                             r.get("psnr", "")))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    header = ("clip", "player", "--hwdec", "hwdec-current", "CPU s/s", "dropped", "ffmpeg hw/sw dB", "shot/sw dB")
    print("%-18s %-10s %-11s %-14s %8s %8s %16s %11s" % header)
    for row in rows:
        print("%-18s %-10s %-11s %-14s %8.2f %8s %16s %11s" % row)
    with open(os.path.join(OUTDIR, "hwdec.json"), "w") as f:
        json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
