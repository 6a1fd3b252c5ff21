#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A hostile client at the control socket: mutated requests, for as long as it is given.

Starts DeskPlayer (headless: SDL's dummy video and audio drivers) in a mode
chosen at random (one file, tiles, a sync group, a comparison of three
renditions, a composition, Picture in Picture, the idle window, a live HLS
stream), reads `property-list` and `command-list`, then sends requests built
from them with extreme and malformed values, mutated at random (seeded, so a
run can be repeated), one at a time. After each request the player must
answer a `get_property volume` sanely, and the mode's own properties must stay
in their ranges; when the process dies or stops answering, the request that
did it is printed with the mode and the player's stderr tail, and the script
exits 1. Every `--round` seconds the player is stopped and another mode
started. `make fuzz-socket` runs it; `--seconds` bounds the run, `--seed`
repeats one.
"""
import argparse
import json
import os
import random
import socket
import subprocess
import sys
import shutil
import tempfile
import time

EXTREMES = [1e13, -1e13, 1e19, -1e19, 1e300, -1e300, 9223372036854775807, -9223372036854775808,
            18446744073709551615, 2147483648, -2147483649, 0, -1, 0.5, "nan", "inf", "-inf", "1e400",
            "-1e400", "", "x" * 70000, [], [1, 2], {}, {"a": 1}, None, True, False, "1e13", "1:2:3:4",
            "99999999999:00:00", "-0", "0x10", "${", "${?a==b:c}", "%n%s%s"]


# Properties that must stay in a range in a mode, whatever was sent.
BOUNDS = {"comparison": {"compare-side": (0, 1), "compare-audio": (0, 1), "compare-rendition": (1, 2),
                         "compare-wipe": (0, 1)}}


def make_media(folder):
    """The media the modes play: a third rendition (another encoder, size and
    bit rate) and a live HLS stream (no EXT-X-ENDLIST) served over HTTP by the
    tests' own server; returns each mode's arguments and the server."""
    def ff(*args):
        subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", *args], check=True)
    third = os.path.join(folder, "rendition.mp4")
    ff("-i", "assets/demo.mp4", "-t", "4", "-vf", "scale=320:180", "-c:v", "mpeg4", "-q:v", "12", "-c:a", "aac", third)
    hls = os.path.join(folder, "hls")
    os.makedirs(hls)
    ff("-i", "assets/demo.mp4", "-t", "3", "-vf", "scale=320:180", "-c:v", "libx264", "-preset", "ultrafast", "-g", "25",
       "-c:a", "aac", "-f", "hls", "-hls_time", "1", "-hls_list_size", "0", "-hls_flags", "omit_endlist",
       os.path.join(hls, "live.m3u8"))
    server = subprocess.Popen([sys.executable, "Tests/TestSupport/hls_server.py", hls, os.path.join(folder, "requests.log"), ""],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    port = int(server.stdout.readline())
    # Absolute: the players run in folders of their own (a fuzzed `compare-save 1e19` writes there).
    demo, other = os.path.abspath("assets/demo.mp4"), os.path.abspath("assets/compare.mp4")
    modes = {
        "one file": [demo, "--loop", "inf"],
        "tiles": ["--layout", "grid", demo, other],
        "sync group": ["--layout", "grid", "--sync", demo, other],
        "comparison": ["--compare", "wipe", demo, other, third],
        "composition": ["--crossfade", "1", os.path.abspath("assets/tone.mp3"), os.path.abspath("assets/tone.flac")],
        "picture in picture": ["--pip", demo],
        "idle window": ["--idle"],
        "live stream": [f"http://127.0.0.1:{port}/live.m3u8"],
    }
    return modes, server


class Player:
    def __init__(self, binary, arguments, log):
        self.dir = tempfile.mkdtemp(prefix="deskplayer-fuzz-")
        self.path = os.path.join(self.dir, "socket")
        # Its own state folder: a fuzzed quit-watch-later or a screenshot writes nowhere else.
        env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", XDG_STATE_HOME=self.dir,
                   HOME=self.dir)
        self.log = open(log, "wb")
        # --idle: a request that closes every tile (pip-close) leaves it idle, as mpv's --idle does, not ended.
        self.process = subprocess.Popen([binary, *arguments, "--idle=yes", "--input-ipc-server", self.path],
                                        env=env, stdout=subprocess.DEVNULL, stderr=self.log, cwd=self.dir)
        deadline = time.monotonic() + 20
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                self.sock.connect(self.path)
                break
            except OSError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    raise SystemExit("the player never opened its socket")
                # Waiting for the socket to exist: there is no event to wait on before it does.
                time.sleep(0.05)
        self.sock.settimeout(10)
        self.buffer = b""
        self.next_id = 1

    def request(self, command):
        rid = self.next_id
        self.next_id += 1
        line = json.dumps({"command": command, "request_id": rid}, allow_nan=True) + "\n"
        self.sock.sendall(line.encode())
        while True:
            while b"\n" not in self.buffer:
                chunk = self.sock.recv(65536)
                if not chunk:
                    raise ConnectionError("socket closed")
                self.buffer += chunk
            raw, self.buffer = self.buffer.split(b"\n", 1)
            message = json.loads(raw)
            if message.get("request_id") == rid:
                return message

    def stop(self):
        self.process.kill()
        self.process.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


def requests(properties, commands, rng):
    """An endless stream of hostile requests: every property and command
    with extreme values first (set, add, multiply, cycle), then random
    mutations of them."""
    for name in properties:
        for value in rng.sample(EXTREMES, 8):
            yield [rng.choice(["set_property", "add", "multiply", "cycle"]), name, value]
    for name in commands:
        for value in rng.sample(EXTREMES, 4):
            yield [name, value]
            yield [name, value, value]
    while True:
        kind = rng.random()
        if kind < 0.4:
            yield [rng.choice(["set_property", "add", "multiply", "cycle"]), rng.choice(properties), rng.choice(EXTREMES)]
        elif kind < 0.8:
            yield [rng.choice(commands)] + [rng.choice(EXTREMES) for _ in range(rng.randint(0, 4))]
        else:
            yield [rng.choice(["seek", "loadfile", "add", "cycle", "multiply", "cycle-values", "frame-step",
                               "set", "show-text", "expand-text", "playlist-move", "playlist-remove"])] + \
                [rng.choice(EXTREMES + properties[:20]) for _ in range(rng.randint(1, 4))]


def run_round(binary, mode, arguments, rng, seconds, log):
    """One player in one mode for `seconds`: the number of requests it
    answered, or exits after printing the one that broke it."""
    player = Player(os.path.abspath(binary), arguments, log)
    properties = [p for p in player.request(["get_property", "property-list"])["data"]]
    commands = [c["name"] for c in player.request(["get_property", "command-list"])["data"]]
    # Commands that end or block the run on purpose, not by failing.
    commands = [c for c in commands if c not in ("quit", "quit-watch-later", "stop", "run", "subprocess", "tile-close")]
    deadline = time.monotonic() + seconds
    count = 0
    for command in requests(properties, commands, rng):
        if time.monotonic() > deadline:
            break
        count += 1
        try:
            player.request(command)
            answer = player.request(["get_property", "volume"])
            # No volume without a tile: fine once every tile has been closed (pip-close) and the player is idle.
            idle = answer.get("error") == "property unavailable" and \
                player.request(["get_property", "idle-active"]).get("data") is True
            if not idle and (answer.get("error") != "success" or not 0 <= answer.get("data", -1) <= 100):
                raise ConnectionError(f"volume unreadable or out of range: {answer}")
            for name, (low, high) in BOUNDS.get(mode, {}).items():
                value = player.request(["get_property", name]).get("data")
                if isinstance(value, (int, float)) and not low <= value <= high:
                    raise ConnectionError(f"{name} is {value}, outside {low}..{high}")
        except (ConnectionError, OSError, socket.timeout, json.JSONDecodeError) as error:
            time.sleep(0.2)  # lets a dying process's last stderr line reach the log
            text = open(log, errors="replace").read()
            # The trap's message and the first frames of Swift's backtrace, not its register dump.
            begin = max(text.find("Fatal error"), text.find("Crash"), 0)
            tail = "\n".join(text[begin:].splitlines()[:14])
            shown = json.dumps(command)[:300]
            print(f"mode {mode}: request {count} broke the player ({error}): {shown}\nstderr:\n{tail}")
            player.stop()
            sys.exit(1)
    player.stop()
    return count


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=".build/release/deskplayer")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--round", type=float, default=60, help="seconds each mode's player is fuzzed")
    parser.add_argument("--seed", type=int, default=int(time.time()))
    args = parser.parse_args()
    rng = random.Random(args.seed)
    folder = tempfile.mkdtemp(prefix="deskplayer-fuzz-media-")
    modes, server = make_media(folder)
    log = os.path.join(folder, "player.err")
    print(f"seed {args.seed}: modes {', '.join(modes)}")
    deadline = time.monotonic() + args.seconds
    counts = {}
    try:
        while time.monotonic() < deadline:
            mode = rng.choice(sorted(modes))
            seconds = min(args.round, max(deadline - time.monotonic(), 1))
            counts[mode] = counts.get(mode, 0) + run_round(args.binary, mode, modes[mode], rng, seconds, log)
    finally:
        server.kill()
        shutil.rmtree(folder, ignore_errors=True)
    total = sum(counts.values())
    print(f"{total} requests, the player answered every one: " + ", ".join(f"{m} {n}" for m, n in sorted(counts.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
