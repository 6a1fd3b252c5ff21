#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# A shell controller for mpv's JSON IPC in the style of the popular socat
# ones (mpvc and its kin): one `printf | socat` per request, every argument
# sent as a JSON string, values read back with get_property_string and cut
# out of the reply with sed. It runs 43 everyday commands, each followed by
# reading its effect back over the socket, and prints one line per command
# and a tally. The same script is run against mpv to tell a quirk of this
# client from a gap in the player.
#
# Usage: mpv_socat_client.sh SOCKET FILE_A FILE_B
# FILE_A and FILE_B: two files of 10 s, queued as [A, B], A playing, paused.
set -u
SOCKET=$1
FILE_A=$2
FILE_B=$3
passed=0
failed=0

# The request line for a command: each word a JSON string, as these clients send it.
request() {
    line='{ "command": ['
    sep=''
    for word in "$@"; do
        escaped=$(printf '%s' "$word" | sed 's/\\/\\\\/g; s/"/\\"/g')
        line="$line$sep\"$escaped\""
        sep=', '
    done
    printf '%s] }\n' "$line"
}

# Sends a command; prints the reply line (events left out).
mpv_cmd() {
    request "$@" | socat -t 2 - "UNIX-CONNECT:$SOCKET" 2>/dev/null | grep -v '"event"' | head -n 1
}

# The error field of a command's reply ("success" when it worked).
mpv_do() {
    mpv_cmd "$@" | sed -n 's/.*"error": *"\([^"]*\)".*/\1/p'
}

# A property as text, as get_property_string gives it ("" when unavailable).
getprop() {
    mpv_cmd get_property_string "$1" | sed -n 's/.*"data": *"\(\([^"\\]\|\\.\)*\)".*/\1/p'
}

setprop() { mpv_do set_property_string "$1" "$2"; }

# Passes when `test_expr VALUE` holds for the property within 3 s (the
# player applies some commands in the background, as mpv does).
expect() {
    name=$1 property=$2 test_expr=$3
    value=''
    tries=0
    while [ $tries -lt 30 ]; do
        value=$(getprop "$property")
        if eval "$test_expr"; then
            passed=$((passed + 1))
            echo "ok   $name"
            return
        fi
        tries=$((tries + 1))
        sleep 0.1
    done
    failed=$((failed + 1))
    echo "FAIL $name ($property is '$value')"
}

# A command whose reply must be success, then its effect.
run() {
    name=$1 property=$2 test_expr=$3
    shift 3
    answer=$(mpv_do "$@")
    if [ "$answer" != success ]; then
        failed=$((failed + 1))
        echo "FAIL $name ($* answered '$answer')"
        return
    fi
    expect "$name" "$property" "$test_expr"
}

is() { [ "$value" = "$1" ]; }
# A number within 0.3 of an expected one (seeks land on a frame).
near() { awk -v v="$value" -v e="$1" 'BEGIN { exit !(v != "" && v - e < 0.3 && e - v < 0.3) }'; }
basename_is() { [ "$(basename "$value")" = "$(basename "$1")" ]; }

# Waits for the player to answer with A open.
tries=0
until [ "$(getprop filename)" = "$(basename "$FILE_A")" ] || [ $tries -ge 100 ]; do tries=$((tries + 1)); sleep 0.1; done

# Transport
run "pause" pause 'is yes' set_property pause yes
run "resume" pause 'is no' set_property pause no
run "toggle pause" pause 'is yes' cycle pause
run "seek absolute" time-pos 'near 5' seek 5 absolute
run "seek forward" time-pos 'near 7' seek 2
run "seek back" time-pos 'near 4' seek -3 relative
run "seek absolute percent" time-pos 'near 5' seek 50 absolute-percent
run "seek relative percent" time-pos 'near 6' seek 10 relative-percent
run "seek flags as two words" time-pos 'near 2' seek 2 absolute exact
run "seek flags joined" time-pos 'near 3' seek 3 absolute+exact
run "seek percent keyframes" time-pos 'near 8' seek 80 absolute-percent+keyframes
run "set time-pos" time-pos 'near 4' set time-pos 4
run "set percent-pos" percent-pos 'near 60' set percent-pos 60

# Sound: the volume is bounded by volume-max, as these clients do.
expect "volume-max for the bound" volume-max 'awk -v v="$value" "BEGIN { exit !(v >= 100) }"'
run "set volume" volume 'near 50' set_property_string volume 50
run "volume down" volume 'near 40' add volume -10
run "volume up" volume 'near 45' add volume 5
run "volume multiply" volume 'near 90' multiply volume 2
run "mute" mute 'is yes' set mute yes
run "unmute" mute 'is no' cycle mute

# Speed
run "set speed" speed 'near 1.5' set_property_string speed 1.5
run "speed multiply" speed 'near 3' multiply speed 2
run "speed down" speed 'near 2' add speed -1
run "speed reset" speed 'near 1' set speed 1.0

# Loops
run "loop file" loop-file 'is inf' set loop-file inf
run "cycle-values loop-file" loop-file 'is no' cycle-values loop-file yes no
run "loop playlist" loop-playlist 'is inf' set loop-playlist inf
run "loop playlist off" loop-playlist 'is no' set loop-playlist no

# Playlist
run "playlist next" playlist-pos 'is 1' playlist-next
run "playlist prev" playlist-pos 'is 0' playlist-prev
run "set playlist-pos" playlist-pos 'is 1' set_property_string playlist-pos 1
run "set playlist-pos-1" playlist-pos 'is 0' set playlist-pos-1 1
run "append" playlist-count 'is 3' loadfile "$FILE_B" append
run "playlist move" playlist/0/filename 'basename_is "$FILE_B"' playlist-move 2 0
run "playlist remove" playlist-count 'is 2' playlist-remove 0
run "playlist clear" playlist-count 'is 1' playlist-clear
run "shuffle" shuffle 'is yes' cycle shuffle
run "unshuffle" shuffle 'is no' set shuffle no
run "load replacing" filename 'basename_is "$FILE_B"' loadfile "$FILE_B" replace

# The status line these clients print: expand-text of the properties they read.
status=$(mpv_cmd expand-text '${filename/no-ext} ${playlist-pos-1}/${playlist-count} ${=pause}' | sed -n 's/.*"data": *"\([^"]*\)".*/\1/p')
want="$(basename "$FILE_B" | sed 's/\.[^.]*$//') 1/1 yes"
if [ "$status" = "$want" ]; then passed=$((passed + 1)); echo "ok   status line"; else
    failed=$((failed + 1)); echo "FAIL status line ('$status', not '$want')"; fi

# A-B loop points, as the timestamps these clients bookmark.
run "ab-loop-a" ab-loop-a 'near 1' set ab-loop-a 1
run "ab-loop-a off" ab-loop-a 'is no' set ab-loop-a no

run "stop" idle-active 'is yes' stop

echo "tally: $passed of $((passed + failed)) work"
[ $failed -eq 0 ]
