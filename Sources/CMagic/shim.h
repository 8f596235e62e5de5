#ifndef PHOTOSD_CMAGIC_SHIM_H
#define PHOTOSD_CMAGIC_SHIM_H
#include <magic.h>
#endif
