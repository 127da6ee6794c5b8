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

TEST(RedactedCommandLine, HidesInlineSecretsInAnyCase) {
  EXPECT_EQ(Redact({"nasperf", "TOKEN=abc"}), "nasperf 'TOKEN=***'");
  EXPECT_EQ(Redact({"nasperf", "--Secret=a b\nc"}), "nasperf '--Secret=***'");
  EXPECT_EQ(Redact({"nasperf", "--passwords=abc"}), "nasperf --passwords=abc");
  EXPECT_EQ(Redact({"nasperf", "nfs://host:2049/export"}), "nasperf nfs://host:2049/export");
}

// The kernel takes arguments up to 128 KiB; the redaction once recursed per character.
TEST(RedactedCommandLine, LongArgumentsAreScannedWithoutRecursion) {
  const std::string letters(1 << 20, 'a');
  EXPECT_EQ(Redact({"nasperf", letters.c_str()}), "nasperf " + letters);
  const std::string url = "smb://bob:" + letters + "@nas/share";
  EXPECT_EQ(Redact({"nasperf", url.c_str()}), "nasperf 'smb://bob:***@nas/share'");
  const std::string scheme = letters + "://" + letters;
  EXPECT_EQ(Redact({"nasperf", scheme.c_str()}), "nasperf " + scheme);
  const std::string secret = "--password=" + letters;
  EXPECT_EQ(Redact({"nasperf", secret.c_str()}), "nasperf '--password=***'");
}

}  // namespace
}  // namespace nasperf
