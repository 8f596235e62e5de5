#ifndef PHOTOSD_CLIBRAW_SHIM_H
#define PHOTOSD_CLIBRAW_SHIM_H
/* LibRaw (Debian's libraw-dev, pkg-config `libraw_r`, the thread-safe build): camera RAW files, their
   embedded previews and their sensor data. Only the C target CPhotosRaw calls it, after opening it
   on first use (dlopen); this target gives the headers only, no link. */
#include <libraw/libraw.h>
#endif
