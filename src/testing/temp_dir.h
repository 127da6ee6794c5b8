// TempDir: a private directory for one test, removed with everything in it (but never
// below a file system mounted inside it) when the object dies.
#pragma once

#include <string>
#include <vector>

namespace nasperf::testing {

class TempDir {
 public:
  explicit TempDir(const std::string& parent = "/tmp");
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  bool ok() const { return !path_.empty(); }
  // path() + "/" + name
  std::string Sub(const std::string& name) const { return path_ + "/" + name; }
  // Names of the entries in the directory (not recursive), sorted.
  std::vector<std::string> Entries() const;

 private:
  std::string path_;
};

// Names of every entry in `dir` except . and .., sorted.
std::vector<std::string> DirEntries(const std::string& dir);

}  // namespace nasperf::testing
