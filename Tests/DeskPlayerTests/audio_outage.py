#!/usr/bin/env python3
"""Plays a command against a real audio server that is killed and started again.

Starts PulseAudio (or PipeWire with pipewire-pulse) in a fresh runtime folder
with a null sink `cap`, records the sink's monitor with parec (timing every
10 ms block as it arrives), runs the command with SDL_AUDIODRIVER=pulseaudio
PULSE_SINK=cap, kills the server with SIGKILL at --kill-at seconds and starts
it again at --back-at, then prints one JSON object:

  server_back_s   when the server answered again (seconds from the start)
  sound_before    seconds of sound recorded before the kill
  sound_return_s  seconds from the server's return to the first sound after it
  beeps_before / beeps_after  wall times of beep onsets (the clip beeps at every
                  whole second), so a caller can check the phase is kept
  rc, stderr      the command's exit status and its stderr
"""
import argparse, array, json, os, shutil, signal, subprocess, sys, tempfile, threading, time

RATE = 48000
BLOCK = RATE // 100  # 10 ms


class Recorder:
    """parec on the monitor; each block's samples with the time it arrived."""

    def __init__(self, env):
        self.proc = subprocess.Popen(["parec", "--raw", "--latency-msec=10", "-d", "cap.monitor",
                                      "--format=s16le", "--rate=%d" % RATE, "--channels=1"],
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
        self.blocks = []  # (arrival time, samples)
        self.thread = threading.Thread(target=self.read, daemon=True)
        self.thread.start()

    def read(self):
        out = self.proc.stdout
        while True:
            data = out.read(BLOCK * 2)
            if not data:
                return
            self.blocks.append((time.monotonic(), array.array("h", data)))

    def stop(self):
        try:
            self.proc.kill()
        except ProcessLookupError:
            pass
        self.proc.wait()
        self.thread.join(2)

    def timeline(self):
        """(wall time of each sample block's first sample, peak) with the
        sample clock anchored on the earliest-arriving block (the lower
        envelope of arrival minus sample time)."""
        if not self.blocks:
            return []
        count, anchor = 0, None
        for arrived, samples in self.blocks:
            count += len(samples)
            start = arrived - count / RATE
            anchor = start if anchor is None else min(anchor, start)
        out, count = [], 0
        for _, samples in self.blocks:
            for i in range(0, len(samples), BLOCK // 10):  # 1 ms resolution
                part = samples[i:i + BLOCK // 10]
                out.append((anchor + (count + i) / RATE, max((abs(x) for x in part), default=0)))
            count += len(samples)
        return out


def start_server(kind, env):
    if kind == "pulseaudio":
        subprocess.run(["pulseaudio", "--daemonize=yes", "--exit-idle-time=-1", "-n",
                        "--load=module-null-sink sink_name=cap rate=%d" % RATE,
                        "--load=module-native-protocol-unix"], env=env, stderr=subprocess.DEVNULL, check=True)
        procs = []
    else:
        procs = [subprocess.Popen(["pipewire"], env=env, stderr=subprocess.DEVNULL, stdout=subprocess.DEVNULL)]
        time.sleep(0.3)
        procs.append(subprocess.Popen(["pipewire-pulse"], env=env, stderr=subprocess.DEVNULL, stdout=subprocess.DEVNULL))
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if subprocess.run(["pactl", "info"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0:
            break
        time.sleep(0.05)
    else:
        raise SystemExit("audio server did not start")
    if kind != "pulseaudio":
        subprocess.run(["pactl", "load-module", "module-null-sink", "sink_name=cap"], env=env,
                       stdout=subprocess.DEVNULL, check=True)
    return procs


def kill_server(kind, env, procs):
    if kind == "pulseaudio":
        with open(os.path.join(env["XDG_RUNTIME_DIR"], "pulse", "pid")) as f:
            os.kill(int(f.read().strip()), signal.SIGKILL)
    else:
        for p in procs:
            p.kill()
            p.wait()


def onsets(timeline, threshold=3000):
    """Wall times where sound starts after 200 ms or more of quiet."""
    out, quiet_since = [], None
    for t, peak in timeline:
        if peak < threshold:
            quiet_since = t if quiet_since is None else quiet_since
        else:
            if quiet_since is None or t - quiet_since >= 0.2:
                out.append(t)
            quiet_since = None
            quiet_since = None
    # The first block may start mid-beep: keep only onsets after quiet.
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--server", default="pulseaudio", choices=["pulseaudio", "pipewire"])
    ap.add_argument("--kill-at", type=float, default=4)
    ap.add_argument("--back-at", type=float, default=6)
    ap.add_argument("--timeout", type=float, default=40)
    ap.add_argument("command", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    command = a.command[1:] if a.command[:1] == ["--"] else a.command
    runtime = tempfile.mkdtemp(prefix="audio-outage-")
    env = dict(os.environ, XDG_RUNTIME_DIR=runtime, SDL_AUDIODRIVER="pulseaudio", PULSE_SINK="cap")
    env.pop("PULSE_SERVER", None)
    procs = start_server(a.server, env)
    first = Recorder(env)
    t0 = time.monotonic()
    app = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    errors = []
    reader = threading.Thread(target=lambda: errors.append(app.stderr.read()), daemon=True)
    reader.start()
    second = None
    try:
        time.sleep(max(0, t0 + a.kill_at - time.monotonic()))
        kill_server(a.server, env, procs)
        killed = time.monotonic()
        first.stop()
        time.sleep(max(0, t0 + a.back_at - time.monotonic()))
        procs = start_server(a.server, env)
        back = time.monotonic()
        second = Recorder(env)
        try:
            rc = app.wait(timeout=a.timeout)
        except subprocess.TimeoutExpired:
            app.kill()
            rc = "timeout"
    finally:
        if second:
            second.stop()
        try:
            kill_server(a.server, env, procs)
        except (OSError, ValueError):
            pass
        if app.poll() is None:
            app.kill()
        shutil.rmtree(runtime, ignore_errors=True)
    reader.join(2)
    before, after = first.timeline(), second.timeline() if second else []
    sound_after = [t for t, p in after if p >= 3000]
    result = {
        "killed_s": round(killed - t0, 3),
        "server_back_s": round(back - t0, 3),
        "sound_before_s": round(sum(0.001 for t, p in before if p >= 3000), 3),
        "sound_after_s": round(sum(0.001 for t, p in after if p >= 3000), 3),
        "sound_return_s": round(sound_after[0] - back, 3) if sound_after else None,
        "beeps_before": [round(t - t0, 4) for t in onsets(before)],
        "beeps_after": [round(t - t0, 4) for t in onsets(after)],
        "rc": rc,
        "stderr": "".join(errors),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
