// The protocol plugins: nasperf loads a protocol's plugin (nasperf-smb.so ...) on the first
// use of its scheme; without it, the scheme is one clear line and exit 2, and every
// command that uses no share works as before.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "cli_harness.h"

namespace nasperf::e2e {
namespace {

namespace fs = std::filesystem;

// A copy of the binary in a directory with no plugins beside it, nor in ../lib/nasperf.
class WithoutPlugins : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::create_directory(dir_.path() + "/bin");
    binary_ = dir_.path() + "/bin/nasperf";
    fs::copy_file(NasperfBinary(), binary_);
  }
  CliResult Run(const std::vector<std::string>& args) { return RunProgram(binary_, args, 60, dir_.path()); }

  TempDir dir_;
  std::string binary_;
};

TEST_F(WithoutPlugins, AShareSaysItsProtocolIsNotInstalledInOneLine) {
  for (const auto& [url, protocol] : std::vector<std::pair<std::string, std::string>>{
           {"smb://u@127.0.0.1/share", "SMB"}, {"nfs://127.0.0.1/export", "NFS"},
           {"iscsi://127.0.0.1/iqn.2026-12.test:t/1", "iSCSI"}}) {
    CliResult r = Run({"run", url, "--time", "1", "--no-store"});
    EXPECT_EQ(r.exit_code, 2) << url << ": " << r.err;
    EXPECT_TRUE(Contains(r.err, "nasperf: " + protocol + " support is not installed: ")) << r.err;
    EXPECT_TRUE(Contains(r.err, "nasperf-")) << "names the plugin it looked for: " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
}

TEST_F(WithoutPlugins, LocalRunsNeedNoPlugin) {
  CliResult r = Run({"run", "null:", "--time", "0.2", "--no-store"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Contains(r.out, "null:")) << r.out;
}

#if NASPERF_WITH_SMB
// The build's own binary finds its plugin next to it: what stops this run is the server
// that is not there (nothing listens on loopback's port 1), not a missing plugin.
TEST(WithPlugins, TheBuiltBinaryLoadsItsPluginFromBesideIt) {
  EXPECT_TRUE(fs::exists(fs::path(NasperfBinary()).parent_path() / "nasperf-smb.so"));
  CliResult r = RunNasperf({"run", "smb://u@127.0.0.1:1/share", "--time", "1", "--no-store"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_FALSE(Contains(r.err, "not installed")) << r.err;
  EXPECT_TRUE(Contains(r.err, "127.0.0.1")) << r.err;
}
#endif

}  // namespace
}  // namespace nasperf::e2e
