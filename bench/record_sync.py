#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The A/V offset of a recording, beside ffmpeg's in the same run.

A scene flashes and beeps at the same instants, once a second
(bench/flashbeep.c): a second X server (Xvfb, 1280x720) whose root window
turns white for 200 ms, and a private PulseAudio server
(Tests/TestSupport/audio_outage.py starts it) whose null sink `cap` gets
a 50 ms beep placed by the latency the server reports. The camera is that display through
x11grab at 1280x720@30 (a camera that is the wall clock, as a webcam's
frames are), the microphone is the sink's monitor `cap.monitor`:

  1. DeskPlayer previews `--camera x11grab::N.0 --camera-format 1280x720@30
     --microphone cap.monitor` and records SECONDS through the socket;
  2. at the same time, ffmpeg records the same two inputs (`-f x11grab …
     -f pulse …`, its own stamping: the wall clock, minus the server's
     latency for the sound) with the same encoders.

In each file, every flash (the first bright frame) is paired with the beep
next to it (the first loud sample): the offset is the beep's time minus
the flash's, positive when the sound comes late. x11grab sees a flash up
to a frame after it is drawn (it grabs at its own frame times), so a
recorder true to the clock reads 0 to -33 ms; both recorders see the same
moments, so DeskPlayer's figures are read beside ffmpeg's.

Prints and writes bench/out/record_sync.json: for each recorder the flashes
and beeps found, the offsets (median, largest), the frames and the frames
missing against 30 a second. Usage (under a display for DeskPlayer's
window: xvfb-run -a): bench/record_sync.py [--seconds 10]
"""
import argparse, array, json, os, shutil, socket, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Tests/TestSupport"))
import audio_outage  # noqa: E402  (the private audio server)

BIN = os.environ.get("DESKPLAYER_BIN", os.path.join(ROOT, ".build/release/deskplayer"))
RATE = 48000
FPS = 30


class Scene:
    """bench/flashbeep.c, built here: it flashes the display and beeps into
    the sink at the same instants, the whole seconds of CLOCK_MONOTONIC."""

    def __init__(self, display, env, work, seconds):
        binary = os.path.join(work, "flashbeep")
        subprocess.run(["cc", "-O2", "-o", binary, os.path.join(ROOT, "bench/flashbeep.c"), "-lX11", "-lpulse-simple",
                        "-lpulse", "-lm", "-pthread"], check=True)
        # Above the players' priority: the scene is the reference, and keeps its moments on a busy machine.
        self.process = subprocess.Popen(["nice", "-n", "-5", binary, display, "cap", str(seconds)], env=env)

    def close(self):
        self.process.kill()
        self.process.wait()


def ask(path, command, rid=1):
    with socket.socket(socket.AF_UNIX) as s:
        s.settimeout(5)
        s.connect(path)
        s.sendall((json.dumps({"command": command, "request_id": rid}) + "\n").encode())
        data = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
            for line in data.split(b"\n"):
                if line:
                    reply = json.loads(line)
                    if reply.get("request_id") == rid:
                        return reply
    return {}


def wait_for(what, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if what():
                return
        except (OSError, ValueError):
            pass
        time.sleep(0.1)
    raise SystemExit("timed out waiting")


def flashes(path):
    """Times of the first bright frame of each flash, and the frame count."""
    out = subprocess.run(["ffprobe", "-v", "error", "-f", "lavfi", "-i",
                          f"movie={path},scale=64:36,signalstats", "-show_entries",
                          "frame=pts_time:frame_tags=lavfi.signalstats.YAVG", "-of", "csv=p=0"],
                         capture_output=True, text=True, check=True).stdout
    times, frames, bright = [], 0, False
    for line in out.split():
        parts = line.split(",")
        if len(parts) < 2:
            continue
        frames += 1
        t, y = float(parts[0]), float(parts[1])
        if y > 128 and not bright:
            times.append(t)
        bright = y > 128
    return times, frames


def beeps(path):
    """Times of each beep's first loud sample, on the file's timeline."""
    first = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "a:0", "-show_entries", "stream=start_time",
                            "-of", "csv=p=0", path], capture_output=True, text=True).stdout.split()
    if not first:
        return []
    try:
        start = float(first[0].strip(","))
    except ValueError:
        start = 0.0
    raw = subprocess.run(["ffmpeg", "-v", "error", "-i", path, "-map", "0:a:0", "-ac", "1", "-ar", str(RATE),
                          "-f", "s16le", "-"], capture_output=True, check=True).stdout
    samples = array.array("h")
    samples.frombytes(raw[: len(raw) // 2 * 2])
    times, last_loud = [], None
    for i, v in enumerate(samples):
        if abs(v) > 8000:
            if last_loud is None or i - last_loud > RATE * 0.3:
                times.append(start + i / RATE)
            last_loud = i
    return times


def offsets(flash_times, beep_times):
    """The beep next to each flash (within half a second): its time minus the flash's, in ms."""
    out = []
    for f in flash_times:
        near = [b for b in beep_times if abs(b - f) < 0.5]
        if near:
            out.append(round((min(near, key=lambda b: abs(b - f)) - f) * 1000, 1))
    return out


def summary(path, seconds):
    f, frames = flashes(path)
    b = beeps(path)
    o = offsets(f, b)
    return {"flash_times": [round(t, 3) for t in f], "beep_times": [round(t, 3) for t in b],
            "flashes": len(f), "beeps": len(b), "pairs": len(o), "offsets_ms": o,
            "median_offset_ms": statistics.median(o) if o else None,
            "largest_offset_ms": max(o, key=abs) if o else None,
            "frames": frames, "frames_expected": round(seconds * FPS)}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--keep", action="store_true", help="keep the recordings (their folder is printed)")
    parser.add_argument("--json", default=os.path.join(ROOT, "bench/out/record_sync.json"))
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="deskplayer-record-sync-")
    runtime = os.path.join(work, "runtime")
    os.mkdir(runtime, 0o700)
    env = dict(os.environ, XDG_RUNTIME_DIR=runtime, SDL_AUDIODRIVER="dummy")
    env.pop("PULSE_SERVER", None)
    with open(os.path.join(runtime, "client.conf"), "w") as f:
        f.write("autospawn = no\n")
    env["PULSE_CLIENTCONFIG"] = os.path.join(runtime, "client.conf")
    # The scene's display, apart from the one DeskPlayer's window is on.
    number = next(n for n in range(200, 400) if not os.path.exists(f"/tmp/.X{n}-lock"))
    display = f":{number}"
    xvfb = subprocess.Popen(["Xvfb", display, "-screen", "0", "1280x720x24", "-nolisten", "tcp"], stderr=subprocess.DEVNULL)
    wait_for(lambda: subprocess.run(["xdpyinfo", "-display", display], stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL).returncode == 0, 20)
    procs, scene, player = [], None, None
    try:
        procs = audio_outage.start_server("pulseaudio", env, "norewinds=1")
        scene = Scene(display, env, work, args.seconds + 60)
        results = {"seconds": args.seconds, "scene": f"x11grab {display} 1280x720@30 flashing, cap.monitor beeping, "
                                                    "once a second at the same instants"}
        # DeskPlayer: the preview, then a recording of SECONDS through the socket.
        sock = os.path.join(work, "ipc.sock")
        takes = os.path.join(work, "takes")
        player = subprocess.Popen([BIN, "--no-config", "--camera", f"x11grab:{display}.0", "--camera-format", "1280x720@30",
                                   "--microphone", "cap.monitor", "--record-to", takes, "--input-ipc-server", sock],
                                  env=env, stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "dp.err"), "w"))
        wait_for(lambda: ask(sock, ["get_property", "seekable"]).get("data") is False)
        ask(sock, ["record"])
        wait_for(lambda: ask(sock, ["get_property", "recording"]).get("data") is True)
        # ffmpeg records the same inputs at the same time (the scene's moments are the same for
        # both, and so is the machine's load), with the same encoders.
        reference = os.path.join(work, "ffmpeg.mp4")
        rival = subprocess.Popen(["ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "x11grab", "-framerate", str(FPS),
                                  "-video_size", "1280x720", "-i", f"{display}.0", "-f", "pulse", "-i", "cap.monitor",
                                  "-t", str(args.seconds), "-c:v", "libx264", "-preset", "veryfast", "-tune", "zerolatency",
                                  "-pix_fmt", "yuv420p", "-c:a", "aac", reference], env=env)
        time.sleep(args.seconds)  # a bench: the recording runs this long on the wall clock, as a person's would
        ask(sock, ["record"])
        wait_for(lambda: ask(sock, ["get_property", "recording"]).get("data") is False)
        wait_for(lambda: str(ask(sock, ["get_property", "path"]).get("data", "")).endswith(".mp4"))
        ask(sock, ["quit"])
        player.wait(30)
        rival.wait(60)
        take = next(os.path.join(takes, n) for n in os.listdir(takes) if n.endswith(".mp4"))
        results["deskplayer"] = summary(take, args.seconds)
        # Frames the recorder's queue had no room for (the encoder behind), as its last line says.
        said = open(os.path.join(work, "dp.err")).read()
        results["deskplayer"]["recorder_dropped"] = next((int(w) for line in said.splitlines() if "frames dropped" in line
                                                          for w, n in zip(line.split(), line.split()[1:]) if n == "frames"
                                                          and w.isdigit()), 0)
        results["ffmpeg"] = summary(reference, args.seconds)
    finally:
        if player and player.poll() is None:
            player.kill()
        if scene:
            scene.close()
        try:
            audio_outage.kill_server("pulseaudio", env, procs)
        except (OSError, ValueError):
            pass
        xvfb.kill()
        xvfb.wait()
    os.makedirs(os.path.dirname(args.json), exist_ok=True)
    with open(args.json, "w") as f:
        json.dump(results, f, indent=2)
    for name in ("deskplayer", "ffmpeg"):
        r = results[name]
        print(f"{name:10} flashes {r['flashes']:3} beeps {r['beeps']:3} A/V offset median {r['median_offset_ms']} ms, "
              f"largest {r['largest_offset_ms']} ms; frames {r['frames']} of {r['frames_expected']}"
              + (f" ({r['recorder_dropped']} dropped by the recorder's queue)" if "recorder_dropped" in r else ""))
    if args.keep:
        print("recordings kept in", work)
    else:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
