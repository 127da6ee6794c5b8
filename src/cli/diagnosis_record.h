// The stored diagnosis dN of one `nasperf diagnose`: its id reserved before the first
// step, so every step's run carries the tag diagnosis=dN, and its document stored at the
// end. Under --no-store, id 0 and nothing is written.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "cli/job_options.h"
#include "model/diagnosis.h"
#include "nasperf/status.h"
#include "store/results_store.h"

namespace nasperf {

class DiagnosisRecord {
 public:
  // Opens the results database (--db, else the default) and reserves dN.
  static Result<DiagnosisRecord> Begin(const CommonOptions& options, const std::string& started_at,
                                       const std::string& target);
  int64_t id() const { return id_; }
  std::string path() const { return store_ ? store_->path() : std::string(); }
  // Stores `d` under the reserved id (d.id must be id()); Ok under --no-store.
  Status Finish(const Diagnosis& d);

 private:
  std::optional<ResultsStore> store_;
  int64_t id_ = 0;
};

}  // namespace nasperf
