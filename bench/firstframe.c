/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Time to first frame, measured from outside the player, the same way for
 * every player: the milliseconds from fork() of the player to the moment the
 * first video frame is on the X screen.
 *
 *   firstframe X Y W H EXPECTED.rgb -- PLAYER ARGS...
 *
 * EXPECTED.rgb holds the W x H pixels (RGB24) the first frame has at X,Y on
 * screen (bench/ttff.sh cuts them out of the decoded frame with ffmpeg). The
 * tool reads that screen area with XGetImage about every millisecond and
 * stops at the first read whose mean absolute difference from EXPECTED is
 * under 12 levels (of 255): a black or blank window, the root pattern and a
 * half-drawn frame do not match. Prints "<ms>" on stdout (or "timeout" after
 * 15 s or when the player exits first; FIRSTFRAME_DEBUG=1 also prints the
 * closest difference seen on stderr), then lets the player exit by itself for up to 5 s (so DeskPlayer can
 * write its --stats-json) and kills it after that.
 * Build: cc -O2 -o firstframe bench/firstframe.c -lX11
 */
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
    if (argc < 8 || strcmp(argv[6], "--") != 0) {
        fprintf(stderr, "usage: firstframe X Y W H EXPECTED.rgb -- PLAYER ARGS...\n");
        return 2;
    }
    int x = atoi(argv[1]), y = atoi(argv[2]), w = atoi(argv[3]), h = atoi(argv[4]);
    unsigned char *expected = malloc((size_t)w * h * 3);
    FILE *f = fopen(argv[5], "rb");
    if (!f || fread(expected, 3, (size_t)w * h, f) != (size_t)w * h) {
        fprintf(stderr, "firstframe: cannot read %d x %d RGB pixels from %s\n", w, h, argv[5]);
        return 2;
    }
    fclose(f);
    Display *dpy = XOpenDisplay(NULL);
    if (!dpy) { fprintf(stderr, "firstframe: no X display\n"); return 2; }
    Window root = DefaultRootWindow(dpy);

    double start = now_ms();
    pid_t child = fork();
    if (child == 0) {
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 1);
        dup2(null, 2);
        execvp(argv[7], argv + 7);
        _exit(127);
    }
    double found = -1, best = 1e9;
    while (now_ms() - start < 15000) {
        XImage *img = XGetImage(dpy, root, x, y, (unsigned)w, (unsigned)h, AllPlanes, ZPixmap);
        if (img) {
            double diff = 0;
            for (int j = 0; j < h; j++)
                for (int i = 0; i < w; i++) {
                    unsigned long p = XGetPixel(img, i, j);
                    const unsigned char *e = expected + ((size_t)j * w + i) * 3;
                    diff += abs((int)((p >> 16) & 255) - e[0]) + abs((int)((p >> 8) & 255) - e[1])
                        + abs((int)(p & 255) - e[2]);
                }
            XDestroyImage(img);
            diff /= w * h * 3.0;
            if (diff < best) best = diff;
            if (diff < 12) { found = now_ms() - start; break; }
        }
        int status;
        if (waitpid(child, &status, WNOHANG) == child) { child = 0; break; }
        usleep(1000);
    }
    if (found >= 0) printf("%.1f\n", found); else printf("timeout\n");
    if (getenv("FIRSTFRAME_DEBUG")) fprintf(stderr, "firstframe: closest mean difference %.1f\n", best);
    fflush(stdout);
    for (int i = 0; child > 0 && i < 500; i++) {
        int status;
        if (waitpid(child, &status, WNOHANG) == child) { child = 0; break; }
        usleep(10000);
    }
    if (child > 0) { kill(child, SIGKILL); waitpid(child, NULL, 0); }
    XCloseDisplay(dpy);
    return found >= 0 ? 0 : 1;
}
