// LocalAppFile: one open file of a local AppFileSystem (target/local_app_fs.h), on its
// descriptor; every call is one system call, short transfers returned as they happened.
#pragma once

#include <string>

#include "core/app_fs.h"

namespace nasperf {

class LocalAppFile final : public AppFile {
 public:
  // Takes `fd` (already opened with O_NOFOLLOW and checked to be a regular file); `path`
  // names it in errors.
  LocalAppFile(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
  ~LocalAppFile() override { (void)Close(); }
  LocalAppFile(const LocalAppFile&) = delete;
  LocalAppFile& operator=(const LocalAppFile&) = delete;

  Result<size_t> Write(const void* data, size_t bytes) override;
  Result<size_t> Read(void* data, size_t bytes) override;
  Result<size_t> PWrite(const void* data, size_t bytes, uint64_t offset) override;
  Result<size_t> PRead(void* data, size_t bytes, uint64_t offset) override;
  Status Sync() override;
  Status Close() override;

 private:
  int fd_ = -1;
  std::string path_;
};

}  // namespace nasperf
