// `run --fio-job FILE` and `run --iometer FILE.icf --spec NAME`: another tool's job file
// read (bounded) into a JobFile by src/jobfile/, then given to run as its options.
// TO BE JOINED with run --job's binding (cli/job_file_jobs, helper "jobfile"): until it is
// merged, ApplySpecJob is a thin translation of a file of ONE job into run's options, and
// a file of several jobs is refused in one line.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "cli/job_options.h"
#include "model/job_file.h"
#include "nasperf/status.h"

namespace nasperf {

struct SpecFileOptions {
  std::string fio_job;  // --fio-job FILE
  std::string iometer;  // --iometer FILE.icf
  std::string spec;     // --spec NAME: the access specification of --iometer's file
  bool any() const { return !fio_job.empty() || !iometer.empty() || !spec.empty(); }
};
void AddSpecFileOptions(CLI::App& app, SpecFileOptions& options);

// The file the options name, read and parsed; BadInput in one line naming the file (and
// line and key) otherwise. Precondition: options.any().
Result<JobFile> ReadSpecJobFile(const SpecFileOptions& options);

// The file's one job as if its settings were typed as options: a key is a `run` option
// without its dashes ("target" the positional TARGET). What the command line gave itself
// wins over the file. An unknown key or a bad value: "FILE:LINE: key 'qd': ...".
// `name`: set to the job's name when empty.
Status ApplySpecJob(const JobFile& file, JobInput& input, std::string& name);

}  // namespace nasperf
