/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef DESKPLAYER_CLIBASS_SHIM_H
#define DESKPLAYER_CLIBASS_SHIM_H
// libass renders ASS/SSA subtitles (and every text subtitle FFmpeg turns into ASS).
#include <ass/ass.h>
#include <stdarg.h>

// libass's default message callback prints its font-matching chatter to
// stderr; a bad subtitle is reported by the player in one line instead.
static inline void dp_ass_drop_message(int level, const char *fmt, va_list args, void *data) {
    (void)level; (void)fmt; (void)args; (void)data;
}
static inline void dp_ass_quiet(ASS_Library *library) {
    ass_set_message_cb(library, dp_ass_drop_message, NULL);
}
#endif
