#ifndef PHOTOSD_CPHOTOSSQLITE_H
#define PHOTOSD_CPHOTOSSQLITE_H

/// Turns off SQLite's count of the memory it holds (sqlite3_config with SQLITE_CONFIG_MEMSTATUS, a
/// variadic call Swift cannot make): with it on, each of SQLite's allocations takes a mutex shared by
/// every connection of the process. Takes effect only before SQLite is first initialized (the
/// first connection opened); SQLITE_OK then, SQLITE_MISUSE after.
int cphotos_sqlite_stop_counting_memory(void);
#endif
