/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef DESKPLAYER_CV4L2_SHIM_H
#define DESKPLAYER_CV4L2_SHIM_H
#include <stdint.h>
#include <sys/ioctl.h>
#include <linux/videodev2.h>

// ioctl is variadic and the pixel formats are function-like macros: Swift
// imports neither, so the few V4L2 queries that list a camera's modes are here.
static inline int dp_v4l2_querycap(int fd, struct v4l2_capability *cap) { return ioctl(fd, VIDIOC_QUERYCAP, cap); }
static inline int dp_v4l2_enum_fmt(int fd, struct v4l2_fmtdesc *f) { return ioctl(fd, VIDIOC_ENUM_FMT, f); }
static inline int dp_v4l2_enum_framesizes(int fd, struct v4l2_frmsizeenum *s) { return ioctl(fd, VIDIOC_ENUM_FRAMESIZES, s); }
static inline int dp_v4l2_enum_frameintervals(int fd, struct v4l2_frmivalenum *i) { return ioctl(fd, VIDIOC_ENUM_FRAMEINTERVALS, i); }

static const uint32_t DP_V4L2_CAP_VIDEO_CAPTURE = V4L2_CAP_VIDEO_CAPTURE;
static const uint32_t DP_V4L2_CAP_DEVICE_CAPS = V4L2_CAP_DEVICE_CAPS;
static const uint32_t DP_V4L2_PIX_FMT_MJPEG = V4L2_PIX_FMT_MJPEG;
static const uint32_t DP_V4L2_PIX_FMT_JPEG = V4L2_PIX_FMT_JPEG;
static const uint32_t DP_V4L2_PIX_FMT_YUYV = V4L2_PIX_FMT_YUYV;
static const uint32_t DP_V4L2_PIX_FMT_H264 = V4L2_PIX_FMT_H264;
#endif
