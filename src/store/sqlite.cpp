// SqliteDb and SqliteStatement.
#include "store/sqlite.h"

#include <utility>

namespace nasperf {
namespace {

Status SqliteError(sqlite3* db, const std::string& what) {
  return Status::Io("results database: " + what + ": " + (db ? sqlite3_errmsg(db) : "out of memory"),
                    db ? sqlite3_extended_errcode(db) : SQLITE_NOMEM);
}

}  // namespace

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
  return SqliteError(db_, "step");
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

Result<SqliteDb> SqliteDb::Open(const std::string& path, bool create) {
  SqliteDb db;
  db.path_ = path;
  int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);
  if (sqlite3_open_v2(path.c_str(), &db.db_, flags, nullptr) != SQLITE_OK)
    return Status::BadInput("results database " + path + ": " + (db.db_ ? sqlite3_errmsg(db.db_) : "cannot open"));
  // Other nasperf processes may be writing: wait for them rather than fail. Setting the
  // timeout touches only this connection, never the file.
  sqlite3_busy_timeout(db.db_, 30000);
  return db;
}

Status SqliteDb::Exec(const std::string& sql) {
  char* message = nullptr;
  if (int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message); rc != SQLITE_OK) {
    std::string text = message ? message : "error";
    sqlite3_free(message);
    return Status::Io("results database " + path_ + ": " + text, rc);
  }
  return Status::Ok();
}

Result<SqliteStatement> SqliteDb::Prepare(const std::string& sql) {
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) return SqliteError(db_, "prepare");
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
