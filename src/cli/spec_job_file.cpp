// Reading --fio-job and --iometer files and their thin binding to run; see spec_job_file.h.
#include "cli/spec_job_file.h"

#include <sys/stat.h>

#include "import/bounded_read.h"
#include "jobfile/fio_job_file.h"
#include "jobfile/iometer_spec.h"
#include "jobfile/spec_text.h"

namespace nasperf {

void AddSpecFileOptions(CLI::App& app, SpecFileOptions& options) {
  app.add_option("--fio-job", options.fio_job,
                 "run a fio job file (its common keys: rw, bs, bssplit, iodepth, numjobs, size, runtime, rate ...)");
  app.add_option("--iometer", options.iometer, "run an access specification of an Iometer configuration (.icf)");
  app.add_option("--spec", options.spec, "the access specification of --iometer's file to run, by name");
}

Result<JobFile> ReadSpecJobFile(const SpecFileOptions& options) {
  if (!options.fio_job.empty() && !options.iometer.empty())
    return Status::BadInput("--fio-job and --iometer: give one job file, not both");
  if (!options.spec.empty() && options.iometer.empty())
    return Status::BadInput("--spec names an access specification of --iometer FILE.icf, which is not given");
  const std::string& path = options.fio_job.empty() ? options.iometer : options.fio_job;
  // Said here in a job file's words; ReadBoundedFile still bounds what it reads.
  if (struct stat st{};
      ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && static_cast<uint64_t>(st.st_size) > kMaxSpecFileBytes)
    return Status::BadInput(path + ": " + std::to_string(st.st_size) + " bytes, more than the " +
                            std::to_string(kMaxSpecFileBytes >> 20) + " MiB a job file may be");
  Result<std::string> text = ReadBoundedFile(path, kMaxSpecFileBytes);
  if (!text.ok()) return Status::BadInput(path + ": " + text.status().message());
  if (!options.fio_job.empty()) return ParseFioJobFile(text.value(), path);
  if (options.spec.empty()) {
    Result<std::vector<std::string>> names = IometerSpecNames(text.value(), path);
    if (!names.ok()) return names.status();
    std::string list;
    for (const std::string& n : names.value()) list += (list.empty() ? "'" : ", '") + n + "'";
    return Status::BadInput("--iometer " + path + " needs --spec NAME; the file has " + (list.empty() ? "none" : list));
  }
  return ParseIometerSpec(text.value(), path, options.spec);
}

Status ApplySpecJob(const JobFile& file, JobInput& input, std::string& name) {
  if (file.jobs.size() != 1)
    return Status::BadInput(file.path + ": holds " + std::to_string(file.jobs.size()) +
                            " jobs; run takes a file of one job until groups of jobs come with run --job");
  const FileJob& job = file.jobs[0];
  for (const JobSetting& s : job.settings) {
    if (s.key == "target") {
      if (input.target == ".") input.target = s.value;  // a TARGET typed on the command line wins
      continue;
    }
    const std::string option_name = "--" + s.key;
    const JobOption* option = FindJobOption(option_name);
    if (!option) return SpecError(file.path, s.line, "key '" + s.key + "': unknown option of run");
    // The command line wins, also with an option that undoes this one (--buffered, --direct).
    if (input.given(option_name) || (option_name == "--direct" && input.given("--buffered"))) continue;
    JobSpec scratch;
    if (Status parsed = option->parse(s.value, scratch); !parsed.ok())
      return SpecError(file.path, s.line, "key '" + s.key + "': " + parsed.message());
    input.Give(option_name, s.value);
  }
  if (name.empty()) name = job.name;
  input.file_notes.insert(input.file_notes.end(), job.notes.begin(), job.notes.end());
  return Status::Ok();
}

}  // namespace nasperf
