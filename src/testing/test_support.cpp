// InCi, IsRoot and the test data helpers.
#include "testing/test_support.h"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace nasperf::testing {

bool InCi() {
  const char* ci = std::getenv("CI");
  return ci != nullptr && std::string(ci) == "true";
}

bool IsRoot() { return ::geteuid() == 0; }

std::string ReadWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string TestDataFile(const std::string& source_file, const std::string& name) {
  return source_file.substr(0, source_file.rfind('/')) + "/testdata/" + name;
}

}  // namespace nasperf::testing
