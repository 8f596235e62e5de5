// Header-only shims; this file gives the target a source to compile.
#include "CPhotosLinux.h"
