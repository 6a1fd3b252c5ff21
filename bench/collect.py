#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Merges the figures each benchmark wrote to bench/out/*.json into one file,
bench/results.json, with the commit and date they were measured at, so runs
can be compared between commits (`git diff bench/results.json`, or
`git show OLD:bench/results.json`). The last step of `make bench`.

Usage: bench/collect.py [--out bench/results.json] [--from bench/out]
"""
import datetime, json, os, platform, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The order of the sections in results.json (others follow by name).
ORDER = ["playback", "ttff", "tiles", "compare", "seams", "video_seams", "stream_seams", "video_cases", "composition", "streams",
         "speed", "stretchers", "scan", "live_metrics", "thumbnails", "audio_outage", "wakeups", "soak"]


def arg(name, default):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def git(*args):
    try:
        return subprocess.run(["git", "-C", ROOT] + list(args), capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def tool_version(cmd):
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=10).stdout
        return out.splitlines()[0].strip() if out else None
    except (OSError, subprocess.SubprocessError):
        return None


def main():
    source = arg("--from", os.path.join(ROOT, "bench/out"))
    out = arg("--out", os.path.join(ROOT, "bench/results.json"))
    sections, measured = {}, {}
    for name in sorted(os.listdir(source)) if os.path.isdir(source) else []:
        if not name.endswith(".json") or name == "results.json":
            continue
        path = os.path.join(source, name)
        with open(path) as f:
            try:
                figures = json.load(f)
            except json.JSONDecodeError as error:
                print(f"collect: {name}: {error}; left out", file=sys.stderr)
                continue
        for figures_of in figures.values():  # series stay in bench/out; results.json keeps the figures
            if isinstance(figures_of, dict):
                figures_of.pop("samples", None)
        sections.update(figures)
        when = datetime.datetime.fromtimestamp(os.path.getmtime(path), datetime.timezone.utc).replace(microsecond=0)
        measured.update({key: when.isoformat() for key in figures})
    if not sections:
        print(f"collect: no figures in {source}", file=sys.stderr)
        return 1
    dirty = git("status", "--porcelain", "--untracked-files=no")
    results = {
        "commit": git("rev-parse", "HEAD"),
        "commit_subject": git("log", "-1", "--format=%s"),
        "uncommitted_changes": bool(dirty) if dirty is not None else None,
        "date": datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0).isoformat(),
        "measured_at": {key: measured[key] for key in ORDER + sorted(measured) if key in measured},
        "machine": {"cpus": os.cpu_count(), "system": platform.platform(),
                    "ffmpeg": tool_version(["ffmpeg", "-version"]), "mpv": tool_version(["mpv", "--version"])},
    }
    for key in ORDER + sorted(k for k in sections if k not in ORDER):
        if key in sections:
            results[key] = sections[key]
    with open(out + ".tmp", "w") as f:
        json.dump(results, f, indent=2)
        f.write("\n")
    os.replace(out + ".tmp", out)
    print(f"Figures of {len(sections)} benchmarks ({', '.join(k for k in results if k in sections)}) "
          f"written to {os.path.relpath(out, ROOT)} for {(results['commit'] or '?')[:10]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
