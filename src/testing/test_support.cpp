// TempDir for unit tests.
#include "testing/test_support.h"

#include <dirent.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>
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

std::string ReadWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string TestDataFile(const std::string& source_file, const std::string& name) {
  return source_file.substr(0, source_file.rfind('/')) + "/testdata/" + name;
}

std::vector<std::string> TempDir::Entries() const {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(path_)) out.push_back(e.path().filename().string());
  return out;
}

}  // namespace nasperf::testing
