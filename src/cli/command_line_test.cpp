// Tests that stored command lines never carry secrets.
#include "cli/command_line.h"

#include <gtest/gtest.h>

namespace nasperf {
namespace {

std::string Redact(std::vector<const char*> args) { return RedactedCommandLine(static_cast<int>(args.size()), args.data()); }

TEST(RedactedCommandLine, HidesPasswordsEverywhere) {
  EXPECT_EQ(Redact({"nasperf", "run", "/tmp", "--bs", "4k"}), "nasperf run /tmp --bs 4k");
  EXPECT_EQ(Redact({"nasperf", "run", "--password", "hunter2", "x"}), "nasperf run --password '***' x");
  EXPECT_EQ(Redact({"nasperf", "run", "--password=hunter2"}), "nasperf run '--password=***'");
  EXPECT_EQ(Redact({"nasperf", "run", "smb://bob:hunter2@nas/share"}), "nasperf run 'smb://bob:***@nas/share'");
  EXPECT_EQ(Redact({"nasperf", "run", "smb://bob@nas/share"}), "nasperf run smb://bob@nas/share");
  EXPECT_EQ(Redact({"nasperf", "run", "--name", "two words"}), "nasperf run --name 'two words'");
  EXPECT_EQ(Redact({"nasperf", "--token", "abc"}).find("abc"), std::string::npos);
}

}  // namespace
}  // namespace nasperf
