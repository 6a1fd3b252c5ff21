#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Scrubbing like an editor (issue 54): exact seeks and frame steps back,
DeskPlayer beside mpv in the same run, on the same files, paused, through
the same JSON IPC requests.

For each file (1080p30 H.264 with a 10 s keyframe interval; unless --quick,
2160p30 H.264 and 1080p30 HEVC Main 10, 10 s intervals too):
  - exact seeks to 20 seeded random times: milliseconds from the request to
    `playback-restart` (the frame at the target is on screen), median and
    90th percentile;
  - keyframe seeks (the seek bar while dragged) to the same times;
  - 30 frame steps back from the middle of a keyframe interval: the first
    step (it decodes from the keyframe) and the median of the others;
  - RSS of each player at the end;
  - playing backward (`play-dir backward`) at 1x, 300 frames from 20 s down
    to 10 s (one keyframe interval): the frames dropped (mpv's
    frame-drop-count plus vo-drop-frame-count; DeskPlayer's frame-drop-count)
    as a share of the frames passed (300, or more where the last step went
    past 10 s), and the wall time (10 s if nothing is late: mpv waits for
    its frames, DeskPlayer keeps the clock and drops).
Both players run under Xvfb, sound to nowhere, one at a time. mpv is asked
with `seek T absolute+exact` and `frame-back-step`; DeskPlayer with the same
commands (it takes mpv's names).

SCRUB_DESKPLAYER_ARGS adds options to DeskPlayer's (`--frame-cache-size 1G`);
SCRUB_PLAYERS names the players to run (`deskplayer` alone; default: mpv, if
installed, and deskplayer).

Usage: bench/scrub.py [--quick] [--only 2160p] [--backward-only] [--json bench/out/scrub.json]   (under xvfb-run; `make bench`)
"""
import argparse, json, os, random, shutil, statistics, subprocess, sys, tempfile, time

from soak import Control  # the control socket connection the soaks use

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("DESKPLAYER_BIN", os.path.join(ROOT, ".build/release/deskplayer"))
SEEKS = 20
STEPS = 30


def make_clip(folder, name, size, seconds, extra):
    path = os.path.join(folder, name)
    if not os.path.exists(path):
        subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i",
                        f"testsrc2=size={size}:rate=30:duration={seconds}", "-f", "lavfi", "-i",
                        f"sine=frequency=440:duration={seconds}", *extra, "-g", "300", "-keyint_min", "300",
                        "-sc_threshold", "0", "-c:a", "aac", "-shortest", path], check=True)
    return path


class Client(Control):
    """soak.py's control connection, with waits for events."""

    def lines(self, deadline):
        while True:
            while b"\n" in self.buffer:
                line, self.buffer = self.buffer.split(b"\n", 1)
                if line.strip():
                    yield json.loads(line)
            remaining = deadline - time.time()
            if remaining <= 0:
                raise TimeoutError("no answer")
            self.sock.settimeout(remaining)
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("the player went away")
            self.buffer += chunk

    def request(self, command):
        self.sock.settimeout(30)  # `lines` narrowed it to what its own wait had left
        return self.command(*command)

    def timed(self, command, timeout=60):
        """Milliseconds from sending `command` to the playback-restart after it."""
        start = time.perf_counter()
        rid = self.next_id
        self.next_id += 1
        self.sock.sendall((json.dumps({"command": command, "request_id": rid}) + "\n").encode())
        answered = False
        for message in self.lines(time.time() + timeout):
            if message.get("request_id") == rid and "error" in message:
                if message["error"] != "success":
                    raise RuntimeError(f"{command}: {message['error']}")
                answered = True
            elif message.get("event") == "playback-restart" and answered:
                return (time.perf_counter() - start) * 1000

    def wait_property(self, name, check, timeout=60):
        deadline = time.time() + timeout
        while time.time() < deadline:
            reply = self.request(["get_property", name])
            if reply.get("error") == "success" and check(reply.get("data")):
                return reply["data"]
            time.sleep(0.05)
        raise TimeoutError(f"{name} never came")


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return None


def start_player(kind, clip, folder):
    sock = os.path.join(folder, f"{kind}.sock")
    if kind == "mpv":
        argv = ["mpv", "--no-config", "--pause", "--hr-seek=yes", "--ao=null", "--vo=x11", "--geometry=1280x720+0+0",
                "--keep-open=yes", f"--input-ipc-server={sock}", "--really-quiet", clip]
        env = dict(os.environ)
    else:
        argv = [BIN, "--no-config", "--pause", "--keep-open=yes", "--geometry", "1280x720+0+0",
                "--input-ipc-server", sock, *os.environ.get("SCRUB_DESKPLAYER_ARGS", "").split(), clip]
        env = dict(os.environ, SDL_AUDIODRIVER="dummy", HOME=folder, XDG_STATE_HOME=folder, XDG_CONFIG_HOME=folder)
    return sock, subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


BACKWARD_FROM, BACKWARD_TO, BACKWARD_FRAMES = 20.0, 10.0, 300


def dropped(client, kind):
    counts = ["frame-drop-count"] + (["vo-drop-frame-count"] if kind == "mpv" else [])
    return sum(int(client.request(["get_property", name]).get("data") or 0) for name in counts)


def run_backward(kind, clip, folder):
    """Plays backward at 1x from 20 s to 10 s (300 frames at 30 fps):
    frames dropped meanwhile, and the wall time it took."""
    sock, player = start_player(kind, clip, folder)
    try:
        client = Client(sock)
        client.wait_property("duration", lambda d: isinstance(d, (int, float)) and d > 0)
        client.sock.sendall(b'{"command": ["enable_event", "all"]}\n')
        client.timed(["seek", BACKWARD_FROM, "absolute+exact"])
        before = dropped(client, kind)
        client.request(["set_property", "play-dir", "backward"])
        start = time.perf_counter()
        client.request(["set_property", "pause", False])
        # Polled every 10 ms: the wall time is that much too long at most.
        deadline = time.time() + 120
        while time.time() < deadline:
            position = client.request(["get_property", "time-pos"]).get("data")
            if isinstance(position, (int, float)) and position <= BACKWARD_TO + 1e-3:
                break
            time.sleep(0.01)
        wall = time.perf_counter() - start
        client.request(["set_property", "pause", True])
        lost = dropped(client, kind) - before
        # A step that fell behind may land past 10 s: the share is of the frames passed.
        end = client.request(["get_property", "time-pos"]).get("data")
        passed = round((BACKWARD_FROM - end) * 30) if isinstance(end, (int, float)) else BACKWARD_FRAMES
        rss = rss_mb(player.pid)
    finally:
        player.kill()
        player.wait()
    return {"backward_dropped_percent": round(100 * lost / max(passed, 1), 1), "backward_dropped": lost,
            "backward_frames_passed": passed,
            "backward_wall_s": round(wall, 2), "backward_rss_mb": round(rss, 1) if rss else None}


def run_player(kind, clip, duration, seed, folder):
    sock, player = start_player(kind, clip, folder)
    try:
        client = Client(sock)
        client.wait_property("duration", lambda d: isinstance(d, (int, float)) and d > 0)
        client.sock.sendall(b'{"command": ["enable_event", "all"]}\n')
        rng = random.Random(seed)
        targets = [round(rng.uniform(0.5, duration - 1), 3) for _ in range(SEEKS)]
        seeks = [client.timed(["seek", t, "absolute+exact"]) for t in targets]
        # The seek bar while dragged: to the keyframe before (mpv's keyframes flag).
        drags = [client.timed(["seek", t, "absolute+keyframes"]) for t in targets]
        # Steps back from 5.5 s into a keyframe interval (the keyframes are at 0, 10, 20 s).
        client.timed(["seek", 15.5, "absolute+exact"])
        steps = [client.timed(["frame-back-step"]) for _ in range(STEPS)]
        position = client.request(["get_property", "time-pos"]).get("data")
        rss = rss_mb(player.pid)
    finally:
        player.kill()
        player.wait()
    return {"seek_ms_median": round(statistics.median(seeks), 1),
            "seek_ms_p90": round(sorted(seeks)[int(len(seeks) * 0.9) - 1], 1),
            "keyframe_seek_ms_median": round(statistics.median(drags), 1),
            "first_step_ms": round(steps[0], 1), "later_steps_ms_median": round(statistics.median(steps[1:]), 1),
            "later_steps_ms_max": round(max(steps[1:]), 1),
            "position_after_steps": position, "rss_mb": round(rss, 1) if rss else None}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="the 1080p clip only")
    parser.add_argument("--only", help="measure only the clips whose name has this (e.g. 2160p)")
    parser.add_argument("--backward-only", action="store_true", help="only the backward playback")
    parser.add_argument("--json", default=os.path.join(ROOT, "bench/out/scrub.json"))
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="deskplayer-scrub-")
    media = os.path.join(ROOT, "bench/out/media")
    os.makedirs(media, exist_ok=True)
    clips = [("1080p30 H.264, 10 s GOP", make_clip(media, "scrub-1080p.mp4", "1920x1080", 30,
                                                   ["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p"]))]
    if not args.quick:
        clips.append(("2160p30 H.264, 10 s GOP", make_clip(media, "scrub-2160p.mp4", "3840x2160", 30,
                                                          ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"])))
        clips.append(("1080p30 HEVC 10-bit, 10 s GOP", make_clip(media, "scrub-hevc10.mp4", "1920x1080", 30,
                      ["-c:v", "libx265", "-preset", "ultrafast", "-pix_fmt", "yuv420p10le",
                       "-x265-params", "keyint=300:min-keyint=300:scenecut=0:log-level=error"])))
    if args.only:
        clips = [clip for clip in clips if args.only in clip[0]]
    results = []
    print(f"{'clip':26} {'player':10} {'seek med':>9} {'seek p90':>9} {'key seek':>9} {'1st back':>9} {'back med':>9} "
          f"{'back max':>9} {'RSS MB':>7}")
    for name, clip in clips:
        row = {"clip": name}
        for kind in os.environ.get("SCRUB_PLAYERS", ("mpv " if shutil.which("mpv") else "") + "deskplayer").split():
            r = {} if args.backward_only else run_player(kind, clip, 30, 54, folder)
            r.update(run_backward(kind, clip, folder))
            row[kind] = r
            print(f"{name:26} {kind:10} backward 1x, {BACKWARD_FRAMES} frames: {r['backward_dropped_percent']:.1f} % "
                  f"dropped, {r['backward_wall_s']:.2f} s (10 s due), RSS {r['backward_rss_mb']} MB", flush=True)
            if args.backward_only:
                continue
            print(f"{name:26} {kind:10} {r['seek_ms_median']:9.1f} {r['seek_ms_p90']:9.1f} {r['keyframe_seek_ms_median']:9.1f} "
                  f"{r['first_step_ms']:9.1f} "
                  f"{r['later_steps_ms_median']:9.1f} {r['later_steps_ms_max']:9.1f} {r['rss_mb']:7.1f}", flush=True)
        if "mpv" in row and not args.backward_only:
            row["seek_ratio"] = round(row["deskplayer"]["seek_ms_median"] / row["mpv"]["seek_ms_median"], 2)
            row["later_steps_ratio"] = round(row["deskplayer"]["later_steps_ms_median"] / row["mpv"]["later_steps_ms_median"], 3)
            print(f"{'':26} DeskPlayer/mpv: exact seek {row['seek_ratio']}x, steps back after the first "
                  f"{row['later_steps_ratio']}x", flush=True)
        results.append(row)
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(os.path.dirname(args.json), exist_ok=True)
    json.dump({"scrub": results}, open(args.json, "w"), indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
