# SPDX-License-Identifier: GPL-3.0-or-later
"""python-mpv-jsonipc starting the player itself (start_mpv=True), as its
users do: it passes --idle=yes --input-ipc-server=... --input-terminal=no
--terminal=no and turns keyword arguments into mpv options (keep_open=True is
--keep-open=yes, pause=True is --pause=yes, quiet=True is --quiet=yes), and
gives up ("MPV process retry limit reached") when the player exits on them.

Usage: mpv_jsonipc_start.py PLAYER SOCKET FILE [NAME=VALUE...]
(NAME=VALUE: more options, given to the library as keyword arguments.)
Prints one line per check and a tally; exits 1 when a check failed.
"""
import sys
import time

from python_mpv_jsonipc import MPV

player, socket_path, media = sys.argv[1:4]
extra = dict(a.split("=", 1) for a in sys.argv[4:])
results = []


def check(condition, what):
    results.append(bool(condition))
    print(("ok   " if condition else "FAIL ") + what, flush=True)


def wait_until(predicate, seconds=10):
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            if predicate():
                return True
        except Exception:
            pass
        time.sleep(0.05)
    return False


try:
    # discard_output: the player's output goes nowhere, so it never holds the caller's pipe open.
    mpv = MPV(start_mpv=True, mpv_location=player, ipc_socket=socket_path, discard_output=True, keep_open=True,
              pause=True, quiet=True, **extra)
except Exception as error:  # the library's own error, said as it says it
    check(False, "started with the library's options: %s" % error)
    sys.exit(1)
check(True, "started with the library's options")
mpv.play(media)
check(wait_until(lambda: mpv.command("get_property", "filename") == media.rsplit("/", 1)[-1]), "play() opened the file")
check(mpv.pause is True, "pause=True became --pause=yes")
check(isinstance(mpv.volume_max, (int, float)) and mpv.volume_max >= 100, "volume-max bounds the volume")
mpv.volume = 30
check(mpv.volume == 30, "volume set and read back")
mpv.terminate()
print("tally: %d of %d work" % (sum(results), len(results)), flush=True)
sys.exit(0 if all(results) else 1)
