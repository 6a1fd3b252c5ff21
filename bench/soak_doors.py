#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Door soak (issue 50): every way in at once, for a long time, across modes.

For each mode in turn (one file, tiles, a sync group, a comparison of three
renditions, a composition, Picture in Picture, the idle window) a player
runs for SECONDS / modes under Xvfb with a private D-Bus session bus, while:
- 50 socket clients come and go: each connects, sends a burst of random
  requests (get, set, add, cycle, observe and unobserve properties, the
  player's safe commands, now and then an extreme value), reads some of the
  replies, and leaves (half of them without unobserving, a few without
  reading at all);
- MPRIS is called through dbus-send (PlayPause, Seek, Volume, Metadata);
- xdotool presses keys and clicks and moves in the window.
Commands that end a run (quit, stop, tile-close, loadfile, playlist-clear)
are left out, and a context menu opened by a right click is closed with Esc
(its last entry is Quit): the soak measures what stays after everything else.

Per mode: no crash; RSS at the end within 10 % of its figure after the
first minute (each the lowest over 12 s once settled: the player hands
freed memory back every 10 s while it plays); open file descriptors and threads back to that minute's
figures once the clients have gone. Figures in bench/out/soak_doors.json.

Usage: bench/soak_doors.py [--seconds 1800] [--json PATH]   (from the repository root, under xvfb-run)
"""
import argparse, json, os, random, shutil, socket, subprocess, sys, tempfile, threading, time

from soak import proc_figures as figures  # RSS, threads and fds from /proc, as the loop soak reads them

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("DESKPLAYER_BIN", os.path.join(ROOT, ".build/release/deskplayer"))
WARMUP_S = 60
RSS_TOLERANCE = 0.10
CLIENTS = 50
SKIPPED = {"quit", "quit-watch-later", "stop", "tile-close", "loadfile", "loadlist", "playlist-clear", "playlist-remove",
           "run", "subprocess", "screenshot", "screenshot-to-file", "compare-save", "compare-export-frames", "write-watch-later-config",
           # A menu a client opens stays open for the next random click, whose last entry is Quit (the
           # desktop thread's right clicks open menus and close them with Esc).
           "context-menu",
           # Closing a tile's PiP window closes the tile: in a minute a comparison would have none left.
           "pip-close"}
# What the player is set back to before each measurement, so the first minute's
# figures and the end's compare like for like (live metrics decode every
# rendition again, the playlist panel decodes previews, a fullscreen window's
# textures are 2.25 times a 1280x720 one's: features, not leaks).
BASELINE = [["set_property", "compare-metrics", "no"], ["set_property", "scope", "none"],
            ["set_property", "playlist-panel", False], ["set_property", "compare-loupe", False],
            ["set_property", "thumbnails", True], ["set_property", "pause", False], ["set_property", "speed", 1],
            ["set_property", "video-zoom", 0], ["set_property", "fullscreen", False], ["set_property", "content-mode", "fit"],
            ["set_property", "video-rotate", 0], ["set_property", "deinterlace", "auto"],
            # The camera roll watches the Videos folder (an inotify descriptor and its thread) while open.
            ["set_property", "library", False],
            # An A-B loop keeps its loop start ready; playing backward keeps a frame cache.
            ["set_property", "ab-loop-a", "no"], ["set_property", "ab-loop-b", "no"], ["set_property", "play-dir", "forward"],
            # Every tile playing on a loop: a tile a client left at its end (loop-file no, --keep-open)
            # has let its decoding threads go, and one playing has them.
            ["set_property", "loop-file", "inf"],
            # A comparison shows and plays the same sides as at the start.
            ["set_property", "compare-rendition", 1], ["set_property", "compare-side", 0], ["set_property", "compare-audio", 0]]


def settle(path, pid, env, before=None, seconds=60):
    """Sets the baseline, then waits (up to `seconds`) for the thread and fd
    counts to stand still for 6 s, or to come back to `before`'s: the
    figures then."""
    # The pointer where the desktop thread left it: resting on a seek bar it
    # keeps that file's preview decoder open (its own input and threads, the
    # comparison's "second open" of a rendition in one full run). In the
    # middle of the window it hovers no bar.
    subprocess.run(["xdotool", "mousemove", "640", "360"], env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, timeout=20)
    try:
        sock = connect(path, 10)
        buffer = [b""]
        for rid, command in enumerate(BASELINE, 1):
            request(sock, buffer, command, rid)
        for tile in range(8):
            request(sock, buffer, ["pip-restore", tile], 100 + tile)
            request(sock, buffer, ["tile-focus", str(tile)], 200 + tile)
            # A client's playlist-next leaves a tile idle (no pipeline): each tile plays its item again.
            request(sock, buffer, ["playlist-play-index", 0], 500 + tile)
            request(sock, buffer, ["set_property", "loop-file", "inf"], 300 + tile)
            request(sock, buffer, ["set_property", "pause", False], 400 + tile)
        # Like for like: every tile has its item and plays (not still opening, seeking or
        # waiting) before the figures are taken. A sync group's second tile was once still
        # without its pipeline at the first minute: 5 threads and 40 MB less than at the end.
        rid = 1000
        wait_until = time.time() + 30
        while time.time() < wait_until:
            rid += 1
            tiles = request(sock, buffer, ["get_property", "tiles"], rid).get("data") or []
            playing = bool(tiles) and all(t.get("filename") is not None and t.get("pause") is False for t in tiles)
            for index in range(len(tiles)):
                rid += 2
                request(sock, buffer, ["tile-focus", str(index)], rid)
                playing = playing and request(sock, buffer, ["get_property", "core-idle"], rid + 1).get("data") is False
            if playing or not tiles:
                break
            time.sleep(0.5)
        sock.close()
    except (OSError, ConnectionError, json.JSONDecodeError):
        pass
    deadline = time.time() + seconds
    last, still = None, 0
    while True:
        time.sleep(2)
        f = figures(pid)
        counts = (f["threads"], f["fds"])
        still = still + 1 if counts == last else 0
        last = counts
        if before and f["threads"] <= before["threads"] and f["fds"] <= before["fds"]:
            return described(pid, resident_low(pid, f))
        if still >= 3 or time.time() > deadline:
            return described(pid, resident_low(pid, f))


def resident_low(pid, f, seconds=12):
    """`f` with the lowest RSS over `seconds` (sampled each second): the
    player hands freed memory back every 10 s while it plays, and a figure
    taken just before that counts what was already freed. The first
    minute's figure and the end's are both taken so, like for like."""
    low = f["rss_kb"]
    for _ in range(seconds):
        time.sleep(1)
        low = min(low, figures(pid)["rss_kb"])
    return dict(f, rss_kb=low)


def described(pid, f):
    """`f` with the names of the threads and what each file descriptor is:
    when a count is not back, which thread or file stayed."""
    names, targets = [], []
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            names.append(open(f"/proc/{pid}/task/{tid}/comm").read().strip())
        except OSError:
            pass  # a thread that ended meanwhile
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            targets.append(os.readlink(f"/proc/{pid}/fd/{fd}"))
        except OSError:
            pass
    return dict(f, thread_names=sorted(names), fd_targets=sorted(targets))
EXTREMES = [1e13, -1e19, 1e300, 9223372036854775807, "nan", "", "x" * 5000, [], {}, None, True, "99999999999:00:00"]
KEYS = ["space", "Right", "Left", "Up", "Down", "m", "f", "f", "x", "o", "Tab", "F1", "F1", "i", "l", "bracketleft",
        "bracketright", "period", "comma", "A", "ctrl+p", "Escape", "9", "0", "d", "s"]


def connect(path, timeout=30):
    deadline = time.time() + timeout
    while True:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            s.connect(path)
            s.settimeout(10)
            return s
        except OSError:
            s.close()
            if time.time() > deadline:
                raise
            time.sleep(0.1)  # waiting for the socket file: no event to wait on before it exists


def request(sock, buffer, command, rid):
    sock.sendall(json.dumps({"command": command, "request_id": rid}).encode() + b"\n")
    while True:
        while b"\n" not in buffer[0]:
            chunk = sock.recv(65536)
            if not chunk:
                raise ConnectionError("closed")
            buffer[0] += chunk
        line, buffer[0] = buffer[0].split(b"\n", 1)
        message = json.loads(line)
        if message.get("request_id") == rid:
            return message


def client_round(path, properties, commands, rng, errors):
    """One client's visit: a burst of random requests, then it leaves."""
    try:
        sock = connect(path, 10)
    except OSError as error:
        errors.append(f"connect: {error}")
        return
    buffer = [b""]
    reads = rng.random() > 0.1  # a few never read their replies
    try:
        for rid in range(1, rng.randint(5, 60)):
            kind = rng.random()
            name = rng.choice(properties)
            if kind < 0.3:
                command = ["get_property", name]
            elif kind < 0.45:
                command = ["observe_property", rid, name]
            elif kind < 0.5:
                command = ["unobserve_property", rid - 1]
            elif kind < 0.7:
                value = rng.choice(EXTREMES) if rng.random() < 0.2 else rng.choice([0, 1, 0.5, 2, -1, "yes", "no"])
                command = [rng.choice(["set_property", "add", "cycle", "multiply"]), name, value]
            else:
                command = [rng.choice(commands)] + [rng.choice([0, 1, "1", "up", "yes", 0.5]) for _ in range(rng.randint(0, 2))]
            if reads:
                request(sock, buffer, command, rid)
            else:
                sock.sendall(json.dumps({"command": command, "request_id": rid}).encode() + b"\n")
    except (OSError, ConnectionError, json.JSONDecodeError) as error:
        errors.append(f"{type(error).__name__}: {error}")
    finally:
        sock.close()


def clients(path, properties, commands, stop, seed, errors, count):
    """CLIENTS threads, each visiting again and again until `stop`."""
    def run(i):
        rng = random.Random(seed * 100 + i)
        while not stop.is_set():
            client_round(path, properties, commands, rng, errors)
            count[0] += 1
            stop.wait(rng.uniform(0.05, 0.5))
    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(CLIENTS)]
    for t in threads:
        t.start()
    return threads


def desktop(env, stop, rng, count):
    """MPRIS calls and keys and clicks, until `stop`."""
    mpris = ["dbus-send", "--session", "--print-reply", "--reply-timeout=5000",
             "--dest=org.mpris.MediaPlayer2.deskplayer", "/org/mpris/MediaPlayer2"]
    calls = [["org.mpris.MediaPlayer2.Player.PlayPause"], ["org.mpris.MediaPlayer2.Player.Seek", "int64:2000000"],
             ["org.mpris.MediaPlayer2.Player.Seek", "int64:-9223372036854775808"],
             ["org.freedesktop.DBus.Properties.Get", "string:org.mpris.MediaPlayer2.Player", "string:Metadata"],
             ["org.freedesktop.DBus.Properties.Set", "string:org.mpris.MediaPlayer2.Player", "string:Volume",
              "variant:double:0.5"],
             ["org.freedesktop.DBus.Properties.Set", "string:org.mpris.MediaPlayer2.Player", "string:Volume",
              "variant:double:1e300"]]
    while not stop.is_set():
        if rng.random() < 0.4:
            subprocess.run(mpris + rng.choice(calls), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=20)
        else:
            x, y = rng.randint(0, 1279), rng.randint(0, 719)
            action = rng.choice([["key", rng.choice(KEYS)], ["mousemove", str(x), str(y)],
                                 ["mousemove", str(x), str(y), "click", "1"], ["mousemove", str(x), str(y), "click", "3", "key", "Down", "key", "Escape"],
                                 ["mousemove", "640", "700", "click", "1"], ["key", "Escape"]])
            subprocess.run(["xdotool"] + action, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=20)
        count[0] += 1
        stop.wait(rng.uniform(0.1, 0.4))


def soak_mode(mode, arguments, seconds, seed, folder, warmup):
    tmp = tempfile.mkdtemp(prefix="deskplayer-soak-doors-", dir=folder)
    sock_path = os.path.join(tmp, "ipc.sock")
    bus = subprocess.Popen(["dbus-daemon", "--session", "--nofork", f"--address=unix:path={tmp}/bus"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while not os.path.exists(f"{tmp}/bus"):
        time.sleep(0.05)  # waiting for the bus's socket file
    env = dict(os.environ, DBUS_SESSION_BUS_ADDRESS=f"unix:path={tmp}/bus", SDL_AUDIODRIVER="disk",
               SDL_DISKAUDIOFILE="/dev/null", HOME=tmp, XDG_STATE_HOME=tmp, XDG_CONFIG_HOME=tmp)
    err = open(os.path.join(tmp, "stderr"), "w+")
    # --keep-open and --idle: a client that turns the loop off, seeks to the end or skips past the last
    # item leaves the player paused or idle, as a person would find it, not ended.
    player = subprocess.Popen([BIN, *arguments, "--keep-open=yes", "--idle=yes", "--geometry", "1280x720+0+0", "--no-config",
                               "--input-ipc-server", sock_path],
                              env=env, stdout=subprocess.DEVNULL, stderr=err, cwd=tmp)
    control = connect(sock_path)
    buffer = [b""]
    properties = request(control, buffer, ["get_property", "property-list"], 1)["data"]
    commands = [c["name"] for c in request(control, buffer, ["get_property", "command-list"], 2)["data"]
                if c["name"] not in SKIPPED]
    control.close()
    stop, errors, client_visits, desktop_actions = threading.Event(), [], [0], [0]
    threads = clients(sock_path, properties, commands, stop, seed, errors, client_visits)
    rng = random.Random(seed)
    doer = threading.Thread(target=desktop, args=(env, stop, rng, desktop_actions), daemon=True)
    doer.start()
    start = time.time()
    first = None
    samples = []
    while time.time() - start < seconds and player.poll() is None:
        time.sleep(5)
        try:
            f = figures(player.pid)
        except (KeyError, OSError):
            break  # it has ended: a zombie has no memory figures
        f["t_s"] = round(time.time() - start, 1)
        samples.append(f)
        if first is None and f["t_s"] >= warmup:
            # The first-minute figure is taken with the clients gone for a moment, as the end one is.
            stop.set()
            for t in threads + [doer]:
                t.join(30)
            try:
                first = settle(sock_path, player.pid, env)
            except (KeyError, OSError):
                break
            stop.clear()
            threads = clients(sock_path, properties, commands, stop, seed + 1, errors, client_visits)
            doer = threading.Thread(target=desktop, args=(env, stop, rng, desktop_actions), daemon=True)
            doer.start()
    stop.set()
    for t in threads + [doer]:
        t.join(30)
    crashed = player.poll() is not None
    end = None
    if not crashed:
        # Back to where they were: jobs the clients started (an alignment, an export) finish on their
        # own threads; the counts are waited for, up to a minute.
        try:
            end = settle(sock_path, player.pid, env, first)
        except (KeyError, OSError):
            crashed = True
        player.kill()
    code = player.wait()
    bus.kill()
    bus.wait()
    err.seek(0)
    stderr_tail = err.read()[-1500:]
    result = {"mode": mode, "seconds": round(time.time() - start, 1), "client_visits": client_visits[0],
              "desktop_actions": desktop_actions[0], "client_errors": len(errors), "client_error_examples": errors[:5],
              "crashed": crashed, "exit_code": code if crashed else None, "first_minute": first, "end": end,
              "rss_mb_max": round(max(s["rss_kb"] for s in samples) / 1024, 1) if samples else None,
              # Every sample (each 5 s): a plateau after the first minute is the allocator's arenas
              # filling, a slope to the end is a leak.
              "rss_mb_samples": [[s["t_s"], round(s["rss_kb"] / 1024, 1)] for s in samples]}
    checks = {"ran_to_the_end": not crashed}
    if first and end:
        growth = (end["rss_kb"] - first["rss_kb"]) / first["rss_kb"]
        result["rss_growth_percent"] = round(growth * 100, 2)
        checks["rss_within_10_percent"] = abs(growth) <= RSS_TOLERANCE
        checks["fds_back"] = end["fds"] <= first["fds"]
        checks["threads_back"] = end["threads"] <= first["threads"]
    result["checks"] = checks
    result["passed"] = bool(first and end) and all(checks.values())
    if crashed:
        result["stderr_tail"] = stderr_tail
    shutil.rmtree(tmp, ignore_errors=True)
    return result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=1800)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--warmup", type=float, default=WARMUP_S, help="seconds before the first figures (a short trial run)")
    parser.add_argument("--modes", help="comma-separated modes to soak (default: all)")
    parser.add_argument("--json", default=os.path.join(ROOT, "bench/out/soak_doors.json"))
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="deskplayer-soak-media-")
    third = os.path.join(folder, "rendition.mp4")
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-i", "assets/demo.mp4", "-t", "4", "-vf", "scale=320:180",
                    "-c:v", "mpeg4", "-q:v", "12", "-c:a", "aac", third], check=True)
    demo, other = "assets/demo.mp4", "assets/compare.mp4"
    demo, other = os.path.abspath(demo), os.path.abspath(other)
    modes = {
        "one file": [demo, "--loop", "inf"],
        "tiles": ["--layout", "grid", demo, other, "--loop", "inf"],
        "sync group": ["--layout", "grid", "--sync", demo, other, "--loop", "inf"],
        "comparison": ["--compare", "wipe", demo, other, third, "--loop", "inf"],
        "composition": ["--crossfade", "1", os.path.abspath("assets/tone.mp3"), os.path.abspath("assets/tone.flac"), "--loop", "inf"],
        "picture in picture": ["--pip", demo, "--loop", "inf"],
        "idle window": ["--idle"],
    }
    if args.modes:
        modes = {name: modes[name] for name in args.modes.split(",") if name in modes}
    each = max(args.seconds / len(modes), args.warmup + 30)
    print(f"Door soak: {len(modes)} modes, {each / 60:.1f} min each, {CLIENTS} socket clients coming and going, "
          "MPRIS calls, keys and clicks", flush=True)
    results = []
    for i, (mode, arguments) in enumerate(modes.items()):
        r = soak_mode(mode, arguments, each, args.seed + i, folder, args.warmup)
        results.append(r)
        f, e = r["first_minute"], r["end"]
        line = f"{mode:20} {r['client_visits']:6d} client visits, {r['desktop_actions']:5d} MPRIS/keys/clicks"
        if f and e:
            line += (f", RSS {f['rss_kb'] / 1024:.1f} -> {e['rss_kb'] / 1024:.1f} MB ({r['rss_growth_percent']:+.1f} %)"
                     f", fds {f['fds']} -> {e['fds']}, threads {f['threads']} -> {e['threads']}")
        print(line + ("  ok" if r["passed"] else f"  FAIL {r['checks']}"), flush=True)
        if f and e and (e["threads"] > f["threads"] or e["fds"] > f["fds"]):
            stayed = lambda key: sorted(set(e[key]) - set(f[key])) or sorted(e[key])
            print(f"{'':20} threads at the end: {stayed('thread_names')}; files: {stayed('fd_targets')}", flush=True)
        if r["crashed"]:
            print(f"exit code {r['exit_code']}; stderr:\n" + r.get("stderr_tail", ""))
    shutil.rmtree(folder, ignore_errors=True)
    passed = all(r["passed"] for r in results)
    os.makedirs(os.path.dirname(args.json), exist_ok=True)
    json.dump({"soak_doors": {"modes": results, "passed": passed, "seconds": args.seconds}}, open(args.json, "w"), indent=2)
    print("PASS" if passed else "FAIL")
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
