#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Wake-ups: voluntary context switches per second of one DeskPlayer
# process, summed over all its threads (/proc/PID/task/*/status), sampled
# over SECONDS seconds after a 4 s start, once paused (--pause) and once
# playing the demo in a loop. A thread that sleeps to poll wakes on every
# sleep; one that waits on a condition wakes only when there is work.
# The main thread's own figure (/proc/PID/status) is shown beside it, and
# the CPU used; mpv in the same states beside DeskPlayer (paused, an idle
# window, playing).
# Usage: bench/wakeups.sh [seconds] [binary]   (from the repository root under xvfb-run; `make bench`)
set -euo pipefail
SECONDS_SAMPLED=${1:-10}
BIN=${2:-.build/release/deskplayer}
FILE=assets/demo.mp4
OUTDIR=${BENCH_OUT:-bench/out}
mkdir -p "$OUTDIR"
export SDL_AUDIODRIVER=${SDL_AUDIODRIVER:-dummy}

snapshot() {  # pid: "tid count" per thread (voluntary switches)
    for f in /proc/"$1"/task/*/status; do
        local tid=${f%/status}; tid=${tid##*/}
        echo "$tid $(awk '/^voluntary_ctxt_switches/ {print $2}' "$f" 2>/dev/null || echo 0)"
    done
}

# Switches between two snapshots, summed over the threads alive at the end
# (a thread that ended meanwhile, such as SDL's audio thread when the sound
# device closes at rest, took its count with it; one that started counts
# from zero).
delta() {  # before-file after-file
    awk 'NR == FNR { a[$1] = $2; next } { d += $2 - ($1 in a ? a[$1] : 0) } END { print d + 0 }' "$1" "$2"
}

measure() {  # name, command...
    local name=$1; shift
    "$@" >/dev/null 2>&1 &
    local pid=$!
    sleep 4
    snapshot "$pid" > "$TMPJSON.before"
    local m0; m0=$(awk '/^voluntary_ctxt_switches/ {print $2}' /proc/"$pid"/status)
    local cpu0; cpu0=$(awk '{print $14 + $15}' /proc/"$pid"/stat)
    sleep "$SECONDS_SAMPLED"
    snapshot "$pid" > "$TMPJSON.after"
    local m1; m1=$(awk '/^voluntary_ctxt_switches/ {print $2}' /proc/"$pid"/status)
    local cpu1; cpu1=$(awk '{print $14 + $15}' /proc/"$pid"/stat)
    kill "$pid"; wait "$pid" 2>/dev/null || true
    local all main cpu
    all=$(echo "scale=1; $(delta "$TMPJSON.before" "$TMPJSON.after") / $SECONDS_SAMPLED" | bc)
    main=$(echo "scale=1; ($m1 - $m0) / $SECONDS_SAMPLED" | bc)
    # Clock ticks (100 a second) of user and system time, as a share of one core.
    cpu=$(echo "scale=2; ($cpu1 - $cpu0) / $SECONDS_SAMPLED" | bc)
    printf '%-22s %8s wake-ups/s (all threads) %8s (main thread) %6s %% of a core\n' "$name" "$all" "$main" "$cpu"
    echo "\"$name\": {\"allThreadsPerSecond\": $all, \"mainThreadPerSecond\": $main, \"cpuPercent\": $cpu}"  >> "$TMPJSON"
}

TMPJSON=$(mktemp)
trap 'rm -f "$TMPJSON" "$TMPJSON.before" "$TMPJSON.after"' EXIT
# Both players with no audio output (SDL's dummy driver, mpv's null one) and
# an X11 window under the same Xvfb: the same work but the decoding and drawing.
MPV=(mpv --no-config --ao=null --vo=x11 --geometry=640x360 --really-quiet)
measure paused "$BIN" "$FILE" --loop=inf --geometry 640x360 --pause
command -v mpv >/dev/null && measure "mpv paused" "${MPV[@]}" --loop=inf --pause "$FILE"
measure idle "$BIN" --idle --geometry 640x360
command -v mpv >/dev/null && measure "mpv idle" "${MPV[@]}" --idle=yes --force-window=yes
measure playing "$BIN" "$FILE" --loop=inf --geometry 640x360
command -v mpv >/dev/null && measure "mpv playing" "${MPV[@]}" --loop=inf "$FILE"
{ echo "{"; paste -sd, "$TMPJSON"; echo "}"; } > "$OUTDIR/wakeups.json"
