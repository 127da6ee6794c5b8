// A job file as data, whatever its format: named jobs, each a list of `run` options as
// text, each setting remembering the file and line it came from so that a bad key or
// value is refused as "FILE:LINE: key 'qd': ...". Three readers fill it (src/jobfile/):
// nasperf's own TOML job files (--job), fio job files (--fio-job) and an Iometer
// configuration's access specification (--iometer FILE --spec NAME). One binding turns
// it into jobs (cli/job_file_jobs): every `run` option is a key of the same name.
#pragma once

#include <string>
#include <vector>

namespace nasperf {

struct JobSetting {
  std::string key;    // a `run` option's name without the dashes: "bs", "qd", "rate-iops", "target"
  std::string value;  // as text, as it would be typed after the option ("" for a flag that is on)
  int line = 0;       // 1-based line in `JobFile::path`
};

struct FileJob {
  std::string name;   // [name] in TOML, [name] in fio, the access spec's name in Iometer
  std::string group;  // jobs of one group run at the same time; one group per file unless it says otherwise
  int line = 0;       // where the job's section starts
  std::vector<JobSetting> settings;  // the global/default section's settings first, then the job's own
  // Where the job as nasperf runs it differs from the peer tool's reading of the same file
  // ("ioengine=libaio requested, io_uring used"): each becomes a note of the job's run.
  std::vector<std::string> notes;
};

struct JobFile {
  std::string path;
  std::string format;  // "nasperf", "fio", "iometer"
  std::vector<FileJob> jobs;
};

}  // namespace nasperf
