#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Cameras that cannot be had: a FUSE folder (fusepy, Debian's
python3-fusepy, hence the system Python) with two files that anyone may
read and write by their modes: `video0`, whose open fails with EBUSY, as a
V4L2 camera's does while another program streams from it (uvcvideo says
EBUSY when a second program asks for its buffers; FFmpeg's v4l2 input
reports either the same way), and `video1`, whose open fails with EACCES,
as a camera's node does for a user outside the `video` group (root, whom
the tests may run as, passes every mode check).

Usage: busy_camera.py FOLDER   (prints "ready" once mounted; runs until
killed; the caller unmounts with fusermount3 -uz FOLDER)."""
import errno, os, stat, sys, threading, time
from fusepy import FUSE, FuseOSError, Operations


class BusyCamera(Operations):
    def getattr(self, path, fh=None):
        if path == "/":
            return dict(st_mode=stat.S_IFDIR | 0o755, st_nlink=2)
        if path in ("/video0", "/video1"):
            # A plain file: FUSE mounts are nodev, so a device node would say EACCES instead.
            return dict(st_mode=stat.S_IFREG | 0o666, st_nlink=1, st_size=0)
        raise FuseOSError(errno.ENOENT)

    def readdir(self, path, fh):
        return [".", "..", "video0", "video1"]

    def open(self, path, flags):
        raise FuseOSError(errno.EBUSY if path == "/video0" else errno.EACCES)


def main():
    folder = sys.argv[1]
    threading.Thread(target=lambda: FUSE(BusyCamera(), folder, foreground=True, nothreads=True), daemon=True).start()
    deadline = time.monotonic() + 10
    while "video1" not in os.listdir(folder):
        if time.monotonic() > deadline:
            sys.exit("busy_camera: the FUSE folder did not mount")
        time.sleep(0.02)
    print("ready", flush=True)
    threading.Event().wait()


if __name__ == "__main__":
    main()
