#ifndef PHOTOSD_CVIPS_SHIM_H
#define PHOTOSD_CVIPS_SHIM_H
/* libvips (Debian's libvips-dev, pkg-config `vips`). Swift does not call it directly: its entry
   points are variadic (`vips_thumbnail(path, &out, width, "height", h, NULL)`), which Swift cannot
   call, so the C target CPhotosVips wraps the few calls PhotosImaging makes in plain functions.
   This target exists for the compiler and linker flags pkg-config gives. */
#include <vips/vips.h>
#endif
