#ifndef PHOTOSD_CZLIB_SHIM_H
#define PHOTOSD_CZLIB_SHIM_H
/* zlib (Debian's zlib1g-dev, pkg-config `zlib`): PNG's compressed text chunks (`zTXt`), where
   ImageMagick and others keep EXIF as a "Raw profile type exif". PhotosMetadata calls
   `uncompress` into a bounded buffer. */
#include <zlib.h>
#endif
