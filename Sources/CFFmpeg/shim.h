#ifndef DESKPLAYER_CFFMPEG_SHIM_H
#define DESKPLAYER_CFFMPEG_SHIM_H
#include <errno.h>
#include <malloc.h>
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libswresample/swresample.h>
#include <libswscale/swscale.h>
#include <libavutil/avutil.h>
#include <libavutil/channel_layout.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
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
static const int64_t DP_AV_NOPTS_VALUE = AV_NOPTS_VALUE;
static const int DP_AV_TIME_BASE = AV_TIME_BASE;

static inline AVChannelLayout dp_channel_layout_stereo(void) {
    AVChannelLayout layout = AV_CHANNEL_LAYOUT_STEREO;
    return layout;
}

// Decode threads free frames into their own malloc arenas, which glibc keeps;
// after a player is closed this gives that memory back to the system.
static inline void dp_release_free_memory(void) { malloc_trim(0); }

static inline void dp_error_string(int code, char *buffer, size_t size) {
    av_strerror(code, buffer, size);
}
#endif
