#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Soak: a short clip looping in 4 tiles for LOOPS passes, driven through the
control socket (seeks, pause, focus changes, Picture in Picture in and out)
the whole time. Samples RSS, open fds and threads of the player; passes when,
at the end, RSS is within 5 % of its figure after the first minute and the fd
and thread counts are back to theirs. Run through bench/soak.sh (`make soak`).

Tile 0 is never the target of a command (commands go to tiles 1-3 by
focusing them first), so its frame log (--frame-log: each presented frame)
shows whether any loop seam dropped or held a frame while the others were
being seeked, paused and moved in and out of PiP windows.

Usage: bench/soak.py CLIP LOOPS [--json PATH]
"""
import csv, json, os, random, socket, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("DESKPLAYER_BIN", os.path.join(ROOT, ".build/release/deskplayer"))
WARMUP_S = 60          # the first-minute sample is taken at the first quiet point after this
RSS_TOLERANCE = 0.05


def proc_figures(pid):
    status = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            status[key] = value.strip()
    return {"rss_kb": int(status["VmRSS"].split()[0]), "threads": int(status["Threads"]),
            "fds": len(os.listdir(f"/proc/{pid}/fd"))}


class Control:
    """One connection to the control socket (mpv's JSON IPC)."""

    def __init__(self, path, timeout=30):
        deadline = time.time() + timeout
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                self.sock.connect(path)
                break
            except OSError:
                self.sock.close()
                if time.time() > deadline:
                    raise
                time.sleep(0.1)
        self.sock.settimeout(10)
        self.buffer = b""
        self.next_id = 1

    def command(self, *args):
        request_id = self.next_id
        self.next_id += 1
        self.sock.sendall(json.dumps({"command": list(args), "request_id": request_id}).encode() + b"\n")
        while True:
            while b"\n" not in self.buffer:
                chunk = self.sock.recv(65536)
                if not chunk:
                    raise ConnectionError("control socket closed")
                self.buffer += chunk
            line, self.buffer = self.buffer.split(b"\n", 1)
            message = json.loads(line)
            if message.get("request_id") == request_id:  # events in between are skipped
                return message


def probe_duration(clip):
    out = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", clip],
                         capture_output=True, text=True, check=True).stdout
    return float(out.strip())


def seam_report(log_path, clip_seconds, fps):
    """Presentation hitches and skipped frames on tile 0, and those at loop seams."""
    rows = [(float(r["pts_s"]), float(r["presented_ms"])) for r in csv.DictReader(open(log_path))]
    nominal = 1000 / fps
    seams = gaps = late = seam_gaps = seam_late = 0
    worst_seam = 0.0
    for (p0, t0), (p1, t1) in zip(rows, rows[1:]):
        at_seam = int((p1 + 1e-4) / clip_seconds) > int((p0 + 1e-4) / clip_seconds)
        skipped = (p1 - p0) * 1000 > 1.5 * nominal
        held = (t1 - t0) > 2.5 * nominal  # a frame stayed on screen for more than two refreshes too long
        seams += at_seam
        gaps += skipped
        late += held
        if at_seam:
            seam_gaps += skipped
            seam_late += held
            worst_seam = max(worst_seam, t1 - t0)
    return {"frames": len(rows), "seams": seams, "seams_with_skipped_frame": seam_gaps, "seams_held_long": seam_late,
            "worst_seam_interval_ms": round(worst_seam, 1), "skipped_frames_anywhere": gaps,
            "held_frames_anywhere": late, "nominal_interval_ms": round(nominal, 2)}


def main():
    clip, loops = sys.argv[1], int(sys.argv[2])
    json_path = sys.argv[sys.argv.index("--json") + 1] if "--json" in sys.argv else None
    clip_seconds = probe_duration(clip)
    total_s = loops * clip_seconds
    rng = random.Random(9)
    tmp = tempfile.mkdtemp(prefix="deskplayer-soak-")
    sock_path, stats_path, log_path = (os.path.join(tmp, n) for n in ("ipc.sock", "stats.json", "frames.csv"))
    env = dict(os.environ, SDL_AUDIODRIVER=os.environ.get("SDL_AUDIODRIVER", "disk"),
               SDL_DISKAUDIOFILE=os.environ.get("SDL_DISKAUDIOFILE", "/dev/null"))
    cmd = [BIN] + [clip] * 4 + ["--layout", "grid", "--loop", "inf", "--geometry", "1280x720+0+0", "--no-config",
                                "--no-resume", "--input-ipc-server", sock_path, "--stats-json", stats_path,
                                "--frame-log", log_path]
    print(f"Soak: {os.path.basename(clip)} ({clip_seconds:.2f} s) looping in 4 tiles for {loops} passes "
          f"({total_s / 60:.1f} min), seeks / pause / focus / PiP through the control socket")
    err = open(os.path.join(tmp, "stderr"), "w+")
    player = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=err)
    start = time.time()
    control = Control(sock_path)
    samples, first, actions, failures = [], None, 0, []

    def act(*args):
        nonlocal actions
        reply = control.command(*args)
        actions += 1
        if reply.get("error") != "success":
            failures.append(f"{' '.join(map(str, args))}: {reply.get('error')}")

    # Rounds of about 6 s, each leaving the player as it found it (every
    # tile playing, none in PiP), so the samples between rounds compare.
    while time.time() - start < total_s:
        tile = 1 + rng.randrange(3)
        act("tile-focus", str(tile))
        act("seek", f"{rng.uniform(0, clip_seconds * 0.9):.3f}", "absolute")
        time.sleep(1.0)
        act("pip-start", tile)
        time.sleep(1.5)
        act("seek", "0.5", "relative")
        time.sleep(0.5)
        act("pip-restore", tile)
        time.sleep(1.0)
        act("cycle", "pause")
        time.sleep(0.3)
        act("cycle", "pause")
        act("tile-focus", str(1 + (tile % 3)))
        time.sleep(1.5)
        if player.poll() is not None:
            break
        figures = proc_figures(player.pid)
        figures["t_s"] = round(time.time() - start, 1)
        samples.append(figures)
        if first is None and figures["t_s"] >= WARMUP_S:
            first = figures
            print(f"  after the first minute ({figures['t_s']:.0f} s): RSS {figures['rss_kb'] / 1024:.1f} MB, "
                  f"{figures['fds']} fds, {figures['threads']} threads", flush=True)
        elif len(samples) % 50 == 0:
            print(f"  {figures['t_s'] / 60:5.1f} min: RSS {figures['rss_kb'] / 1024:.1f} MB, {figures['fds']} fds, "
                  f"{figures['threads']} threads", flush=True)
    crashed = player.poll() is not None
    end = samples[-1] if samples else None
    if not crashed:
        # The end figure: let the last round settle, as the first one had.
        time.sleep(2)
        end = proc_figures(player.pid)
        end["t_s"] = round(time.time() - start, 1)
        try:
            control.command("quit")
        except (OSError, ConnectionError):
            pass
    try:
        code = player.wait(timeout=60)
    except subprocess.TimeoutExpired:
        player.kill()
        code = player.wait()
        failures.append("did not quit within 60 s of the quit command")
    err.seek(0)
    stderr_text = err.read()

    stats = json.load(open(stats_path)) if os.path.exists(stats_path) else {"players": []}
    players = stats.get("players", [])
    fps = 30.0
    seams = seam_report(log_path, clip_seconds, fps) if os.path.exists(log_path) else None
    result = {"clip": os.path.basename(clip), "clip_seconds": round(clip_seconds, 3), "tiles": 4,
              "loops_asked": loops, "wall_s": round(time.time() - start, 1), "socket_commands": actions,
              "command_failures": failures[:20], "exit_code": code, "crashed": crashed,
              "first_minute": first, "end": end,
              "loop_counts": [p.get("loopCount") for p in players],
              "frames_dropped": [p.get("framesDropped") for p in players],
              "audio_underruns": [p.get("audioUnderruns") for p in players],
              "tile0_seams": seams, "samples": samples}
    checks = {}
    if first and end:
        growth = (end["rss_kb"] - first["rss_kb"]) / first["rss_kb"]
        result["rss_growth_percent"] = round(growth * 100, 2)
        checks["rss_within_5_percent"] = abs(growth) <= RSS_TOLERANCE
        checks["fds_back"] = end["fds"] == first["fds"]
        checks["threads_back"] = end["threads"] == first["threads"]
    checks["ran_to_the_end"] = not crashed and code == 0
    checks["commands_answered"] = not failures
    result["checks"] = checks
    result["passed"] = bool(first and end) and all(checks.values())

    print(f"Soak over {result['wall_s'] / 60:.1f} min, {actions} socket commands ({len(failures)} failed)")
    if first and end:
        print(f"{'':22} {'first minute':>14} {'end':>10}")
        print(f"{'RSS MB':22} {first['rss_kb'] / 1024:14.1f} {end['rss_kb'] / 1024:10.1f}   "
              f"({result['rss_growth_percent']:+.2f} %, limit 5 %)")
        print(f"{'open fds':22} {first['fds']:14d} {end['fds']:10d}")
        print(f"{'threads':22} {first['threads']:14d} {end['threads']:10d}")
        rss = [s["rss_kb"] / 1024 for s in samples if s["t_s"] >= first["t_s"]]
        print(f"RSS between them: min {min(rss):.1f} MB, median {statistics.median(rss):.1f} MB, max {max(rss):.1f} MB")
    print(f"Loops per tile (--stats-json loopCount): {result['loop_counts']}; frames dropped {result['frames_dropped']}; "
          f"audio underruns {result['audio_underruns']}")
    if seams:
        print(f"Tile 0 (never commanded): {seams['seams']} seams, {seams['seams_with_skipped_frame']} with a skipped "
              f"frame, {seams['seams_held_long']} with a frame held > 2.5 intervals (worst seam interval "
              f"{seams['worst_seam_interval_ms']} ms); anywhere: {seams['skipped_frames_anywhere']} skipped, "
              f"{seams['held_frames_anywhere']} held")
    for name, ok in checks.items():
        print(f"  {'ok  ' if ok else 'FAIL'} {name}")
    if failures:
        print("Command failures: " + "; ".join(failures[:5]))
    if not checks["ran_to_the_end"]:
        print("Player stderr (end):\n" + stderr_text[-2000:])
    print("PASS" if result["passed"] else "FAIL")
    if json_path:
        os.makedirs(os.path.dirname(json_path) or ".", exist_ok=True)
        json.dump({"soak": result}, open(json_path, "w"), indent=2)
    return 0 if result["passed"] else 1


if __name__ == "__main__":
    sys.exit(main())
