#ifndef PHOTOSD_CLCMS2_SHIM_H
#define PHOTOSD_CLCMS2_SHIM_H
/* Little CMS 2 (Debian's liblcms2-dev): colour transforms from embedded ICC profiles to sRGB.
   Only the C target CPhotosVips calls it, through the library it opens with libvips on the first
   image (dlopen); this target gives the headers only, no link. */
#include <lcms2.h>
#endif
