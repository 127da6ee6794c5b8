// SqliteDb and SqliteStatement.
#include "store/sqlite.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <utility>

namespace nasperf {
namespace {

// For a file that starts like an SQLite database: " (truncated: N of the M bytes its
// header counts)" when it is shorter than its header says, else "".
std::string TruncationNote(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return "";
  unsigned char h[100] = {};
  const size_t got = std::fread(h, 1, sizeof h, f);
  std::fclose(f);
  struct stat st {};
  if (got < 32 || std::string(reinterpret_cast<char*>(h), 16) != std::string("SQLite format 3\0", 16) ||
      ::stat(path.c_str(), &st) != 0)
    return "";
  uint64_t page_bytes = (uint64_t{h[16]} << 8) | h[17];
  if (page_bytes == 1) page_bytes = 65536;
  const uint64_t pages = (uint64_t{h[28]} << 24) | (uint64_t{h[29]} << 16) | (uint64_t{h[30]} << 8) | h[31];
  // The header's page count is only kept up to date when these two counters agree.
  const bool count_valid = got >= 96 && std::equal(h + 24, h + 28, h + 92);
  const uint64_t expected = page_bytes * pages;
  if (count_valid && expected > static_cast<uint64_t>(st.st_size))
    return " (truncated: " + std::to_string(st.st_size) + " of the " + std::to_string(expected) +
           " bytes its header counts)";
  if (static_cast<uint64_t>(st.st_size) < page_bytes)
    return " (truncated: " + std::to_string(st.st_size) + " bytes, less than one " + std::to_string(page_bytes) +
           "-byte page)";
  return "";
}

bool LooksLikeSqlite(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return false;
  char magic[16] = {};
  const size_t got = std::fread(magic, 1, sizeof magic, f);
  std::fclose(f);
  return got == sizeof magic && std::string(magic, 16) == std::string("SQLite format 3\0", 16);
}

std::string PathOf(sqlite3* db) {
  const char* name = db ? sqlite3_db_filename(db, "main") : nullptr;
  return name && *name ? name : "(unknown file)";
}

Status SqliteError(sqlite3* db) {
  if (!db) return SqliteFailure(SQLITE_NOMEM, "(not opened)", "out of memory");
  return SqliteFailure(sqlite3_extended_errcode(db), PathOf(db), sqlite3_errmsg(db));
}

}  // namespace

Status SqliteFailure(int code, const std::string& path, const std::string& detail) {
  const std::string db = "results database " + path;
  const std::string said = " (SQLite: " + detail + ")";
  switch (code & 0xFF) {
    case SQLITE_READONLY:
      return Status::Io(db + " is read-only (the file, its directory or its file system): nothing can be stored"
                        " there; give another --db" + said, code);
    case SQLITE_FULL:
      return Status::Io(db + ": the disk is full; what was stored before is intact, free some space" + said, code);
    case SQLITE_CORRUPT:
      return Status::Io(db + " is damaged" + TruncationNote(path) +
                        "; keep a copy of it (sqlite3's .recover may save its runs) and give another --db" + said,
                        code);
    case SQLITE_NOTADB:
      // A file that starts like a database but is not readable as one is damaged, not foreign.
      if (LooksLikeSqlite(path))
        return Status::Io(db + " is damaged" + TruncationNote(path) + "; keep a copy of it and give another --db" +
                          said, code);
      return Status::BadInput(db + " is not an SQLite database; give another --db" + said);
    case SQLITE_CANTOPEN:
      return Status::Io(db + " cannot be opened: check that it and its directory exist and may be read (and"
                        " written, to store)" + said, code);
    case SQLITE_PERM:
    case SQLITE_AUTH:
      return Status::Io(db + ": permission denied" + said, code);
    case SQLITE_IOERR:
      return Status::Io(db + ": I/O error" + TruncationNote(path) + said, code);
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return Status::Io(db + " is locked by another process longer than nasperf waits" + said, code);
    case SQLITE_NOMEM:
      return Status::Io(db + ": out of memory" + said, code);
    default:
      return Status::Io(db + ": " + detail, code);
  }
}

SqliteStatement::SqliteStatement(SqliteStatement&& other) noexcept
    : db_(other.db_), stmt_(std::exchange(other.stmt_, nullptr)) {}

SqliteStatement& SqliteStatement::operator=(SqliteStatement&& other) noexcept {
  if (this != &other) {
    sqlite3_finalize(stmt_);
    db_ = other.db_;
    stmt_ = std::exchange(other.stmt_, nullptr);
  }
  return *this;
}

SqliteStatement::~SqliteStatement() { sqlite3_finalize(stmt_); }

SqliteStatement& SqliteStatement::Bind(int index, int64_t value) {
  sqlite3_bind_int64(stmt_, index, value);
  return *this;
}
SqliteStatement& SqliteStatement::Bind(int index, double value) {
  sqlite3_bind_double(stmt_, index, value);
  return *this;
}
SqliteStatement& SqliteStatement::Bind(int index, const std::string& text) {
  sqlite3_bind_text(stmt_, index, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
  return *this;
}
SqliteStatement& SqliteStatement::BindBlob(int index, const std::string& bytes) {
  sqlite3_bind_blob(stmt_, index, bytes.data(), static_cast<int>(bytes.size()), SQLITE_TRANSIENT);
  return *this;
}
SqliteStatement& SqliteStatement::BindNull(int index) {
  sqlite3_bind_null(stmt_, index);
  return *this;
}

Result<bool> SqliteStatement::Step() {
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  return SqliteError(db_);
}

Status SqliteStatement::Run() {
  while (true) {
    Result<bool> row = Step();
    if (!row.ok()) return row.status();
    if (!row.value()) return Status::Ok();
  }
}

void SqliteStatement::Reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

std::string SqliteStatement::Text(int column) const {
  const unsigned char* text = sqlite3_column_text(stmt_, column);
  return text ? std::string(reinterpret_cast<const char*>(text), sqlite3_column_bytes(stmt_, column)) : std::string();
}

std::string SqliteStatement::Blob(int column) const {
  const void* blob = sqlite3_column_blob(stmt_, column);
  return blob ? std::string(static_cast<const char*>(blob), sqlite3_column_bytes(stmt_, column)) : std::string();
}

SqliteDb::SqliteDb(SqliteDb&& other) noexcept : db_(std::exchange(other.db_, nullptr)), path_(std::move(other.path_)) {}

SqliteDb& SqliteDb::operator=(SqliteDb&& other) noexcept {
  if (this != &other) {
    sqlite3_close_v2(db_);
    db_ = std::exchange(other.db_, nullptr);
    path_ = std::move(other.path_);
  }
  return *this;
}

SqliteDb::~SqliteDb() { sqlite3_close_v2(db_); }

Result<SqliteDb> SqliteDb::Open(const std::string& path, OpenMode mode) {
  SqliteDb db;
  db.path_ = path;
  const bool read_only = mode == OpenMode::kReadOnly || mode == OpenMode::kImmutable;
  int flags = read_only ? SQLITE_OPEN_READONLY
                            : SQLITE_OPEN_READWRITE | (mode == OpenMode::kCreate ? SQLITE_OPEN_CREATE : 0);
  std::string name = path;
  if (mode == OpenMode::kImmutable) {
    // A URI: the path's own '%', '?' and '#' must not be read as URI syntax.
    name = "file:";
    for (char c : path) {
      if (c == '%' || c == '?' || c == '#' || static_cast<unsigned char>(c) < 0x20) {
        char hex[4];
        std::snprintf(hex, sizeof hex, "%%%02X", static_cast<unsigned char>(c));
        name += hex;
      } else {
        name += c;
      }
    }
    name += "?immutable=1";
    flags |= SQLITE_OPEN_URI;
  }
  if (int rc = sqlite3_open_v2(name.c_str(), &db.db_, flags, nullptr); rc != SQLITE_OK)
    return SqliteFailure(db.db_ ? sqlite3_extended_errcode(db.db_) : rc, path,
                         db.db_ ? sqlite3_errmsg(db.db_) : "cannot open");
  // Extended codes tell a read-only directory from a read-only file, a short read from EIO.
  sqlite3_extended_result_codes(db.db_, 1);
  if (mode == OpenMode::kQueryOnly) {
    if (Status s = db.Exec("PRAGMA query_only = ON"); !s.ok()) return s;
  }
  // Other nasperf processes may be writing: wait for them rather than fail. Setting the
  // timeout touches only this connection, never the file.
  sqlite3_busy_timeout(db.db_, 30000);
  return db;
}

Status SqliteDb::Exec(const std::string& sql) {
  char* message = nullptr;
  if (int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message); rc != SQLITE_OK) {
    std::string text = message ? message : sqlite3_errstr(rc);
    sqlite3_free(message);
    return SqliteFailure(rc, path_, text);
  }
  return Status::Ok();
}

Result<SqliteStatement> SqliteDb::Prepare(const std::string& sql) {
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) return SqliteError(db_);
  return SqliteStatement(db_, stmt);
}

Result<int64_t> SqliteDb::QueryInt(const std::string& sql) {
  Result<SqliteStatement> stmt = Prepare(sql);
  if (!stmt.ok()) return stmt.status();
  Result<bool> row = stmt.value().Step();
  if (!row.ok()) return row.status();
  return row.value() ? stmt.value().Int(0) : 0;
}

}  // namespace nasperf
