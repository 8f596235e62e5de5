// The target's one C++ file. LibRaw hands its EXIF callback the file as a C++ stream
// (LibRaw_abstract_datastream), positioned at the tag's value; its virtual read is the only way to
// take the value. A virtual call goes through the object's own table, built inside the LibRaw that
// was opened with dlopen, so nothing of LibRaw (or of the C++ library) is linked here.
#include "exif_tags.h"

#include "CPhotosRaw.h"

#include <libraw/libraw_datastream.h>
#include <stddef.h>

namespace {
/// Where LibRaw met a tag, from the high bits it adds to the tag number: an IFD of a TIFF structure
/// (the IFD's index plus one, shifted by 20), Panasonic RW2's main IFD (0x3), or an EXIF IFD (0).
bool in_tiff_directory(int tag) { return (tag >> 20) != 0 || (tag >> 16) == 0x3; }
bool in_exif_directory(int tag) { return (tag >> 16) == 0; }

/// The buffer for an ASCII tag of interest, or NULL.
char *target_of(cphotos_raw_metadata *metadata, int tag, size_t *size) {
    const int number = tag & 0xFFFF;
    if (number == 0x010F && in_tiff_directory(tag)) {  // Make
        *size = sizeof metadata->exif_make;
        return metadata->exif_make;
    }
    if (number == 0x0110 && in_tiff_directory(tag)) {  // Model
        *size = sizeof metadata->exif_model;
        return metadata->exif_model;
    }
    if (number == 0x9011 && in_exif_directory(tag)) {  // OffsetTimeOriginal
        *size = sizeof metadata->offset_time;
        return metadata->offset_time;
    }
    return NULL;
}
}  // namespace

extern "C" void cphotos_raw_exif_tag(
    void *context, int tag, int type, int len, unsigned int byte_order, void *stream, long long base) {
    (void)base;
    cphotos_raw_metadata *metadata = static_cast<cphotos_raw_metadata *>(context);
    LibRaw_abstract_datastream *input = static_cast<LibRaw_abstract_datastream *>(stream);
    // Orientation (SHORT), the first met: LibRaw's flip ignores it where it reads the TIFF only for tags (MRW).
    if ((tag & 0xFFFF) == 0x0112 && in_tiff_directory(tag) && type == 3 && len == 1
        && metadata->exif_orientation == 0) {
        unsigned char bytes[2];
        if (input->read(bytes, 1, 2) != 2) { return; }
        int value = byte_order == 0x4D4D ? bytes[0] << 8 | bytes[1] : bytes[1] << 8 | bytes[0];
        metadata->exif_orientation = value >= 1 && value <= 8 ? value : 0;
        return;
    }
    size_t size = 0;
    char *target = target_of(metadata, tag, &size);
    // ASCII only, and the first occurrence: the main TIFF's IFD0 comes before embedded previews' IFDs.
    if (target == NULL || target[0] != '\0' || type != 2 || len <= 0) { return; }
    size_t count = (size_t)len < size - 1 ? (size_t)len : size - 1;
    if (input->read(target, 1, count) != (int)count) {
        target[0] = '\0';
        return;
    }
    target[count] = '\0';
}
