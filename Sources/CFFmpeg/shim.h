/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef DESKPLAYER_CFFMPEG_SHIM_H
#define DESKPLAYER_CFFMPEG_SHIM_H
#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <stdarg.h>
#include <libavformat/avformat.h>
#include <libavdevice/avdevice.h>
#include <libavcodec/avcodec.h>
#include <libswresample/swresample.h>
#include <libswscale/swscale.h>
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersrc.h>
#include <libavfilter/buffersink.h>
#include <libavutil/display.h>
#include <libavutil/avutil.h>
#include <libavutil/channel_layout.h>
#include <libavutil/crc.h>
#include <libavutil/error.h>
#include <libavutil/hwcontext.h>
#include <libavutil/imgutils.h>
#include <libavutil/md5.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>

// Macros Swift cannot import, as functions and constants.
static inline int dp_averror(int e) { return AVERROR(e); }
static const int DP_AVERROR_EOF = AVERROR_EOF;
static const int DP_AVERROR_EAGAIN = AVERROR(EAGAIN);
static const int DP_AVERROR_EXIT = AVERROR_EXIT;
static const int DP_AVERROR_DECODER_NOT_FOUND = AVERROR_DECODER_NOT_FOUND;
static const int DP_AVERROR_INVALIDDATA = AVERROR_INVALIDDATA;
static const int DP_AVERROR_EINVAL = AVERROR(EINVAL);
static const int DP_AVERROR_ENOMEM = AVERROR(ENOMEM);
static const int DP_AVERROR_EFBIG = AVERROR(EFBIG);
static const int DP_AVERROR_ENOSPC = AVERROR(ENOSPC);
static const int64_t DP_AV_NOPTS_VALUE = AV_NOPTS_VALUE;
static const int DP_AV_TIME_BASE = AV_TIME_BASE;
static const int DP_AV_CODEC_FLAG2_FAST = AV_CODEC_FLAG2_FAST;

static inline AVChannelLayout dp_channel_layout_stereo(void) {
    AVChannelLayout layout = AV_CHANNEL_LAYOUT_STEREO;
    return layout;
}

// Decode threads free frames into their own malloc arenas, which glibc keeps;
// after a player is closed this gives that memory back to the system.
static inline void dp_release_free_memory(void) { malloc_trim(0); }

// glibc gives each thread that allocates an arena of its own (up to 8 per
// core), and memory freed in one stays with it: with a decode thread per
// tile and the workers that make the tiles' pictures, four tiles closed
// down to one kept 12 MB more than one tile from the start (debug build);
// with four arenas, 1.5 MB. Two cost 16 tiles twice the late frames.
static inline void dp_limit_malloc_arenas(int count) { mallopt(M_ARENA_MAX, count); }

static inline void dp_error_string(int code, char *buffer, size_t size) {
    av_strerror(code, buffer, size);
}

// FFmpeg's log lines, formatted here (Swift cannot take a va_list in a C
// callback) and handed to `sink`; warnings and errors only.
typedef void (*dp_log_line_fn)(int level, const char *line);
static dp_log_line_fn dp_log_sink = NULL;
static inline void dp_log_callback(void *avcl, int level, const char *fmt, va_list args) {
    (void)avcl;
    if (level > AV_LOG_WARNING || !dp_log_sink) return;
    char line[1024];
    vsnprintf(line, sizeof line, fmt, args);
    dp_log_sink(level, line);
}
static inline void dp_set_log_sink(dp_log_line_fn sink) {
    dp_log_sink = sink;
    av_log_set_callback(dp_log_callback);
}
#endif
