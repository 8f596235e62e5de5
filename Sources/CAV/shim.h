#ifndef PHOTOSD_CAV_SHIM_H
#define PHOTOSD_CAV_SHIM_H
/* FFmpeg's libraries (Debian's libavformat-dev, libavcodec-dev, libswscale-dev, libavutil-dev):
   containers, decoders and pixel conversion for video poster frames and the AVAsset stand-ins.
   Swift does not call them directly (their structures change between releases and their
   options are macros): the C target CPhotosVideo wraps the few calls PhotosImaging makes, and
   opens the libraries on first use (dlopen). This target gives the headers only, no link. */
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libswscale/swscale.h>
#include <libavutil/display.h>
#endif
