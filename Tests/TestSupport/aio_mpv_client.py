# SPDX-License-Identifier: GPL-3.0-or-later
"""Drives a player through aio-mpv-jsonipc, an asyncio client library for
mpv's JSON IPC on PyPI written by others, the way it is meant to be used: the
library starts the player itself (its own --input-ipc-server path, the media,
then the arguments given: the ones such libraries pass, --idle and
--really-quiet among them), sends commands with their arguments as given, and
reads the events off the socket. Each command's effect is read back.

Usage: aio_mpv_client.py PLAYER FILE_A FILE_B [ARGUMENT...]
PLAYER: the binary to start (deskplayer, or mpv to compare). FILE_A plays,
paused; FILE_B is loaded later. Prints one line per check and a tally;
exits 1 when a check failed.
"""
import asyncio
import os
import sys

from aio_mpv_jsonipc.MPV import MPV

player, file_a, file_b = sys.argv[1:4]
extra = sys.argv[4:]
results = []


def check(condition, what):
    results.append(bool(condition))
    print(("ok   " if condition else "FAIL ") + what, flush=True)


async def main():
    # Made inside the running loop: the library schedules its readers on get_event_loop().
    mpv = MPV(media=file_a, mpv_path=player,
              mpv_args=["--no-audio-display", "--idle", "--really-quiet", "--msg-level=ipc=v", "--force-window",
                        "--no-config", "--pause"] + extra)
    await mpv.start()
    if mpv.reader is None:
        check(False, "the library connected to the player it started")
        return
    events = []

    async def collect():
        async for event in mpv.get_events():
            events.append(event)

    collector = asyncio.ensure_future(collect())
    await asyncio.sleep(0.2)

    async def get(name):
        reply = await mpv.send(["get_property", name])
        return reply.get("data") if reply.get("error") == "success" else None

    async def until(predicate, seconds=10):
        for _ in range(int(seconds * 10)):
            if await predicate():
                return True
            await asyncio.sleep(0.1)
        return False

    def names():
        return [e.get("event") for e in events]

    def follows(*sequence):
        """The events include `sequence` in this order (others may come between)."""
        it = iter(names())
        return all(any(n == wanted for n in it) for wanted in sequence)

    async def get_len():
        return await get("playlist-count")

    check(mpv.process.returncode is None, "the player took the library's options (--idle --really-quiet ...) and runs")
    reply = await mpv.send(["get_property", "mpv-version"])
    check(reply.get("error") == "success", "mpv-version answers: %r" % reply.get("data"))
    check(await until(lambda: _eq(get("filename"), os.path.basename(file_a))), "the file given opened")

    events.clear()
    reply = await mpv.send(["seek", 2, "absolute", "exact"])
    check(reply.get("error") == "success", "seek with its flags as separate arguments")
    check(await until(lambda: _near(get("time-pos"), 2)), "the seek landed at 2 s")
    check(await until(lambda: _true(follows("seek", "playback-restart"))), "events seek, then playback-restart: %s" % names())

    events.clear()
    reply = await mpv.send(["loadfile", file_b, "replace"])
    check(reply.get("error") == "success", "loadfile replace")
    check(await until(lambda: _true(follows("end-file", "start-file", "file-loaded", "playback-restart"))),
          "events end-file, start-file, file-loaded, playback-restart: %s" % names())
    check(await get("filename") == os.path.basename(file_b), "the new file plays")

    await mpv.send(["loadfile", file_a, "append"])
    reply = await mpv.send(["playlist-remove", 1])
    check(reply.get("error") == "success" and await get_len() == 1, "playlist-remove")
    await mpv.send(["loadfile", file_a, "append"])
    await mpv.send(["loadfile", file_a, "append"])
    reply = await mpv.send(["playlist-clear"])
    check(reply.get("error") == "success" and await get_len() == 1, "playlist-clear leaves the current entry")

    await mpv.send(["cycle-values", "loop-file", "yes", "no"])
    check(await get("loop-file") == "inf", "cycle-values loop-file yes no: yes is inf")
    await mpv.send(["cycle-values", "loop-file", "yes", "no"])
    check(await get("loop-file") is False, "and the next cycle turns it off")
    reply = await mpv.send(["set_property", "loop", "inf"])
    check(reply.get("error") == "success" and await get("loop-file") == "inf", "the loop property is loop-file")
    reply = await mpv.send(["cycle", "shuffle"])
    check(reply.get("error") == "success" and await get("shuffle") is True, "cycle shuffle")

    events.clear()
    reply = await mpv.send(["stop"])
    check(reply.get("error") == "success", "stop")
    check(await until(lambda: _true(follows("end-file", "idle"))), "events end-file, then idle: %s" % names())
    check(await get("idle-active") is True, "idle-active after stop")

    collector.cancel()
    try:
        # mpv may close the socket before its reply, which the library then waits for forever.
        await asyncio.wait_for(mpv.send(["quit"]), 3)
    except asyncio.TimeoutError:
        pass
    try:
        await asyncio.wait_for(mpv.process.wait(), 10)
    except asyncio.TimeoutError:
        mpv.process.kill()
    check(mpv.process.returncode is not None, "quit ends the player")


async def _eq(value, expected):
    return (await value) == expected


async def _near(value, expected):
    v = await value
    return isinstance(v, (int, float)) and abs(v - expected) < 0.3


async def _true(value):
    return value


asyncio.run(main())
print("tally: %d of %d work" % (sum(results), len(results)), flush=True)
sys.exit(0 if results and all(results) else 1)
