// SPDX-License-Identifier: GPL-3.0-or-later
// A scene for measuring a recording's A/V offset: on every whole second of
// CLOCK_MONOTONIC it turns an X display's root window white for 200 ms and
// plays a 50 ms beep (1 kHz) into a PulseAudio sink, both aimed at the same
// instant. The picture is set at the second (XSync: the server has it).
// The sound is written in 10 ms blocks; each block's samples are placed by
// the time they will be heard, now plus the stream's latency as the server
// reports it, so the beep starts at the second whatever the buffering.
// Usage: flashbeep DISPLAY SINK SECONDS
#include <X11/Xlib.h>
#include <math.h>
#include <pthread.h>
#include <pulse/error.h>
#include <pulse/simple.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define RATE 48000
#define BLOCK (RATE / 100)

static double seconds;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void sleep_until(double when) {
    struct timespec t = {(time_t)when, (long)((when - (time_t)when) * 1e9)};
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL) != 0) {}
}

static void *flash(void *name) {
    Display *d = XOpenDisplay(name);
    if (!d) { fprintf(stderr, "flashbeep: cannot open display %s\n", (char *)name); exit(1); }
    Window root = DefaultRootWindow(d);
    unsigned long white = WhitePixel(d, DefaultScreen(d)), black = BlackPixel(d, DefaultScreen(d));
    double end = now() + seconds;
    for (double second = floor(now()) + 1; second < end; second += 1) {
        sleep_until(second);
        XSetWindowBackground(d, root, white);
        XClearWindow(d, root);
        XSync(d, False);
        sleep_until(second + 0.2);
        XSetWindowBackground(d, root, black);
        XClearWindow(d, root);
        XSync(d, False);
    }
    XCloseDisplay(d);
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: flashbeep DISPLAY SINK SECONDS\n"); return 2; }
    seconds = atof(argv[3]);
    pa_sample_spec spec = {.format = PA_SAMPLE_S16LE, .rate = RATE, .channels = 1};
    // A 60 ms buffer: a late wake-up on a busy machine does not run it dry.
    pa_buffer_attr attr = {.maxlength = (uint32_t)-1, .tlength = RATE * 2 * 60 / 1000, .prebuf = (uint32_t)-1,
                           .minreq = (uint32_t)-1, .fragsize = (uint32_t)-1};
    int error = 0;
    pa_simple *s = pa_simple_new(NULL, "flashbeep", PA_STREAM_PLAYBACK, argv[2], "beep", &spec, NULL, &attr, &error);
    if (!s) { fprintf(stderr, "flashbeep: %s\n", pa_strerror(error)); return 1; }
    pthread_t video;
    pthread_create(&video, NULL, flash, argv[1]);
    double end = now() + seconds + 0.5;
    short block[BLOCK];
    while (now() < end) {
        pa_usec_t latency = pa_simple_get_latency(s, &error);
        double heard = now() + (latency == (pa_usec_t)-1 ? 0 : latency / 1e6);
        for (int i = 0; i < BLOCK; i++) {
            double t = heard + (double)i / RATE, phase = t - floor(t);
            block[i] = phase < 0.05 ? (short)(20000 * sin(2 * M_PI * 1000 * phase)) : 0;
        }
        if (pa_simple_write(s, block, sizeof block, &error) < 0) { fprintf(stderr, "flashbeep: %s\n", pa_strerror(error)); break; }
    }
    pa_simple_drain(s, &error);
    pa_simple_free(s);
    pthread_join(video, NULL);
    return 0;
}
