#include <sqlite3.h>
#include "CPhotosSQLite.h"

int cphotos_sqlite_stop_counting_memory(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
