#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A hostile client at the control socket: mutated requests, for as long as it is given.

Starts DeskPlayer (headless: SDL's dummy video and audio drivers) on a file,
reads `property-list` and `command-list`, then sends requests built from them
with extreme and malformed values, mutated at random (seeded, so a run can be
repeated), one at a time. After each request the player must answer a
`get_property time-pos` and its answer must be sane; when the process dies or
stops answering, the request that did it is printed, the player's stderr tail
with it, and the script exits 1. `make fuzz-socket` runs it; `--seconds`
bounds the run, `--seed` repeats one.
"""
import argparse
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time

EXTREMES = [1e13, -1e13, 1e19, -1e19, 1e300, -1e300, 9223372036854775807, -9223372036854775808,
            18446744073709551615, 2147483648, -2147483649, 0, -1, 0.5, "nan", "inf", "-inf", "1e400",
            "-1e400", "", "x" * 70000, [], [1, 2], {}, {"a": 1}, None, True, False, "1e13", "1:2:3:4",
            "99999999999:00:00", "-0", "0x10", "${", "${?a==b:c}", "%n%s%s"]


class Player:
    def __init__(self, binary, media, log):
        self.dir = tempfile.mkdtemp(prefix="deskplayer-fuzz-")
        self.path = os.path.join(self.dir, "socket")
        env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
        self.log = open(log, "wb")
        self.process = subprocess.Popen([binary, media, "--loop", "inf", "--input-ipc-server", self.path],
                                        env=env, stdout=subprocess.DEVNULL, stderr=self.log)
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


def requests(properties, commands, rng):
    """An endless stream of hostile requests: every property and command
    with every extreme value first, then random mutations of them."""
    for name in properties:
        for value in EXTREMES:
            yield ["set_property", name, value]
            yield ["add", name, value] if not isinstance(value, (list, dict)) else ["set_property", name, value]
    for name in commands:
        for value in EXTREMES:
            yield [name, value]
            yield [name, value, value]
    while True:
        kind = rng.random()
        if kind < 0.4:
            yield ["set_property", rng.choice(properties), rng.choice(EXTREMES)]
        elif kind < 0.8:
            yield [rng.choice(commands)] + [rng.choice(EXTREMES) for _ in range(rng.randint(0, 4))]
        else:
            yield [rng.choice(["seek", "loadfile", "add", "cycle", "multiply", "cycle-values", "frame-step",
                               "set", "show-text", "expand-text", "playlist-move", "playlist-remove"])] + \
                [rng.choice(EXTREMES + properties[:20]) for _ in range(rng.randint(1, 4))]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=".build/release/deskplayer")
    parser.add_argument("--media", default="assets/demo.mp4")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--seed", type=int, default=int(time.time()))
    args = parser.parse_args()
    rng = random.Random(args.seed)
    log = os.path.join(tempfile.gettempdir(), f"deskplayer-fuzz-{os.getpid()}.err")
    player = Player(args.binary, args.media, log)
    properties = [p for p in player.request(["get_property", "property-list"])["data"]]
    commands = [c["name"] for c in player.request(["get_property", "command-list"])["data"]]
    # Commands that end or block the run on purpose, not by failing.
    commands = [c for c in commands if c not in ("quit", "quit-watch-later", "stop", "run", "subprocess")]
    print(f"seed {args.seed}: {len(properties)} properties, {len(commands)} commands")
    deadline = time.monotonic() + args.seconds
    count = 0
    for command in requests(properties, commands, rng):
        if time.monotonic() > deadline:
            break
        count += 1
        try:
            player.request(command)
            answer = player.request(["get_property", "volume"])
            if answer.get("error") != "success":
                raise ConnectionError(f"volume unreadable: {answer}")
        except (ConnectionError, OSError, socket.timeout, json.JSONDecodeError) as error:
            time.sleep(0.2)  # lets a dying process's last stderr line reach the log
            text = open(log, errors="replace").read()
            # The trap's message and the first frames of Swift's backtrace, not its register dump.
            start = max(text.find("Fatal error"), text.find("Crash"), 0)
            tail = "\n".join(text[start:].splitlines()[:14])
            shown = json.dumps(command)[:300]
            print(f"request {count} broke the player ({error}): {shown}\nstderr:\n{tail}")
            player.stop()
            return 1
    player.stop()
    print(f"{count} requests, the player answered every one")
    return 0


if __name__ == "__main__":
    sys.exit(main())
