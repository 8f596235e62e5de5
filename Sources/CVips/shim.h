#ifndef PHOTOSD_CVIPS_SHIM_H
#define PHOTOSD_CVIPS_SHIM_H
/* libvips (Debian's libvips-dev). Swift does not call it directly: its entry points are variadic
   (`vips_thumbnail(path, &out, width, "height", h, NULL)`), which Swift cannot call, so the C
   target CPhotosVips wraps the few calls PhotosImaging makes in plain functions, and opens libvips
   on the first image (dlopen). This target gives the headers only, no link to libvips: its
   pkg-config name is GLib's, for the include paths the vips headers need (which links GLib alone). */
#include <vips/vips.h>
#endif
