// DiagnosisRecord: BeginDiagnosis and FinishDiagnosis of the results store.
#include "cli/diagnosis_record.h"

namespace nasperf {

Result<DiagnosisRecord> DiagnosisRecord::Begin(const CommonOptions& options, const std::string& started_at,
                                               const std::string& target) {
  DiagnosisRecord record;
  if (options.no_store) return record;
  Result<ResultsStore> store = ResultsStore::Open(options.db.empty() ? ResultsStore::DefaultPath() : options.db);
  if (!store.ok()) return store.status();
  record.store_.emplace(std::move(store).value());
  Result<int64_t> id = record.store_->BeginDiagnosis(started_at, options.command_line, target);
  if (!id.ok()) return id.status();
  record.id_ = id.value();
  return record;
}

Status DiagnosisRecord::Finish(const Diagnosis& d) {
  if (!store_) return Status::Ok();
  return store_->FinishDiagnosis(d);
}

}  // namespace nasperf
