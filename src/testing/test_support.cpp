// TempDir for unit tests.
#include "testing/test_support.h"

#include <dirent.h>
#include <stdlib.h>

#include <filesystem>
#include <vector>

namespace nasperf::testing {

TempDir::TempDir() {
  char templ[] = "/tmp/nasperf-test-XXXXXX";
  char* made = mkdtemp(templ);
  path_ = made ? made : "";
}

TempDir::~TempDir() {
  std::error_code ec;
  if (!path_.empty()) std::filesystem::remove_all(path_, ec);
}

std::vector<std::string> TempDir::Entries() const {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(path_)) out.push_back(e.path().filename().string());
  return out;
}

}  // namespace nasperf::testing
