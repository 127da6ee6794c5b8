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

// What a failed SQLite call means for the database at `path`, in one line that says what
// SQLite said: read-only, disk full, damaged (truncated), not a database, cannot open,
// locked. `code` is the (extended) result code, kept in err(); `detail` is
// sqlite3_errmsg's text. A file that is not a database at all is BadInput (the user
// named the wrong file); the rest are Io: a good database must never be called foreign.
Status SqliteFailure(int code, const std::string& path, const std::string& detail);

// How SqliteDb::Open opens a file.
enum class OpenMode {
  kCreate,     // read and write, creating the file when missing
  kReadWrite,  // read and write an existing file
  kQueryOnly,  // read and write access, but every write is refused (PRAGMA query_only)
  kReadOnly,   // read only: works on a read-only file or file system
  kImmutable,  // read only, without locks or -shm file: only when no process writes it
};

class SqliteDb {
 public:
  SqliteDb() = default;
  SqliteDb(SqliteDb&& other) noexcept;
  SqliteDb& operator=(SqliteDb&& other) noexcept;
  ~SqliteDb();

  // Opens the database file at `path`.
  static Result<SqliteDb> Open(const std::string& path, OpenMode mode);
  static Result<SqliteDb> Open(const std::string& path, bool create) {
    return Open(path, create ? OpenMode::kCreate : OpenMode::kReadWrite);
  }

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

// Runs `body` inside BEGIN IMMEDIATE ... COMMIT, rolling back when it fails or throws
// (an exception on its way to main must not leave half a command stored).
template <typename Body>
Status InTransaction(SqliteDb& db, Body&& body) {
  if (Status s = db.Exec("BEGIN IMMEDIATE"); !s.ok()) return s;
  struct RollbackUnlessDone {
    SqliteDb& db;
    bool done = false;
    ~RollbackUnlessDone() {
      if (!done) db.Exec("ROLLBACK");
    }
  } guard{db};
  Status result = body();
  if (!result.ok()) return result;
  if (Status s = db.Exec("COMMIT"); !s.ok()) return s;
  guard.done = true;
  return Status::Ok();
}

}  // namespace nasperf
