#ifndef DESKPLAYER_CSDL2_SHIM_H
#define DESKPLAYER_CSDL2_SHIM_H
#include <SDL2/SDL.h>
#include <SDL2/SDL_ttf.h>
#include <SDL2/SDL_syswm.h>

// Macros Swift cannot import.
static const int DP_SDL_WINDOWPOS_CENTERED = SDL_WINDOWPOS_CENTERED;
static const int DP_SDL_WINDOWPOS_UNDEFINED = SDL_WINDOWPOS_UNDEFINED;
static const Uint32 DP_SDL_PIXELFORMAT_ARGB8888 = SDL_PIXELFORMAT_ARGB8888;
static const Uint16 DP_AUDIO_F32SYS = AUDIO_F32SYS;

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
#endif
