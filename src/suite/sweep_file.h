// The one test file a sweep works on, in the user's directory: created empty for each
// write test (a new file, as iozone's write test measures), kept across the tests that
// follow, dropped from the page cache before cold reads, removed at the end. And the
// choice between it and a share (smb://, nfs://) for a sweep's TARGET.
#pragma once

#include <optional>
#include <string>

#include "target/directory_target.h"
#include "target/own_file.h"
#include "target/page_cache.h"
#include "core/target.h"

namespace nasperf {

class SweepFile final : public SweepableTarget {
 public:
  explicit SweepFile(std::string directory);
  // The directory open at `dir_fd` (an agent's, resolved beneath its --root): the test
  // file is created, reopened and removed relative to it, never by path. `directory`
  // names it in messages.
  SweepFile(ScopedFd dir_fd, std::string directory);
  ~SweepFile() override;
  std::string description() const override { return directory_.description(); }
  bool SupportsDirect(std::string* why) override { return directory_.SupportsDirect(why); }
  Status Check(const JobSpec& job) override { return directory_.Check(job); }
  // Opens the file as it is (no layout, no reservation): writes extend it. A read of a
  // file shorter than the job lays it out first, untimed.
  Result<std::vector<WorkerFile>> Open(const JobSpec& job) override;

  Status StartNewFile() override;
  Status EnsureData(uint64_t bytes, const BufferPattern& pattern) override;
  Result<uint64_t> FreeBytes() override;
  bool client_caches() const override { return true; }
  Result<CacheDropReport> DropCache(bool system_wide) override;
  // The test file's path; empty until the first test creates it.
  std::string path() const { return file_ ? file_->path() : std::string(); }

 private:
  DirectoryTarget directory_;
  std::string directory_path_;
  ScopedFd dir_fd_;
  bool by_fd_ = false;  // made from a descriptor: never reached by path, even if it is invalid
  std::optional<OwnFile> file_;  // the file this sweep created (target/own_file.h); only it is ever removed
};

// A sweep's TARGET: a local directory, smb:// or nfs:// (each checked when the sweep
// calls Check); iscsi://, null:, files and devices are BadInput.
Result<std::unique_ptr<SweepableTarget>> MakeSweepTarget(const std::string& spec, const TargetOptions& options);

}  // namespace nasperf
