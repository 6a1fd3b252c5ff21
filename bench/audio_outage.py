#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Audio server outage benchmark (issue 29): how soon the sound comes back
after the audio server is killed (SIGKILL) and started again, and whether the
timeline kept its place; DeskPlayer beside mpv and ffplay in the same run.

Tests/TestSupport/audio_outage.py does the server and the recording: a
fresh PulseAudio (or PipeWire with pipewire-pulse and WirePlumber) with a null
sink, killed 4 s after the first sound is recorded from its monitor and
started again 2 s later (2.0 to 2.4 s: the n-th run 0.1 s more, so the
returns fall at every phase of DeskPlayer's half-second retries). The clip is 30 s of 25 fps video with a quiet 440 Hz
tone and a loud 1 kHz beep at every whole second (made with ffmpeg).

Cases: DeskPlayer on PulseAudio's null sink with norewinds=1 (it plays in
50 ms blocks, as a sound card does), on the plain null sink (which renders
2 s ahead while idle and cannot rewind that for a new stream: nothing is
pulled, from any client, until that block has played), and on PipeWire;
mpv (--ao=pulse) and ffplay (SDL's pulseaudio) once each on the first.

Figures per case, from the server's return (seconds; median and max over the
runs): stream_back (the player's new stream on the server), monitor_back
(the sink plays anything at all), device_back (DeskPlayer's "audio device
back" line), sound_return (the tone heard again). phase_shift_ms: where the
beeps fall within the second after the return minus before (0: the sound
came back on the timeline it left). DeskPlayer's --frame-log gives
offset_during_ms / offset_after_ms: how far the pictures moved against their
own timeline during the outage and after the return (0: no jump, no stall).

DESKPLAYER_BIN overrides the binary (default: the release build).
Usage: bench/audio_outage.py [--runs 5] [--json bench/out/audio_outage.json]
"""
import json, os, re, statistics, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "Tests/TestSupport/audio_outage.py")
BINARY = os.environ.get("DESKPLAYER_BIN", os.path.join(ROOT, ".build/release/deskplayer"))
KILL_AFTER, DOWN_FOR, PLAY = 4, 2, 12


def arg(name, default):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def make_clip(path):
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25",
                    "-f", "lavfi", "-i",
                    "aevalsrc=0.1*sin(2*PI*440*t)+0.6*sin(2*PI*1000*t)*lt(mod(t\\,1)\\,0.05):s=48000",
                    "-t", "30", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac",
                    "-shortest", path], check=True)


def frame_offsets(log, first_sound, killed):
    """Median (shown at - pts) before the kill, during the outage, and at the end, from --frame-log."""
    frames = []
    with open(log) as f:
        for line in f.read().splitlines()[1:]:
            parts = line.split(",")
            if len(parts) >= 2:
                frames.append((float(parts[0]), float(parts[1]) / 1000))
    if not frames:
        return None, None
    k = killed - first_sound  # media time of the kill, about

    def median(lo, hi):
        picked = [at - pts for pts, at in frames if lo < pts < hi]
        return statistics.median(picked) if picked else None

    end = frames[-1][0]
    before, during, after = median(k - 1.5, k - 0.3), median(k + 0.5, k + 1.5), median(end - 2, end + 1)
    if before is None:
        return None, None
    ms = lambda x: None if x is None else round((x - before) * 1000, 1)
    return ms(during), ms(after)


def run_once(command, server, sink_args, clip, frame_log=None, down_for=DOWN_FOR):
    player = list(command) + ([f"--frame-log={frame_log}"] if frame_log else []) + [clip]
    r = subprocess.run(["python3", SCRIPT, "--timeout", "45", "--server", server, "--null-sink-args", sink_args,
                        "--kill-after-sound", str(KILL_AFTER), "--down-for", str(down_for), "--"] + player,
                       capture_output=True, text=True, env=dict(os.environ, SDL_VIDEODRIVER="dummy"))
    if r.returncode != 0:
        return {"error": r.stderr.strip().splitlines()[-1:]}
    o = json.loads(r.stdout)
    shift = None
    if o["phase_before_ms"] is not None and o["phase_after_ms"] is not None:
        shift = round(o["phase_after_ms"] - o["phase_before_ms"], 1)
    run = {k: o[k] for k in ("stream_back_s", "monitor_back_s", "device_back_s", "sound_return_s", "sound_after_s", "rc")}
    run["phase_shift_ms"] = shift
    said = re.compile(r"^deskplayer: |ao/|[Aa]udio|Exiting|SDL")
    run["lines"] = [l.strip() for l in o["stderr"].splitlines() if said.search(l)][-6:]
    if frame_log:
        run["offset_during_ms"], run["offset_after_ms"] = frame_offsets(frame_log, o["first_sound_s"], o["killed_s"])
    return run


def summary(runs, key):
    values = [r[key] for r in runs if r.get(key) is not None]
    if not values:
        return None
    return {"median": round(statistics.median(values), 3), "max": round(max(values, key=abs), 3),
            "missing": len(runs) - len(values)}


def main():
    runs = int(arg("--runs", "5"))
    out = arg("--json", None)
    if not os.path.exists(BINARY):
        sys.exit(f"no {BINARY}: build it first (make bench does)")
    work = tempfile.mkdtemp(prefix="bench-outage-")
    clip = os.path.join(work, "tone.mp4")
    make_clip(clip)
    deskplayer = [BINARY, "--quit-after", str(PLAY)]
    cases = [
        ("deskplayer pulseaudio null-sink norewinds", deskplayer, "pulseaudio", "norewinds=1", runs),
        ("deskplayer pulseaudio null-sink", deskplayer, "pulseaudio", "", runs),
        ("deskplayer pipewire", deskplayer, "pipewire", "", runs),
        # mpv writes its messages to stdout, with a status line ending in \r.
        ("mpv pulseaudio null-sink norewinds",
         ["bash", "-c", f"mpv --no-config --ao=pulse --vo=null --length={PLAY} \"$0\" 2>&1 | tr '\\r' '\\n' >&2"],
         "pulseaudio", "norewinds=1", 1),
        ("ffplay pulseaudio null-sink norewinds", ["ffplay", "-nodisp", "-autoexit", "-t", str(PLAY)],
         "pulseaudio", "norewinds=1", 1),
    ]
    results, samples = {}, {}
    for name, command, server, sink_args, count in cases:
        done = []
        for i in range(count):
            log = os.path.join(work, f"frames-{len(results)}-{i}.csv") if command is deskplayer else None
            # The server stays away 2.0, 2.1, ... 2.4 s: the returns fall at
            # every phase of the player's half-second retries.
            run = run_once(command, server, sink_args, clip, log, DOWN_FOR + 0.1 * (i % 5))
            done.append(run)
            print(f"{name} #{i + 1}: " + json.dumps({k: v for k, v in run.items() if k != "lines"}), flush=True)
        entry = {key: summary(done, key) for key in
                 ("stream_back_s", "monitor_back_s", "device_back_s", "sound_return_s", "phase_shift_ms",
                  "offset_during_ms", "offset_after_ms")}
        entry = {k: v for k, v in entry.items() if v is not None}
        entry["runs"] = len(done)
        entry["sound_back_in_runs"] = sum(1 for r in done if r.get("sound_return_s") is not None)
        entry["lines"] = done[-1].get("lines", []) if done else []
        results[name] = entry
        samples[name] = done
    print(json.dumps(results, indent=1))
    if out:
        # The runs stay in bench/out (collect.py keeps the figures only).
        os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
        with open(out, "w") as f:
            json.dump({"audio_outage": dict(results, samples=samples)}, f, indent=1)
    subprocess.run(["rm", "-rf", work])


if __name__ == "__main__":
    main()
