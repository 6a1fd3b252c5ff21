#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A camera that another program holds: a FUSE folder (fusepy, Debian's
python3-fusepy, hence the system Python) with one file, `video0`, which
anyone may read and write but whose open fails with EBUSY, as a V4L2
camera's does while another program streams from it (uvcvideo says EBUSY
when a second program asks for its buffers; FFmpeg's v4l2 input reports
either the same way).

Usage: busy_camera.py FOLDER   (prints "ready" once mounted; runs until
killed; the caller unmounts with fusermount3 -uz FOLDER)."""
import errno, os, stat, sys, threading, time
from fusepy import FUSE, FuseOSError, Operations


class BusyCamera(Operations):
    def getattr(self, path, fh=None):
        if path == "/":
            return dict(st_mode=stat.S_IFDIR | 0o755, st_nlink=2)
        if path == "/video0":
            # A plain file: FUSE mounts are nodev, so a device node would say EACCES instead.
            return dict(st_mode=stat.S_IFREG | 0o666, st_nlink=1, st_size=0)
        raise FuseOSError(errno.ENOENT)

    def readdir(self, path, fh):
        return [".", "..", "video0"]

    def open(self, path, flags):
        raise FuseOSError(errno.EBUSY)


def main():
    folder = sys.argv[1]
    threading.Thread(target=lambda: FUSE(BusyCamera(), folder, foreground=True, nothreads=True), daemon=True).start()
    deadline = time.monotonic() + 10
    while "video0" not in os.listdir(folder):
        if time.monotonic() > deadline:
            sys.exit("busy_camera: the FUSE folder did not mount")
        time.sleep(0.02)
    print("ready", flush=True)
    threading.Event().wait()


if __name__ == "__main__":
    main()
