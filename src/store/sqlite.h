// A thin RAII layer over SQLite: a connection, prepared statements with typed binds,
// and Status instead of result codes. Not thread-safe: one connection per thread.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <string>

#include "nasperf/status.h"

namespace nasperf {

class SqliteStatement {
 public:
  SqliteStatement() = default;
  SqliteStatement(sqlite3* db, sqlite3_stmt* stmt) : db_(db), stmt_(stmt) {}
  SqliteStatement(SqliteStatement&& other) noexcept;
  SqliteStatement& operator=(SqliteStatement&& other) noexcept;
  ~SqliteStatement();

  // Binds are 1-based like SQLite's.
  SqliteStatement& Bind(int index, int64_t value);
  SqliteStatement& Bind(int index, double value);
  SqliteStatement& Bind(int index, const std::string& text);
  SqliteStatement& BindBlob(int index, const std::string& bytes);
  SqliteStatement& BindNull(int index);

  // Result<true> when a row is ready, Result<false> when done.
  Result<bool> Step();
  // Steps to completion (for statements that return no rows).
  Status Run();
  void Reset();

  int64_t Int(int column) const { return sqlite3_column_int64(stmt_, column); }
  double Real(int column) const { return sqlite3_column_double(stmt_, column); }
  std::string Text(int column) const;
  std::string Blob(int column) const;
  bool IsNull(int column) const { return sqlite3_column_type(stmt_, column) == SQLITE_NULL; }

 private:
  sqlite3* db_ = nullptr;
  sqlite3_stmt* stmt_ = nullptr;
};

class SqliteDb {
 public:
  SqliteDb() = default;
  SqliteDb(SqliteDb&& other) noexcept;
  SqliteDb& operator=(SqliteDb&& other) noexcept;
  ~SqliteDb();

  // Opens (creating when `create` is true) the database file at `path`.
  static Result<SqliteDb> Open(const std::string& path, bool create);

  Status Exec(const std::string& sql);
  Result<SqliteStatement> Prepare(const std::string& sql);
  // The single integer a query like "PRAGMA user_version" returns.
  Result<int64_t> QueryInt(const std::string& sql);
  int64_t LastInsertId() const { return sqlite3_last_insert_rowid(db_); }
  int Changes() const { return sqlite3_changes(db_); }

  const std::string& path() const { return path_; }

 private:
  sqlite3* db_ = nullptr;
  std::string path_;
};

// Whether a failed Status came from another connection holding a lock that the busy
// timeout could not wait out (SQLite does not wait in every case). Statuses made here
// carry the SQLite result code in err().
inline bool IsBusy(const Status& s) {
  return !s.ok() && ((s.err() & 0xFF) == SQLITE_BUSY || (s.err() & 0xFF) == SQLITE_LOCKED);
}

// Runs `body` inside BEGIN IMMEDIATE ... COMMIT, rolling back when it fails.
template <typename Body>
Status InTransaction(SqliteDb& db, Body&& body) {
  if (Status s = db.Exec("BEGIN IMMEDIATE"); !s.ok()) return s;
  Status result = body();
  if (!result.ok()) {
    db.Exec("ROLLBACK");
    return result;
  }
  if (Status s = db.Exec("COMMIT"); !s.ok()) {
    db.Exec("ROLLBACK");
    return s;
  }
  return Status::Ok();
}

}  // namespace nasperf
