#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Takes the screenshots the README and the AppStream metainfo show, from the
real app in an X server (`make screenshots`: under xvfb-run -a -s "-screen 0
1920x1080x24"): playing, comparing, tiles (a 1280x720 window) and Picture in Picture (a
1920x1080 window, the PiP window above it), each a 1280x720 JPEG in OUT; the
context menu open, and with its Speed submenu open (PNG: its text stays sharp).

Each run drives DeskPlayer through its control socket and waits for state,
not time: the file playing past a time, the comparison's metrics measured,
the PiP window open; then it pauses, and the X screen is grabbed (ffmpeg's
x11grab) until two grabs in a row are the same picture.

Usage: packaging/screenshots.py BINARY OUT [NAME...]   (NAME: playing, comparing,
tiles, pip, menu, menu-speed, roll; default all)
"""
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEMO = os.path.join(ROOT, "assets", "demo.mp4")
OTHER = os.path.join(ROOT, "assets", "compare.mp4")
WINDOW = (1280, 720)


def fail(message):
    sys.exit(f"screenshots.py: {message}")


class Player:
    """DeskPlayer started with a control socket; talks mpv's JSON IPC."""

    def __init__(self, binary, scratch, args, size=WINDOW, extra_env=None):
        self.path = os.path.join(scratch, "ipc.sock")
        env = dict(os.environ, SDL_AUDIODRIVER=os.environ.get("SDL_AUDIODRIVER", "dummy"),
                   XDG_CONFIG_HOME=os.path.join(scratch, "config"),
                   XDG_STATE_HOME=os.path.join(scratch, "state"))
        env.update(extra_env or {})
        self.process = subprocess.Popen(
            [binary, "--no-config", f"--geometry={size[0]}x{size[1]}+0+0", "--input-ipc-server", self.path,
             "--loop=inf", *args], env=env)
        self.socket = None
        self.buffer = b""
        self.request = 0
        deadline = time.monotonic() + 30
        while self.socket is None:
            if self.process.poll() is not None:
                fail(f"deskplayer exited ({self.process.returncode}) before its socket opened")
            if time.monotonic() > deadline:
                fail("the control socket did not open in 30 s")
            try:
                s = socket.socket(socket.AF_UNIX)
                s.connect(self.path)
                self.socket = s
            except OSError:
                time.sleep(0.1)

    def command(self, *args):
        self.request += 1
        message = {"command": list(args), "request_id": self.request}
        self.socket.sendall((json.dumps(message) + "\n").encode())
        self.socket.settimeout(30)
        while True:
            while b"\n" not in self.buffer:
                chunk = self.socket.recv(65536)
                if not chunk:
                    fail("the player closed the socket")
                self.buffer += chunk
            line, self.buffer = self.buffer.split(b"\n", 1)
            reply = json.loads(line)
            if reply.get("request_id") == self.request:
                return reply

    def value(self, name):
        reply = self.command("get_property", name)
        return reply.get("data") if reply.get("error") == "success" else None

    def wait_for(self, what, check, timeout=60):
        deadline = time.monotonic() + timeout
        while True:
            value = check()
            if value:
                return value
            if self.process.poll() is not None:
                fail(f"deskplayer exited while waiting for {what}")
            if time.monotonic() > deadline:
                fail(f"no {what} in {timeout} s")
            time.sleep(0.1)

    def close(self):
        try:
            self.command("quit")
        except (OSError, SystemExit):
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def grab(scratch, size):
    """The X screen's top-left `size`, as PNG bytes."""
    path = os.path.join(scratch, "grab.png")
    subprocess.run(["ffmpeg", "-v", "error", "-nostdin", "-y", "-f", "x11grab", "-draw_mouse", "0", "-video_size", f"{size[0]}x{size[1]}",
                    "-i", os.environ["DISPLAY"] + "+0,0", "-frames:v", "1", path], check=True)
    with open(path, "rb") as f:
        return f.read()


def settled(scratch, size, out):
    """Grabs until two grabs in a row are the same, then writes it to `out`
    as a 1280x720 JPEG."""
    last = None
    for _ in range(50):
        picture = grab(scratch, size)
        if picture == last:
            break
        last = picture
        time.sleep(0.1)
    else:
        fail(f"the screen did not settle for {os.path.basename(out)}")
    source = os.path.join(scratch, "grab.png")
    quality = [] if out.endswith(".png") else ["-q:v", "4"]
    subprocess.run(["ffmpeg", "-v", "error", "-nostdin", "-y", "-i", source, "-vf",
                    f"scale={WINDOW[0]}:{WINDOW[1]}:flags=lanczos", *quality, out], check=True)
    print(f"screenshots.py: {out} ({os.path.getsize(out) // 1024} kB)")


def shot(binary, scratch, out, args, ready, size=WINDOW, before=None, every_tile=False):
    player = Player(binary, scratch, args, size)
    try:
        ready(player)
        if every_tile:
            # Tiles that are not synced pause one by one: Ctrl+Space is the
            # pause key's command for every tile.
            player.command("keypress", "Ctrl+SPACE")
            player.wait_for("every tile paused", lambda: all(t.get("pause") is True for t in player.value("tiles") or [{}]))
        else:
            player.command("set_property", "pause", True)
            player.wait_for("pause", lambda: player.value("pause") is True)
        if before:
            before(player)
        settled(scratch, size, out)
    finally:
        player.close()


def past(seconds):
    def ready(player):
        player.wait_for(f"time-pos past {seconds} s", lambda: (player.value("time-pos") or 0) >= seconds)
    return ready


def menu_rows(player, depth):
    """The rows of the context menu's column `depth` (None while it is not open)."""
    columns = player.value("context-menu-items") or []
    return columns[depth] if len(columns) > depth else None


def open_menu(path):
    """A right click opens the context menu; the pointer then rests on each
    title of `path` in turn, opening its submenu (as a person does)."""
    def before(player):
        subprocess.run(["xdotool", "mousemove", "420", "120", "click", "3"], check=True)
        player.wait_for("the context menu", lambda: menu_rows(player, 0))
        for depth, title in enumerate(path):
            row = player.wait_for(f"'{title}' in the menu",
                                  lambda: next((r for r in menu_rows(player, depth) or [] if r["title"] == title), None))
            subprocess.run(["xdotool", "mousemove", str(row["x"] + row["width"] // 3), str(row["y"] + row["height"] // 2)],
                           check=True)
            player.wait_for(f"the {title} submenu", lambda: menu_rows(player, depth + 1))
    return before


def roll(binary, scratch, out):
    """The camera roll (`--library`) of a made-up home: clips cut from the
    demo and the other asset at several days, some in the Videos folder,
    two in a phone's DCIM folder where gvfs mounts it (so the source chips
    show), two watched to their end; two selected with Ctrl+click, so the
    Play in tiles, Compare and Queue buttons show."""
    home = os.path.join(scratch, "roll-home")
    videos = os.path.join(home, "Videos")
    dcim = os.path.join(scratch, "roll-run", "gvfs", "mtp:host=Google_Pixel_7", "Internal shared storage", "DCIM", "Camera")
    os.makedirs(os.path.join(home, ".config"), exist_ok=True)
    os.makedirs(os.path.join(videos, "Holidays"), exist_ok=True)
    os.makedirs(dcim, exist_ok=True)
    os.chmod(os.path.join(scratch, "roll-run"), 0o700)
    with open(os.path.join(home, ".config", "user-dirs.dirs"), "w") as f:
        f.write('XDG_VIDEOS_DIR="$HOME/Videos"\n')
    clips = [(DEMO, 1, dcim, "PXL_20261128_101500.mp4", 0), (OTHER, 4, dcim, "PXL_20261128_093000.mp4", 0),
             (DEMO, 6, videos, "Garden.mp4", 1), (OTHER, 2, videos, "Recording 2026-11-27.mkv", 2),
             (DEMO, 8, os.path.join(videos, "Holidays"), "Harbour.mkv", 2), (OTHER, 7, os.path.join(videos, "Holidays"), "Beach.mp4", 2),
             (DEMO, 3, os.path.join(videos, "Holidays"), "Old town.mp4", 9), (OTHER, 5, videos, "Lecture.mp4", 40)]
    now = time.time()
    for index, (source, start, folder, name, days) in enumerate(clips):
        path = os.path.join(folder, name)
        subprocess.run(["ffmpeg", "-v", "error", "-nostdin", "-y", "-ss", str(start), "-i", source, "-t", "2", "-vf", "scale=640:-2",
                        "-c:v", "libx264", "-preset", "veryfast", "-an", path], check=True)
        when = now - days * 86400 - index * 600
        os.utime(path, (when, when))
    # Two watched to their end (the green tick), as a player records them.
    state = os.path.join(home, ".local", "state")
    os.makedirs(os.path.join(state, "deskplayer"), exist_ok=True)
    with open(os.path.join(state, "deskplayer", "watched.json"), "w") as f:
        json.dump([os.path.join(videos, "Garden.mp4"), os.path.join(videos, "Holidays", "Harbour.mkv")], f)
    env = {"HOME": home, "XDG_CONFIG_HOME": os.path.join(home, ".config"), "XDG_CACHE_HOME": os.path.join(home, ".cache"),
           "XDG_STATE_HOME": state, "XDG_RUNTIME_DIR": os.path.join(scratch, "roll-run")}
    player = Player(binary, scratch, ["--library", "--ui-scale", "1"], extra_env=env)
    try:
        # Pictures are made for the cells in view only: the listing, then a settled window.
        player.wait_for("the listing", lambda: player.value("library-count") == len(clips))
        player.wait_for("the pictures in view", lambda: sum((player.value("library-pictures") or {}).values()) > 0
                        and player.value("window-settled") is True)
        # Two cells Ctrl+clicked: today's two, from the phone (x: 16 + 172 k; y: the first row's middle).
        for x, y in ((96, 119), (268, 119)):
            subprocess.run(["xdotool", "mousemove", str(x), str(y), "keydown", "ctrl", "click", "1", "keyup", "ctrl"], check=True)
        subprocess.run(["xdotool", "mousemove", "1279", "719"], check=True)
        player.wait_for("the window settled", lambda: player.value("window-settled") is True)
        settled(scratch, WINDOW, out)
    finally:
        player.close()


def main():
    if len(sys.argv) < 3:
        fail("usage: packaging/screenshots.py BINARY OUT [NAME...]")
    binary, out = os.path.abspath(sys.argv[1]), sys.argv[2]
    wanted = set(sys.argv[3:]) or {"playing", "comparing", "tiles", "pip", "menu", "menu-speed", "roll"}
    if not os.environ.get("DISPLAY"):
        fail('needs an X server: run it under xvfb-run -a -s "-screen 0 1920x1080x24" (make screenshots)')
    for tool in ("ffmpeg", "xdotool"):
        if not shutil.which(tool):
            fail(f"needs {tool}")
    os.makedirs(out, exist_ok=True)
    scratch = tempfile.mkdtemp(prefix="deskplayer-shots.")
    try:
        # A worse encode of the demo to compare it with: what the wipe, the
        # metrics and the strip are for.
        low = os.path.join(scratch, "demo-crf45.mp4")
        subprocess.run(["ffmpeg", "-v", "error", "-nostdin", "-y", "-i", DEMO, "-c:v", "libx264", "-preset", "veryfast",
                        "-crf", "45", "-c:a", "copy", low], check=True)

        def pointer_over_the_bar(player):
            # The control bar shows while the pointer moves over the tile.
            subprocess.run(["xdotool", "mousemove", "600", "500", "mousemove", "640", "520"], check=True)

        if "playing" in wanted:
            shot(binary, scratch, os.path.join(out, "playing.jpg"), [DEMO], past(3.0), before=pointer_over_the_bar)

        def compared(player):
            past(3.0)(player)
            player.wait_for("frames measured", lambda: ((player.value("compare-metrics-measured") or {})
                                                        .get("frames", 0)) >= 60, timeout=120)
        if "comparing" in wanted:
            shot(binary, scratch, os.path.join(out, "comparing.jpg"),
                 ["--compare", "wipe", "--compare-metrics", "psnr,ssim", DEMO, low], compared)

        if "tiles" in wanted:
            shot(binary, scratch, os.path.join(out, "tiles.jpg"),
                 ["--layout", "grid", DEMO, OTHER, low, OTHER], past(2.0), every_tile=True)

        def in_pip(player):
            past(2.0)(player)
            player.command("pip-start")
            player.wait_for("the PiP window", lambda: player.value("pip") is True)
        # The main window fills the screen, the PiP window floats above it.
        if "pip" in wanted:
            shot(binary, scratch, os.path.join(out, "pip.jpg"), ["--layout", "side-by-side", OTHER, DEMO], in_pip,
                 size=(1920, 1080), every_tile=True)

        # The context menu (a right click), and its Speed submenu open.
        if "menu" in wanted:
            shot(binary, scratch, os.path.join(out, "menu.png"), [DEMO], past(2.0), before=open_menu([]))
        if "menu-speed" in wanted:
            shot(binary, scratch, os.path.join(out, "menu-speed.png"), [DEMO], past(2.0), before=open_menu(["Speed"]))
        if "roll" in wanted:
            roll(binary, scratch, os.path.join(out, "roll.png"))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
