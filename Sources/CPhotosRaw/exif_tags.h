#ifndef PHOTOSD_CPHOTOSRAW_EXIF_TAGS_H
#define PHOTOSD_CPHOTOSRAW_EXIF_TAGS_H
/* LibRaw's EXIF callback (libraw_set_exifparser_handler), defined in exif_tags.cpp: it copies the few
   tags cphotos_raw_metadata_read wants and LibRaw does not keep as written into the
   cphotos_raw_metadata that `context` points to. */
#ifdef __cplusplus
extern "C" {
#endif
void cphotos_raw_exif_tag(
    void *context, int tag, int type, int len, unsigned int byte_order, void *stream, long long base);
#ifdef __cplusplus
}
#endif
#endif
