// ResultsStore: diagnoses — the id reserved when `diagnose` begins, the document
// (model/diagnosis_json.h) stored when it ends, and reading them back.
#include <nlohmann/json.hpp>

#include "model/diagnosis_json.h"
#include "store/results_store.h"

namespace nasperf {
namespace {

constexpr const char* kDiagnosisColumns =
    "SELECT id, started_at, command_line, target, document, partial FROM diagnoses";

std::string Dn(int64_t id) {
  std::string out = "d";
  out += std::to_string(id);
  return out;
}

}  // namespace

Result<int64_t> ResultsStore::BeginDiagnosis(const std::string& started_at, const std::string& command_line,
                                             const std::string& target) {
  Result<SqliteStatement> s =
      db_.Prepare("INSERT INTO diagnoses (started_at, command_line, target, partial) VALUES (?, ?, ?, 1)");
  if (!s.ok()) return s.status();
  s.value().Bind(1, started_at).Bind(2, command_line).Bind(3, target);
  if (Status r = s.value().Run(); !r.ok()) return r;
  return db_.LastInsertId();
}

Status ResultsStore::FinishDiagnosis(const Diagnosis& d) {
  Result<SqliteStatement> s = db_.Prepare("UPDATE diagnoses SET document = ?, partial = ? WHERE id = ?");
  if (!s.ok()) return s.status();
  s.value().Bind(1, DiagnosisToJson(d).dump()).Bind(2, static_cast<int64_t>(d.partial)).Bind(3, d.id);
  if (Status r = s.value().Run(); !r.ok()) return r;
  if (db_.Changes() == 0) return Status::BadInput("no diagnosis " + Dn(d.id) + " in " + path() + " to finish");
  return Status::Ok();
}

// One row of kDiagnosisColumns. The row's id wins over the document's (the document was
// written for that row); a row without a document is a diagnosis that never finished.
Result<Diagnosis> ResultsStore::ReadDiagnosis(SqliteStatement& row) {
  const int64_t id = row.Int(0);
  Diagnosis d;
  if (!row.IsNull(4)) {
    nlohmann::json doc = nlohmann::json::parse(row.Text(4), nullptr, false);
    if (doc.is_discarded())
      return Status::BadInput("diagnosis " + Dn(id) + " in " + path() + ": its stored document is not JSON");
    Result<Diagnosis> parsed = DiagnosisFromJson(doc);
    if (!parsed.ok())
      return Status::BadInput("diagnosis " + Dn(id) + " in " + path() + ": " + parsed.status().message());
    d = std::move(parsed).value();
  } else {
    d.partial = true;
    d.error = "the diagnosis ended before it stored its findings";
  }
  d.id = id;
  if (d.started_at.empty()) d.started_at = row.Text(1);
  if (d.command_line.empty()) d.command_line = row.Text(2);
  if (d.evidence.target.empty()) d.evidence.target = row.Text(3);
  d.partial = d.partial || row.Int(5) != 0;
  return d;
}

Result<Diagnosis> ResultsStore::LoadDiagnosis(int64_t id) {
  Result<SqliteStatement> s = db_.Prepare(std::string(kDiagnosisColumns) + " WHERE id = ?");
  if (!s.ok()) return s.status();
  s.value().Bind(1, id);
  Result<bool> row = s.value().Step();
  if (!row.ok()) return row.status();
  if (!row.value()) return Status::BadInput("no diagnosis " + Dn(id) + " in " + path());
  return ReadDiagnosis(s.value());
}

Result<std::vector<Diagnosis>> ResultsStore::ListDiagnoses() {
  Result<SqliteStatement> s = db_.Prepare(std::string(kDiagnosisColumns) + " ORDER BY started_at DESC, id DESC");
  if (!s.ok()) return s.status();
  std::vector<Diagnosis> out;
  while (true) {
    Result<bool> more = s.value().Step();
    if (!more.ok()) return more.status();
    if (!more.value()) break;
    Result<Diagnosis> d = ReadDiagnosis(s.value());
    if (!d.ok()) return d.status();
    out.push_back(std::move(d).value());
  }
  return out;
}

}  // namespace nasperf
