#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Plays a command against a real audio server that is killed and started again.

Starts PulseAudio (or PipeWire with pipewire-pulse) in a fresh runtime folder
with a null sink `cap` (PulseAudio's with norewinds=1 unless --null-sink-args
says otherwise: see its help), records the sink's monitor with parec (timing every
10 ms block as it arrives), runs the command with SDL_AUDIODRIVER=pulseaudio
PULSE_SINK=cap, kills the server with SIGKILL --kill-after-sound seconds after
the first sound is heard, and starts
it again --down-for seconds later, then prints one JSON object:

  first_sound_s   when the first sound was recorded (seconds from the start)
  killed_s        when the server was killed (--kill-after-sound after that)
  server_back_s   when the server answered again
  stream_back_s   seconds from then to the command's new stream on the server (±20 ms)
  sound_before    seconds of sound recorded before the kill
  sound_return_s  seconds from the server's return to the first sound after it
  monitor_back_s  seconds from the server's return to the first block the
                  restarted sink's monitor delivered (when it plays at all)
  device_lost_s   seconds from the kill to the command's stderr line "audio
                  device lost" (None when it never said so)
  device_back_s   seconds from the server's return to the command's stderr
                  line "audio device back" (or "found")
  beeps_before / beeps_after  times of beep onsets (for a clip that beeps at
                  every whole second), and phase_before_ms / phase_after_ms
                  their median place within the second: equal when the sound
                  came back on the timeline it left
  last_sound_s    when the last sound was recorded
  t0_monotonic    the start (time.monotonic(): CLOCK_MONOTONIC, as other
                  processes read it), to place their own observations
  levels_before / levels_after  with --levels: [seconds from the start, peak]
                  every 10 ms, on the same timeline as the beeps
  rc, stderr      the command's exit status and its stderr
With --freeze (PulseAudio) the server is stopped with SIGSTOP and resumed with
SIGCONT instead: a hung server, whose clients' calls just wait.
With --absent-for there is no server at the start: it is started that long
after the command (and the figures "before" are empty).
"""
import argparse, array, json, os, shutil, signal, subprocess, sys, tempfile, threading, time

RATE = 48000
# Peaks (16-bit) that count as sound, and as a beep (the test clip has a
# quiet tone throughout and a loud beep at every whole second).
SOUND = 1500
BEEP = 12000
BLOCK = RATE // 100  # 10 ms


class Recorder:
    """parec on the monitor; each block's samples with the time it arrived."""

    def __init__(self, env):
        self.proc = subprocess.Popen(["parec", "--raw", "--latency-msec=10", "-d", "cap.monitor",
                                      "--format=s16le", "--rate=%d" % RATE, "--channels=1"],
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
        self.blocks = []  # (arrival time, samples)
        self.scanned, self.sound = 0, None
        self.thread = threading.Thread(target=self.read, daemon=True)
        self.thread.start()

    def read(self):
        out = self.proc.stdout
        while True:
            data = out.read(BLOCK * 2)
            if not data:
                return
            self.blocks.append((time.monotonic(), array.array("h", data)))

    def first_sound(self, threshold=SOUND):
        """The arrival time of the first block with sound (None: none yet)."""
        while self.sound is None and self.scanned < len(self.blocks):
            arrived, samples = self.blocks[self.scanned]
            self.scanned += 1
            if max(map(abs, samples), default=0) >= threshold:
                self.sound = arrived
        return self.sound

    def stop(self):
        try:
            self.proc.kill()
        except ProcessLookupError:
            pass
        self.proc.wait()
        self.thread.join(2)

    def timeline(self):
        """(wall time, peak) per millisecond of the recording. Within each run
        of blocks that kept arriving (a frozen server splits them), the sample
        clock is anchored on the earliest-arriving block (the lower envelope
        of arrival minus sample time)."""
        runs, last = [], None
        for arrived, samples in self.blocks:
            if last is None or arrived - last > 0.3:
                runs.append([])
            runs[-1].append((arrived, samples))
            last = arrived
        out = []
        for run in runs:
            count, anchor = 0, None
            for arrived, samples in run:
                count += len(samples)
                start = arrived - count / RATE
                anchor = start if anchor is None else min(anchor, start)
            count = 0
            for _, samples in run:
                for i in range(0, len(samples), BLOCK // 10):  # 1 ms resolution
                    part = samples[i:i + BLOCK // 10]
                    out.append((anchor + (count + i) / RATE, max((abs(x) for x in part), default=0)))
                count += len(samples)
        return out


class StreamWatcher:
    """When the first playback stream appears on the server (polled: a
    subscription would miss one made before it connected)."""

    def __init__(self, env):
        self.env, self.appeared, self.done = env, None, False
        self.thread = threading.Thread(target=self.poll, daemon=True)
        self.thread.start()

    def poll(self):
        while not self.done and self.appeared is None:
            r = subprocess.run(["pactl", "list", "short", "sink-inputs"], env=self.env, capture_output=True, text=True)
            if r.returncode == 0 and r.stdout.strip():
                self.appeared = time.monotonic()
            time.sleep(0.02)

    def stop(self):
        self.done = True
        self.thread.join(2)


def start_server(kind, env, sink_args=""):
    """Starts the server; returns the processes to kill (PulseAudio daemonizes:
    its pid file says)."""
    if kind == "pulseaudio":
        subprocess.run(["pulseaudio", "--daemonize=yes", "--exit-idle-time=-1", "-n",
                        ("--load=module-null-sink sink_name=cap rate=%d " % RATE) + sink_args,
                        "--load=module-native-protocol-unix"], env=env, stderr=subprocess.DEVNULL, check=True)
        procs = []
    else:
        # PipeWire links nothing without its session manager, and WirePlumber
        # needs a session bus (the caller's env has one).
        quiet = dict(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        procs = [subprocess.Popen(["pipewire"], **quiet)]
        time.sleep(0.3)
        procs += [subprocess.Popen(["pipewire-pulse"], **quiet), subprocess.Popen(["wireplumber"], **quiet)]
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if subprocess.run(["pactl", "info"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0:
            break
        time.sleep(0.05)
    else:
        raise SystemExit("audio server did not start")
    if kind != "pulseaudio":
        subprocess.run(["pactl", "load-module", "module-null-sink", "sink_name=cap", "rate=%d" % RATE], env=env,
                       stdout=subprocess.DEVNULL, check=True)
        subprocess.run(["pactl", "set-default-sink", "cap"], env=env, stdout=subprocess.DEVNULL)
    return procs


def server_pid(env):
    with open(os.path.join(env["XDG_RUNTIME_DIR"], "pulse", "pid")) as f:
        return int(f.read().strip())


def kill_server(kind, env, procs):
    if kind == "pulseaudio":
        os.kill(server_pid(env), signal.SIGKILL)
    else:
        for p in procs:
            p.kill()
            p.wait()


def onsets(timeline, threshold=BEEP):
    """Wall times where sound starts after 200 ms or more of quiet."""
    out, last_loud = [], None
    for t, peak in timeline:
        if peak >= threshold:
            if last_loud is not None and t - last_loud >= 0.2:
                out.append(t)
            last_loud = t
    return out


def levels(timeline, t0, step=10):
    """[seconds from t0, peak] of each `step` ms of the timeline (its 1 ms entries)."""
    return [[round(timeline[i][0] - t0, 3), max(p for _, p in timeline[i:i + step])]
            for i in range(0, len(timeline) - step + 1, step)]


def phase_ms(times, t0, near=None):
    """The median of the beeps' places within their second, in ms (wrapped
    to within half a second of `near`)."""
    if not times:
        return None
    phases = sorted(((t - t0) % 1) * 1000 for t in times)
    ref = phases[len(phases) // 2] if near is None else near
    wrapped = sorted(p - 1000 if p - ref > 500 else p + 1000 if ref - p > 500 else p for p in phases)
    return round(wrapped[len(wrapped) // 2], 1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--server", default="pulseaudio", choices=["pulseaudio", "pipewire"])
    ap.add_argument("--kill-after-sound", type=float, default=4,
                    help="kill the server this long after the first sound is recorded")
    ap.add_argument("--down-for", type=float, default=2, help="start it again this long after the kill")
    ap.add_argument("--freeze", action="store_true",
                    help="PulseAudio: SIGSTOP the server instead of killing it, SIGCONT after --down-for (a hung server)")
    ap.add_argument("--absent-for", type=float,
                    help="no server at the start: start it this long after the command (nothing is killed)")
    ap.add_argument("--null-sink-args", default="norewinds=1",
                    help="PulseAudio: more arguments for module-null-sink. By default norewinds=1: the null sink then "
                         "plays in 50 ms blocks, as a sound card does. Without it ('') an idle null sink renders 2 s "
                         "ahead and cannot rewind that for a new stream, so every stream (pacat's too) waits up to "
                         "2 s after the server starts before it is pulled at all")
    ap.add_argument("--levels", action="store_true",
                    help="also print levels_before / levels_after: [seconds from the start, peak] every 10 ms")
    ap.add_argument("--timeout", type=float, default=40)
    ap.add_argument("command", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    command = a.command[1:] if a.command[:1] == ["--"] else a.command
    runtime = tempfile.mkdtemp(prefix="audio-outage-")
    env = dict(os.environ, XDG_RUNTIME_DIR=runtime, SDL_AUDIODRIVER="pulseaudio", PULSE_SINK="cap")
    env.pop("PULSE_SERVER", None)
    bus = None
    if a.server == "pipewire":
        bus = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--print-address=1"], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        env["DBUS_SESSION_BUS_ADDRESS"] = bus.stdout.readline().strip()
    # No autospawned server behind the test's back.
    with open(os.path.join(runtime, "client.conf"), "w") as f:
        f.write("autospawn = no\n")
    env["PULSE_CLIENTCONFIG"] = os.path.join(runtime, "client.conf")
    procs = start_server(a.server, env, a.null_sink_args) if a.absent_for is None else []
    first = Recorder(env) if a.absent_for is None else None
    t0 = time.monotonic()
    app = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    errors = []  # (arrival time, line)

    def read_errors():
        for line in app.stderr:
            errors.append((time.monotonic(), line))

    reader = threading.Thread(target=read_errors, daemon=True)
    reader.start()
    second = watcher = None
    try:
        deadline = t0 + a.timeout
        if first:
            while first.first_sound() is None and time.monotonic() < deadline and app.poll() is None:
                time.sleep(0.01)
            sound = first.first_sound() or time.monotonic()
            time.sleep(max(0, sound + a.kill_after_sound - time.monotonic()))
            if a.freeze:
                os.kill(server_pid(env), signal.SIGSTOP)
            else:
                kill_server(a.server, env, procs)
            killed = time.monotonic()
            if not a.freeze:
                first.stop()
            time.sleep(max(0, killed + a.down_for - time.monotonic()))
        else:
            sound = killed = t0
            time.sleep(a.absent_for)
        if a.freeze:
            os.kill(server_pid(env), signal.SIGCONT)
            back = time.monotonic()
            second, first = first, None
        else:
            procs = start_server(a.server, env, a.null_sink_args)
            back = time.monotonic()
            second = Recorder(env)
            watcher = StreamWatcher(env)
        try:
            rc = app.wait(timeout=max(1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            app.kill()
            rc = "timeout"
    finally:
        if second:
            second.stop()
        if watcher:
            watcher.stop()
        try:
            kill_server(a.server, env, procs)
        except (OSError, ValueError):
            pass
        if app.poll() is None:
            app.kill()
        if bus:
            bus.kill()
        shutil.rmtree(runtime, ignore_errors=True)
    reader.join(2)
    before, after = first.timeline() if first else [], second.timeline() if second else []
    if a.freeze:
        # One recording throughout: "before" is up to the freeze, "after" from the thaw.
        before, after = [x for x in after if x[0] < killed], [x for x in after if x[0] >= back]
    sound_after = [t for t, p in after if p >= SOUND]
    loud = [t for t, p in before + after if p >= SOUND]
    # The restarted sink's first monitor block: when it began to play anything at all.
    monitor_back = second.blocks[0][0] - back if second and not a.freeze and second.blocks else None
    said_lost = [t for t, line in errors if t >= killed and "audio device lost" in line]
    said_back = [t for t, line in errors if t >= back and ("audio device back" in line or "audio device found" in line)]
    result = {
        "first_sound_s": round(sound - t0, 3),
        "killed_s": round(killed - t0, 3),
        "stream_back_s": round(watcher.appeared - back, 3) if watcher and watcher.appeared else None,
        "server_back_s": round(back - t0, 3),
        "sound_before_s": round(sum(0.001 for t, p in before if p >= SOUND), 3),
        "sound_after_s": round(sum(0.001 for t, p in after if p >= SOUND), 3),
        "sound_return_s": round(sound_after[0] - back, 3) if sound_after else None,
        "monitor_back_s": round(monitor_back, 3) if monitor_back is not None else None,
        "device_lost_s": round(said_lost[0] - killed, 3) if said_lost else None,
        "device_back_s": round(said_back[0] - back, 3) if said_back else None,
        "beeps_before": [round(t - t0, 4) for t in onsets(before)],
        "beeps_after": [round(t - t0, 4) for t in onsets(after)],
        "phase_before_ms": phase_ms(onsets(before), t0),
        "phase_after_ms": phase_ms(onsets(after), t0, phase_ms(onsets(before), t0)),
        "last_sound_s": round(max(loud) - t0, 3) if loud else None,
        "t0_monotonic": t0,
        "rc": rc,
        "stderr": "".join(line for _, line in errors),
    }
    if a.levels:
        result["levels_before"], result["levels_after"] = levels(before, t0), levels(after, t0)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
