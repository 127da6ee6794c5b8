// The results database's schema and its migrations. The schema version lives in
// PRAGMA user_version, nasperf's mark in PRAGMA application_id.
#pragma once

#include "nasperf/status.h"
#include "store/sqlite.h"

namespace nasperf {

inline constexpr int kApplicationId = 0x4E415350;  // "NASP"
inline constexpr int kSchemaVersion = 10;

// The SQL that takes a database from version `from` to `from + 1` (from = 0: create v1).
const char* MigrationSql(int from);

// Checks that `db` is empty or nasperf's, at most kSchemaVersion, without writing to it;
// then sets WAL mode and brings it to kSchemaVersion in one transaction.
// A newer or foreign database is BadInput and left untouched.
Status PrepareSchema(SqliteDb& db);

// Only the checks, for a database opened read-only: its schema version on success.
Result<int64_t> CheckSchema(SqliteDb& db);

}  // namespace nasperf
