#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Video at the loop seam: presentation intervals of the demo looped 3 times,
from DeskPlayer's --frame-log (host time each frame went on screen).
Prints the interval at each seam and the worst interval elsewhere, against the
nominal frame duration. Usage: bench/video_seams.py [--json PATH] (run by `make bench`)."""
import csv, json, os, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
with tempfile.TemporaryDirectory() as tmp:
    log = os.path.join(tmp, "frames.csv")
    env = dict(os.environ, SDL_AUDIODRIVER="disk", SDL_DISKAUDIOFILE="/dev/null")
    subprocess.run([os.path.join(ROOT, ".build/release/deskplayer"), os.path.join(ROOT, "assets/demo.mp4"),
                    "--loop", "3", "--frame-log", log, "--geometry", "640x360+0+0"],
                   env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60)
    rows = [(float(r["pts_s"]), float(r["presented_ms"])) for r in csv.DictReader(open(log))]
nominal = 1000 / 30
intervals = [(rows[i][0], rows[i][1] - rows[i - 1][1]) for i in range(1, len(rows))]
seams = [(pts, iv) for pts, iv in intervals if abs(pts % 10) < 1e-6 and pts > 0]
# The first interval includes the audio preroll at start: not a seam matter.
other = [iv for pts, iv in intervals[1:] if not (abs(pts % 10) < 1e-6 and pts > 0)]
print(f"Video loop seam: demo.mp4 x3, {len(rows)} frames presented (nominal interval {nominal:.2f} ms)")
for pts, iv in seams:
    print(f"  seam at {pts:5.2f} s: interval {iv:6.2f} ms (error {iv - nominal:+.2f} ms)")
if other:
    worst = max(other, key=lambda v: abs(v - nominal))
    print(f"  elsewhere (after the first frame): worst interval {worst:.2f} ms (error {worst - nominal:+.2f} ms)")
if "--json" in sys.argv:
    path = sys.argv[sys.argv.index("--json") + 1]
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    worst_other = max(other, key=lambda v: abs(v - nominal)) if other else None
    with open(path, "w") as f:
        json.dump({"video_seams": {"file": "assets/demo.mp4", "passes": 3, "frames_presented": len(rows),
                                   "nominal_interval_ms": round(nominal, 2),
                                   "seams": [{"pts_s": pts, "interval_ms": round(iv, 2), "error_ms": round(iv - nominal, 2)}
                                             for pts, iv in seams],
                                   "worst_other_interval_ms": round(worst_other, 2) if worst_other is not None else None},
                  }, f, indent=2)
