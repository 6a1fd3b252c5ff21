#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The camera roll with 10,000 videos (issue 53): `deskplayer --library` on
a made-up home (HOME and XDG_* in a scratch folder) whose Videos folder
holds 10,000 entries in 100 folders, each a copy of one tiny clip (160x90,
5 frames: some 40 MB in all), at 10,000 different modification times
(seven hours apart: some 2,900 days). Timed from the process start over
its control socket: until the roll has listed them all (`library-count`),
until the first picture is shown, until every picture in view is there
and the window is settled; the CPU time it used by then (steadier than
the wall clock on a shared machine) and its memory then (VmRSS, and VmHWM: the most it
held). Cold: an empty thumbnail cache (the pictures in view are made and
written); warm: the same home again (read from the cache). Then cold again
with the demo playing in Picture in Picture beside the roll: the frames it
dropped while the pictures in view were made.

Usage: bench/library.py [--json bench/out/library.json]   (under xvfb-run; `make bench`)
"""
import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

BIN = os.environ.get("BIN", ".build/release/deskplayer")
COUNT = int(os.environ.get("LIBRARY_COUNT", "10000"))


def make_home(root):
    home = os.path.join(root, "home")
    videos = os.path.join(home, "Videos")
    os.makedirs(os.path.join(home, ".config"))
    with open(os.path.join(home, ".config", "user-dirs.dirs"), "w") as f:
        f.write('XDG_VIDEOS_DIR="$HOME/Videos"\n')
    clip = os.path.join(root, "clip.mp4")
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=160x90:rate=25:duration=0.2",
                    "-c:v", "libx264", "-pix_fmt", "yuv420p", clip], check=True)
    now = int(time.time())
    for i in range(COUNT):
        folder = os.path.join(videos, "folder%03d" % (i % 100))
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, "clip%05d.mp4" % i)
        shutil.copyfile(clip, path)
        os.utime(path, (now - i * 7 * 3600, now - i * 7 * 3600))
    env = dict(os.environ, SDL_AUDIODRIVER=os.environ.get("SDL_AUDIODRIVER", "dummy"), HOME=home,
               XDG_CONFIG_HOME=os.path.join(home, ".config"),
               XDG_CACHE_HOME=os.path.join(home, ".cache"), XDG_STATE_HOME=os.path.join(home, ".local/state"),
               XDG_RUNTIME_DIR=os.path.join(root, "run"))
    os.makedirs(env["XDG_RUNTIME_DIR"], mode=0o700)
    return env


class Client:
    def __init__(self, path, deadline):
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX)
                self.sock.connect(path)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.005)
        self.buffer = b""
        self.id = 0

    def get(self, name):
        return self.command(["get_property", name])

    def command(self, command):
        self.id += 1
        self.sock.sendall(json.dumps({"command": command, "request_id": self.id}).encode() + b"\n")
        while True:
            while b"\n" not in self.buffer:
                chunk = self.sock.recv(65536)
                if not chunk:
                    raise RuntimeError("the player closed its socket")
                self.buffer += chunk
            line, self.buffer = self.buffer.split(b"\n", 1)
            message = json.loads(line)
            if message.get("request_id") == self.id:
                return message.get("data") if message.get("error") == "success" else None


def cpu_seconds(pid):
    """User and system CPU time the process has used: on a shared machine
    the wall-clock times above wait on other processes too; this does not."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def memory(pid):
    out = {}
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                out[key] = int(value.split()[0]) // 1024
    return out


def run(env, label):
    sock = os.path.join(env["XDG_RUNTIME_DIR"], "ipc-%s.sock" % label)
    start = time.monotonic()
    process = subprocess.Popen([BIN, "--library", "--geometry", "1280x960+0+0", "--ui-scale", "1", "--no-config",
                                "--no-resume", "--input-ipc-server", sock], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = start + 120
        client = Client(sock, deadline)
        listed = first = settled = None
        while time.monotonic() < deadline:
            # Each time is taken when its answer came (the player answers between frames).
            if listed is None and client.get("library-count") == COUNT:
                listed = time.monotonic() - start
            pictures = client.get("library-pictures") or {}
            total = sum(pictures.get(k, 0) for k in ("cached", "made", "failed"))
            if first is None and total > 0:
                first = time.monotonic() - start
            if listed is not None and total > 0 and client.get("window-settled"):
                settled = time.monotonic() - start
                break
            time.sleep(0.005)
        mem = memory(process.pid)
        cpu = cpu_seconds(process.pid)
        # To the end of the roll (End), and once more there: the pictures held stay those in view and around them.
        end = {}
        if settled is not None:
            subprocess.run(["xdotool", "mousemove", "1279", "959", "key", "End"], check=True)
            end_deadline = time.monotonic() + 60
            while time.monotonic() < end_deadline:
                pictures_end = client.get("library-pictures") or {}
                if pictures_end.get("cached", 0) + pictures_end.get("made", 0) > total and client.get("window-settled"):
                    break
                time.sleep(0.01)
            end = {"held_at_end": pictures_end.get("held"), "rss_at_end_mb": memory(process.pid).get("VmRSS")}
        return {**end, "run": label, "listed_s": round(listed, 3) if listed else None,
                "first_picture_s": round(first, 3) if first else None,
                "all_in_view_s": round(settled, 3) if settled else None, "cpu_s": round(cpu, 2), "pictures": pictures,
                "rss_mb": mem.get("VmRSS"), "peak_rss_mb": mem.get("VmHWM")}
    finally:
        process.terminate()
        _, err = process.communicate(timeout=30)
        if err.strip():
            sys.stderr.write(err.decode(errors="replace")[-2000:])


def beside_playback(env, in_view):
    """The demo plays in Picture in Picture (a window of its own, beside the
    main one) while the roll opens on an empty cache and makes its pictures:
    the frames the playing video dropped meanwhile (frame-drop-count), and
    the seconds it played meanwhile."""
    shutil.rmtree(os.path.join(env["XDG_CACHE_HOME"], "thumbnails"), ignore_errors=True)
    sock = os.path.join(env["XDG_RUNTIME_DIR"], "ipc-beside.sock")
    demo = os.path.abspath("assets/demo.mp4")
    process = subprocess.Popen([BIN, demo, "--pip", "--loop", "inf", "--geometry", "1280x960+0+0", "--ui-scale", "1",
                                "--no-config", "--no-resume", "--input-ipc-server", sock], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 120
        client = Client(sock, deadline)
        while (client.get("time-pos") or 0) < 1 and time.monotonic() < deadline:
            time.sleep(0.01)
        dropped, began = client.get("frame-drop-count") or 0, time.monotonic()
        client.command(["set_property", "library", True])
        made = 0
        while time.monotonic() < deadline:
            pictures = client.get("library-pictures") or {}
            made = pictures.get("made", 0) + pictures.get("failed", 0)
            # Every picture in view made, as many as the cold run made (the window never settles while a video plays).
            if client.get("library-count") == COUNT and made >= in_view:
                break
            time.sleep(0.01)
        return {"pictures_made": made, "frames_dropped": (client.get("frame-drop-count") or 0) - dropped,
                "seconds_played": round(time.monotonic() - began, 2)}
    finally:
        process.terminate()
        process.communicate(timeout=30)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--json", default=os.path.join(os.environ.get("BENCH_OUT", "bench/out"), "library.json"))
    args = parser.parse_args()
    root = tempfile.mkdtemp(prefix="deskplayer-library-bench-")
    try:
        env = make_home(root)
        rows = [run(env, "cold"), run(env, "warm")]
        beside = beside_playback(env, max(rows[0]["pictures"].get("made", 0), 1))
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print("The roll with %d videos (seconds from the process start; CPU seconds and memory when all in view are shown):" % COUNT)
    for row in rows:
        print("  %-4s  listed %-6s  first picture %-6s  all in view %-6s  CPU %-5s  RSS %s MB (peak %s MB)  %s; at the end: %s held, RSS %s MB" % (
            row["run"], row["listed_s"], row["first_picture_s"], row["all_in_view_s"], row["cpu_s"], row["rss_mb"],
            row["peak_rss_mb"], row["pictures"], row.get("held_at_end"), row.get("rss_at_end_mb")))
    print("  cold, the demo playing in Picture in Picture beside it: %s pictures made in %s s, %s frames dropped" % (
        beside["pictures_made"], beside["seconds_played"], beside["frames_dropped"]))
    os.makedirs(os.path.dirname(args.json) or ".", exist_ok=True)
    with open(args.json, "w") as f:
        json.dump({"videos": COUNT, "binary": BIN, "runs": rows, "beside_playback": beside}, f, indent=1)


if __name__ == "__main__":
    main()
