/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef DESKPLAYER_CFONTCONFIG_SHIM_H
#define DESKPLAYER_CFONTCONFIG_SHIM_H
// fontconfig: which installed font has a glyph the main font lacks.
#include <fontconfig/fontconfig.h>
#endif
