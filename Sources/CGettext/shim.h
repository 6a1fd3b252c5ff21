/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef DESKPLAYER_CGETTEXT_SHIM_H
#define DESKPLAYER_CGETTEXT_SHIM_H
// GNU gettext as glibc has it (libintl.h, which Swift's Glibc module leaves
// out): the window's translations. Nothing to link: it is in libc.
#include <libintl.h>
#endif
