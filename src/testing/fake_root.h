// Test helper: builds a fake /sys, /proc and /etc tree under a temporary root for the sysinfo readers.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>

#include "testing/test_support.h"

namespace nasperf::sysinfo::testing {

// A temporary directory standing in for "/": Write("/sys/block/sda/size", "123\n").
// Links are absolute inside the root, so realpath() stays within it.
class FakeRoot {
 public:
  const std::string& path() const { return dir_.path(); }

  void Write(const std::string& file, const std::string& text) const {
    std::filesystem::path full = path() + file;
    std::filesystem::create_directories(full.parent_path());
    std::ofstream(full) << text;
  }
  void MakeDir(const std::string& dir) const { std::filesystem::create_directories(path() + dir); }
  // `link` -> `target`, both given as paths inside the fake root.
  void Link(const std::string& link, const std::string& target) const {
    std::filesystem::path full = path() + link;
    std::filesystem::create_directories(full.parent_path());
    std::filesystem::create_directories(path() + target);
    std::filesystem::create_directory_symlink(path() + target, full);
  }

 private:
  nasperf::testing::TempDir dir_;
};

}  // namespace nasperf::sysinfo::testing
