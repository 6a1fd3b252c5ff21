/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef DESKPLAYER_CSDL2_SHIM_H
#define DESKPLAYER_CSDL2_SHIM_H
#include <SDL2/SDL.h>
#include <SDL2/SDL_ttf.h>
#include <SDL2/SDL_syswm.h>

// Macros Swift cannot import.
static const int DP_SDL_WINDOWPOS_CENTERED = SDL_WINDOWPOS_CENTERED;
static const int DP_SDL_WINDOWPOS_UNDEFINED = SDL_WINDOWPOS_UNDEFINED;
static const Uint32 DP_SDL_PIXELFORMAT_ARGB8888 = SDL_PIXELFORMAT_ARGB8888;
static const Uint32 DP_SDL_PIXELFORMAT_IYUV = SDL_PIXELFORMAT_IYUV;
static const Uint32 DP_SDL_PIXELFORMAT_RGB888 = SDL_PIXELFORMAT_RGB888;

// The OpenGL renderer string of the current context (SDL's accelerated
// renderer makes its context current), or NULL without one: tells a real
// GPU from a software rasterizer (llvmpipe, softpipe, swrast).
static inline const char *dp_gl_renderer_string(void) {
    typedef const unsigned char *(*GetString)(unsigned int);
    GetString getString = (GetString)SDL_GL_GetProcAddress("glGetString");
    if (!getString || !SDL_GL_GetCurrentContext()) return NULL;
    return (const char *)getString(0x1F01 /* GL_RENDERER */);
}
static const Uint16 DP_AUDIO_F32SYS = AUDIO_F32SYS;

// Asks X11 to tell the window when it becomes fully covered or visible
// again (VisibilityNotify, which SDL does not select) and lets those X
// events through as SDL_SYSWMEVENT. Returns -1 off X11. Under a
// compositing window manager windows are never reported covered.
static inline int dp_watch_visibility(SDL_Window *window) {
    SDL_SysWMinfo info;
    SDL_VERSION(&info.version);
    if (!SDL_GetWindowWMInfo(window, &info) || info.subsystem != SDL_SYSWM_X11) return -1;
    XWindowAttributes attributes;
    if (!XGetWindowAttributes(info.info.x11.display, info.info.x11.window, &attributes)) return -1;
    XSelectInput(info.info.x11.display, info.info.x11.window, attributes.your_event_mask | VisibilityChangeMask);
    SDL_EventState(SDL_SYSWMEVENT, SDL_ENABLE);
    return 0;
}

// For an SDL_SYSWMEVENT: 1 when X11 says `window` became fully covered, 0
// when it is (partly) visible again, -1 for any other event.
static inline int dp_visibility_change(const SDL_Event *event, SDL_Window *window) {
    if (event->type != SDL_SYSWMEVENT || !event->syswm.msg || event->syswm.msg->subsystem != SDL_SYSWM_X11) return -1;
    const XEvent *x = &event->syswm.msg->msg.x11.event;
    if (x->type != VisibilityNotify) return -1;
    SDL_SysWMinfo info;
    SDL_VERSION(&info.version);
    if (!SDL_GetWindowWMInfo(window, &info) || info.subsystem != SDL_SYSWM_X11
        || info.info.x11.window != x->xvisibility.window) return -1;
    return x->xvisibility.state == VisibilityFullyObscured ? 1 : 0;
}

// Makes `child` a transient of `parent` on X11, or of no window when `parent`
// is NULL. Window managers put a focused fullscreen window in their top layer
// (as EWMH suggests), above always-on-top windows, but stack its transients
// above it: the one way a mini window stays visible over it. Returns -1 when
// the windows are not X11 windows (other video drivers).
static inline int dp_set_transient_for(SDL_Window *child, SDL_Window *parent) {
#if defined(SDL_VIDEO_DRIVER_X11)
    SDL_SysWMinfo c, p;
    SDL_VERSION(&c.version);
    SDL_VERSION(&p.version);
    if (!SDL_GetWindowWMInfo(child, &c) || c.subsystem != SDL_SYSWM_X11) return -1;
    if (parent) {
        if (!SDL_GetWindowWMInfo(parent, &p) || p.subsystem != SDL_SYSWM_X11) return -1;
        XSetTransientForHint(c.info.x11.display, c.info.x11.window, p.info.x11.window);
    } else {
        XDeleteProperty(c.info.x11.display, c.info.x11.window, XA_WM_TRANSIENT_FOR);
    }
    XFlush(c.info.x11.display);
    return 0;
#else
    (void)child; (void)parent;
    return -1;
#endif
}

// The X resource database's text (what `xrdb -query` prints: "Xft.dpi:\t192"
// lines), as the window's X connection read it when it opened; NULL off X11
// or without one.
static inline const char *dp_x_resources(SDL_Window *window) {
#if defined(SDL_VIDEO_DRIVER_X11)
    SDL_SysWMinfo info;
    SDL_VERSION(&info.version);
    if (!SDL_GetWindowWMInfo(window, &info) || info.subsystem != SDL_SYSWM_X11) return NULL;
    return XResourceManagerString(info.info.x11.display);
#else
    (void)window;
    return NULL;
#endif
}

#if defined(SDL_VIDEO_DRIVER_X11)
#include <X11/Xproto.h>
#include <stdio.h>

// mpv's rule: an X error is said on stderr and play goes on (Xlib's default
// handler ends the process). One is expected and not said: SDL wakes its
// waiting event loop with an XSendEvent to the window made last (a Picture
// in Picture window while one is open), on a second X connection of its own
// that nothing reads until SDL_Quit closes it; a wake-up sent as that
// window closed comes back as BadWindow then, after SDL has put back the
// handler it found at SDL_Init. So this one is installed before SDL_Init:
// SDL keeps it as the one to put back, and chains its own to it meanwhile.
static int dp_x_error_handler(Display *display, XErrorEvent *error) {
    if (error->error_code == BadWindow && error->request_code == X_SendEvent) return 0;
    char text[160];
    XGetErrorText(display, error->error_code, text, sizeof text);
    fprintf(stderr, "X error: %s (request %d.%d); going on\n", text, error->request_code, error->minor_code);
    return 0;
}
#endif

// Installs the handler above; call before SDL_Init. Does nothing without X11.
static inline void dp_install_x_error_handler(void) {
#if defined(SDL_VIDEO_DRIVER_X11)
    XSetErrorHandler(dp_x_error_handler);
#endif
}
#endif
