// Helpers shared by unit tests: temporary directories and the CI skip rule.
#pragma once

#include <cstdlib>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace nasperf::testing {

// Under CI (CI=true) a missing capability is a failure, not a skip (STYLE.md, habit 9).
inline bool InCi() {
  const char* ci = std::getenv("CI");
  return ci && std::string(ci) == "true";
}

#define NASPERF_SKIP_OR_FAIL_IN_CI(reason)                               \
  do {                                                                   \
    if (::nasperf::testing::InCi()) FAIL() << "CI=true, cannot skip: " << (reason); \
    GTEST_SKIP() << (reason);                                            \
  } while (0)

// The whole content of a file ("" when it cannot be read).
std::string ReadWholeFile(const std::string& path);
// A fixture beside a test source: TestDataFile(__FILE__, "x.json") -> "<dir of it>/testdata/x.json".
std::string TestDataFile(const std::string& source_file, const std::string& name);

// A directory under /tmp, removed with everything in it when the object dies.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  // Names of the entries in the directory (not recursive).
  std::vector<std::string> Entries() const;

 private:
  std::string path_;
};

}  // namespace nasperf::testing
