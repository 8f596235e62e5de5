#ifndef PHOTOSD_CLCMS2_SHIM_H
#define PHOTOSD_CLCMS2_SHIM_H
/* Little CMS 2 (Debian's liblcms2-dev, pkg-config `lcms2`): colour transforms from embedded ICC
   profiles to sRGB. Only the C target CPhotosVips calls it; this target exists for the compiler
   and linker flags. */
#include <lcms2.h>
#endif
