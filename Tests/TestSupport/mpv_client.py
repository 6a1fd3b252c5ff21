# SPDX-License-Identifier: GPL-3.0-or-later
"""Drives DeskPlayer through python-mpv-jsonipc, a PyPI client library for
mpv's JSON IPC written by others: it attaches to the socket as it would to
mpv's (start_mpv=False), asks property-list and command-list first, builds
its methods from them, and then sets, reads, seeks and observes.

Usage: mpv_client.py SOCKET FILE_A FILE_B
Prints one line per check; exits 1 on the first failed one.
"""
import sys
import threading
import time

from python_mpv_jsonipc import MPV, MPVError

socket_path, file_a, file_b = sys.argv[1:4]


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what, flush=True)
    if not condition:
        sys.exit(1)


def wait_until(predicate, seconds=10):
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            if predicate():
                return True
        except MPVError:
            pass
        time.sleep(0.05)
    return False


mpv = MPV(start_mpv=False, ipc_socket=socket_path)
try:
    check("time_pos" in mpv.properties and "pause" in mpv.properties, "property-list read by the library")
    check(callable(getattr(mpv, "seek", None)) and callable(getattr(mpv, "frame_step", None)),
          "seek and frame_step made from command-list")

    check(wait_until(lambda: mpv.duration == 10), "duration of the file, once open")
    check(mpv.pause is True, "starts paused (--pause)")

    # Observing: the library calls back on each change.
    changes = []
    seen = threading.Event()

    @mpv.property_observer("pause")
    def on_pause(name, value):
        changes.append(value)
        if value is False:
            seen.set()

    mpv.pause = False
    check(seen.wait(5), "observer told of the unpause")
    check(mpv.pause is False, "pause set and read back")
    mpv.pause = True

    mpv.volume = 35
    check(mpv.volume == 35, "volume set and read back")
    mpv.mute = True
    check(mpv.mute is True, "mute set and read back")

    # Methods the library generated from command-list.
    mpv.seek(4, "absolute")
    check(abs(mpv.time_pos - 4) < 0.01, "seek absolute through the generated method: %s" % mpv.time_pos)
    mpv.seek(1.5)
    check(abs(mpv.time_pos - 5.5) < 0.01, "relative seek: %s" % mpv.time_pos)
    mpv.time_pos = 2
    check(abs(mpv.time_pos - 2) < 0.01, "time-pos set: %s" % mpv.time_pos)
    mpv.frame_step()
    check(wait_until(lambda: mpv.time_pos > 2.0), "frame_step shows the next frame: %s" % mpv.time_pos)
    check(mpv.pause is True, "frame_step leaves it paused")
    mpv.cycle("mute")
    check(mpv.mute is False, "cycle mute")
    mpv.add("volume", 5)
    check(mpv.volume == 40, "add volume 5")
    mpv.keypress("m")
    check(mpv.mute is True, "keypress m means the m key: mute")

    mpv.loadfile(file_b, "append")
    check(mpv.playlist_count == 2, "loadfile append")
    mpv.playlist_next()
    check(wait_until(lambda: mpv.path == file_b), "playlist_next plays the next file")
    check(mpv.command("get_property_string", "pause") == "yes", "get_property_string gives yes/no")
    check(mpv.command("get_property", "playlist/count") == 2, "a sub-property")

    # Errors come back as the library's exceptions, and the connection stays usable.
    try:
        mpv.command("set_property", "volume", 250)
        check(False, "an out-of-range volume is refused")
    except MPVError as error:
        check("error accessing property" in str(error), "an out-of-range volume is refused: %s" % error)
    check(mpv.volume == 40, "and nothing changed")
    try:
        mpv.command("get_property", "no-such-property")
        check(False, "an unknown property is an error")
    except MPVError as error:
        check("property not found" in str(error), "an unknown property: %s" % error)
    mpv.command("script-message", "hello", "world")
    check(mpv.pause is True, "script-message is accepted and ignored")
    print("all checks passed", flush=True)
finally:
    mpv.terminate()
