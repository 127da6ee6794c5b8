// ResultsStore: opening the database, invocations, and edits of stored runs (tags,
// removal). Writing runs is in run_writer.cpp, reading them in run_reader.cpp.
#include "store/results_store.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>

#include "store/run_owner.h"
#include "store/schema.h"

namespace nasperf {

std::string ResultsStore::DefaultPath() {
  if (const char* env = std::getenv("NASPERF_DB"); env && *env) return env;
  if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg) return std::string(xdg) + "/nasperf/results.db";
  const char* home = std::getenv("HOME");
  return std::string(home && *home ? home : ".") + "/.local/share/nasperf/results.db";
}

Result<ResultsStore> ResultsStore::OpenReadOnly(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
    return Status::BadInput("--db: " + path + " is not a regular file");
  // Where the file and its directory may be written, a connection that may write but is
  // told not to (query_only): as the last one to close it removes the -wal and -shm files,
  // which a SQLITE_OPEN_READONLY connection would leave next to the database.
  const std::filesystem::path dir = std::filesystem::path(path).parent_path();
  const bool writable =
      ::access(path.c_str(), W_OK) == 0 && ::access(dir.empty() ? "." : dir.c_str(), W_OK) == 0;
  Result<SqliteDb> db = SqliteDb::Open(path, writable ? OpenMode::kQueryOnly : OpenMode::kReadOnly);
  if (!db.ok()) return db.status();
  Result<int64_t> version = CheckSchema(db.value());
  // Reading a WAL database needs its -shm file, which a read-only directory cannot hold.
  // With no -wal file no process has it open for writing, so it can be read as it lies.
  const int code = version.ok() ? 0 : version.status().err() & 0xFF;
  if ((code == SQLITE_READONLY || code == SQLITE_CANTOPEN) && ::access((path + "-wal").c_str(), F_OK) != 0) {
    db = SqliteDb::Open(path, OpenMode::kImmutable);
    if (!db.ok()) return db.status();
    version = CheckSchema(db.value());
  }
  if (!version.ok()) return version.status();
  // An older schema is brought up to date where the file can be written.
  if (version.value() < kSchemaVersion) return Open(path);
  return ResultsStore(std::move(db).value());
}

Result<ResultsStore> ResultsStore::Open(const std::string& path) {
  std::filesystem::path dir = std::filesystem::path(path).parent_path();
  std::error_code ec;
  if (!dir.empty() && !std::filesystem::exists(dir, ec)) {
    std::filesystem::create_directories(dir, ec);
    if (ec) return Status::BadInput("--db: cannot create directory " + dir.string() + ": " + ec.message());
  }
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
    return Status::BadInput("--db: " + path + " is not a regular file");
  Result<SqliteDb> db = SqliteDb::Open(path, OpenMode::kCreate);
  if (!db.ok()) return db.status();
  ResultsStore store(std::move(db).value());
  if (Status s = PrepareSchema(store.db_); !s.ok()) return s;
  return store;
}

Result<int64_t> ResultsStore::BeginInvocation(const std::string& command, const std::string& command_line,
                                              const std::string& started_at) {
  Result<SqliteStatement> s =
      db_.Prepare("INSERT INTO invocations (command, started_at, command_line) VALUES (?, ?, ?)");
  if (!s.ok()) return s.status();
  s.value().Bind(1, command).Bind(2, started_at).Bind(3, command_line);
  if (Status r = s.value().Run(); !r.ok()) return r;
  return db_.LastInsertId();
}

Status ResultsStore::SetInvocationSummary(int64_t invocation_id, const nlohmann::ordered_json& summary) {
  Result<SqliteStatement> s = db_.Prepare("UPDATE invocations SET summary_json = ? WHERE id = ?");
  if (!s.ok()) return s.status();
  s.value().Bind(1, summary.dump()).Bind(2, invocation_id);
  return s.value().Run();
}

Result<std::vector<InvocationRecord>> ResultsStore::ListInvocations(const std::string& command, int64_t id) {
  std::string sql = "SELECT id, command, started_at, command_line, summary_json, "
                    "(SELECT count(*) FROM runs WHERE runs.invocation_id = invocations.id) FROM invocations WHERE 1";
  if (!command.empty()) sql += " AND command = ?";
  if (id) sql += " AND id = " + std::to_string(id);
  sql += " ORDER BY started_at DESC, id DESC";
  Result<SqliteStatement> s = db_.Prepare(sql);
  if (!s.ok()) return s.status();
  if (!command.empty()) s.value().Bind(1, command);
  std::vector<InvocationRecord> out;
  while (true) {
    Result<bool> more = s.value().Step();
    if (!more.ok()) return more.status();
    if (!more.value()) break;
    InvocationRecord r;
    r.id = s.value().Int(0);
    r.command = s.value().Text(1);
    r.started_at = s.value().Text(2);
    r.command_line = s.value().Text(3);
    r.summary = nlohmann::ordered_json::parse(s.value().Text(4), nullptr, false);
    if (r.summary.is_discarded()) r.summary = nlohmann::ordered_json::object();
    r.run_count = s.value().Int(5);
    out.push_back(std::move(r));
  }
  return out;
}

Status ResultsStore::SetTag(int64_t id, const std::string& key, const std::string& value) {
  if (Result<RunResult> r = Load(id); !r.ok()) return r.status();
  Result<SqliteStatement> s = db_.Prepare("INSERT OR REPLACE INTO tags (run_id, key, value) VALUES (?, ?, ?)");
  if (!s.ok()) return s.status();
  s.value().Bind(1, id).Bind(2, key).Bind(3, value);
  return s.value().Run();
}

Status ResultsStore::CheckRemovable(int64_t id, bool force) {
  Result<SqliteStatement> s = db_.Prepare("SELECT owner_host, owner_pid, owner_start FROM runs WHERE id = ?");
  if (!s.ok()) return s.status();
  s.value().Bind(1, id);
  Result<bool> row = s.value().Step();
  if (!row.ok()) return row.status();
  if (!row.value()) return Status::BadInput("no run with id " + std::to_string(id) + " in " + path());
  if (force || s.value().IsNull(1)) return Status::Ok();
  RunOwner owner{s.value().Text(0), s.value().Int(1), s.value().Text(2)};
  const std::string who = "run " + std::to_string(id) + " is still being measured by nasperf (pid " +
                          std::to_string(owner.pid) + " on " + owner.host + ")";
  switch (CheckOwner(owner)) {
    case OwnerState::kGone: return Status::Ok();
    case OwnerState::kAlive: return Status::BadInput(who + "; nothing removed: let it finish or stop it first");
    case OwnerState::kElsewhere:
      return Status::BadInput(who + "; nothing removed: remove it on that host, or add --force if it is no longer "
                                    "running there");
  }
  return Status::Ok();
}

Status ResultsStore::Remove(int64_t id, bool force) {
  return InTransaction(db_, [&]() -> Status {
    // Checked inside the write lock: a run cannot begin or end between check and delete.
    if (Status s = CheckRemovable(id, force); !s.ok()) return s;
    Result<SqliteStatement> s = db_.Prepare("DELETE FROM runs WHERE id = ?");
    if (!s.ok()) return s.status();
    s.value().Bind(1, id);
    return s.value().Run();
  });
}


}  // namespace nasperf
