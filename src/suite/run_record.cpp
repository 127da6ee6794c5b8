// NewRunRecord.
#include "suite/run_record.h"

namespace nasperf {

RunResult NewRunRecord(const std::string& name, const std::map<std::string, std::string>& tags, const Target& target,
                       const JobSpec& job, const nlohmann::ordered_json& inventory) {
  RunResult run;
  run.name = name;
  run.tags = tags;
  run.target = target.description();
  run.job = job;
  run.engine = EngineFor(job, target);
  run.inventory = inventory;
  run.protocol = target.protocol_facts();  // so that a run killed outright is labelled too
  return run;
}

}  // namespace nasperf
