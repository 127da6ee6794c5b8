// RunSession.
#include "suite/run_session.h"

#include "suite/cold_reads.h"
#include "suite/run_record.h"

namespace nasperf {

SessionRun RunSession::Run(const SessionJob& sj) {
  SessionRun out;
  Target& target = runner_.target();
  RunResult begun = NewRunRecord(sj.name, tags_, target, sj.job, inventory_);
  begun.measured_on = runner_.measured_on();
  begun.test = sj.test;
  if (out.status = sink_.Begin(begun); !out.status.ok()) return out;
  out.began = true;
  ColdReads cold_reads(target, drop_caches_);
  RunHooks hooks;
  hooks.on_sample = [this](const Sample& s) { progress_.Show(s); };
  hooks.before_repeat = sj.before_repeat;
  bool facts_added = false;  // by a rank of many, to its own run before it went to rank 0
  if (sj.cold_reads) {
    hooks.before_clock = cold_reads.HookFor(sj.job);
    hooks.add_session_facts = [&](RunResult& run) {
      cold_reads.AddTo(run);
      facts_added = true;
    };
  }
  RunOutcome outcome = runner_.Run(sj.job, RunLabels{sj.name, tags_}, hooks);
  progress_.Clear();
  if (sj.cold_reads && !facts_added) cold_reads.AddTo(outcome.result);
  if (!sj.test.empty()) outcome.result.test = sj.test;
  if (sj.finish) sj.finish(outcome.result);
  out.status = outcome.status;
  out.stored = sink_.Finish(outcome.result, begun);
  out.result = std::move(outcome.result);
  return out;
}

RunOutcome LocalRunner::Run(const JobSpec& job, const RunLabels& labels, const RunHooks& hooks) {
  RunHooks with_engines = hooks;
  if (make_engine_) with_engines.make_engine = make_engine_;
  return RunRepeated(job, target_, labels, with_engines);
}

}  // namespace nasperf
