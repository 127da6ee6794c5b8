// ReadTomlJobFile: jobs in file order, [global] first in each, values as typed, and one
// "FILE:LINE: ..." line for everything it refuses.
#include "jobfile/toml_job_file.h"

#include <gtest/gtest.h>

namespace nasperf {
namespace {

TEST(TomlJobFile, JobsInFileOrderWithGlobalSettingsFirst) {
  const char* text =
      "[global]\n"
      "bs = \"4k\"\n"
      "direct = true\n"
      "\n"
      "[zeta]\n"
      "qd = 32\n"
      "rw = \"randread\"\n"
      "[alpha]\n"
      "time = 2.5\n"
      "direct = false\n"
      "group = \"b\"\n";
  Result<JobFile> file = ReadTomlJobFile(text, "jobs.toml");
  ASSERT_TRUE(file.ok()) << file.status().message();
  EXPECT_EQ(file.value().format, "nasperf");
  ASSERT_EQ(file.value().jobs.size(), 2u);
  const FileJob& zeta = file.value().jobs[0];
  EXPECT_EQ(zeta.name, "zeta");
  EXPECT_EQ(zeta.line, 5);
  EXPECT_EQ(zeta.group, "");
  ASSERT_EQ(zeta.settings.size(), 4u);
  EXPECT_EQ(zeta.settings[0].key, "bs");
  EXPECT_EQ(zeta.settings[0].value, "4k");
  EXPECT_EQ(zeta.settings[0].line, 2);
  EXPECT_EQ(zeta.settings[1].key, "direct");
  EXPECT_EQ(zeta.settings[1].value, "true");
  EXPECT_EQ(zeta.settings[2].key, "qd");
  EXPECT_EQ(zeta.settings[2].value, "32");
  EXPECT_EQ(zeta.settings[2].line, 6);
  EXPECT_EQ(zeta.settings[3].key, "rw");
  const FileJob& alpha = file.value().jobs[1];
  EXPECT_EQ(alpha.name, "alpha");
  EXPECT_EQ(alpha.group, "b");
  ASSERT_EQ(alpha.settings.size(), 4u);
  EXPECT_EQ(alpha.settings[2].key, "time");
  EXPECT_EQ(alpha.settings[2].value, "2.5");
  EXPECT_EQ(alpha.settings[3].value, "false");
}

TEST(TomlJobFile, GlobalGroupIsEveryJobsUnlessItSaysOtherwise) {
  Result<JobFile> file = ReadTomlJobFile("[global]\ngroup = 1\n[a]\n[b]\ngroup = 2\n", "j.toml");
  ASSERT_TRUE(file.ok()) << file.status().message();
  ASSERT_EQ(file.value().jobs.size(), 2u);
  EXPECT_EQ(file.value().jobs[0].group, "1");
  EXPECT_EQ(file.value().jobs[1].group, "2");
}

TEST(TomlJobFile, AnEmptyFileHasNoJobs) {
  Result<JobFile> file = ReadTomlJobFile("", "j.toml");
  ASSERT_TRUE(file.ok());
  EXPECT_TRUE(file.value().jobs.empty());
}

void ExpectRefused(const std::string& text, const std::string& message) {
  Result<JobFile> file = ReadTomlJobFile(text, "j.toml");
  ASSERT_FALSE(file.ok()) << text;
  EXPECT_EQ(file.status().kind(), ErrorKind::kBadInput);
  EXPECT_EQ(file.status().message().rfind(message, 0), 0u) << file.status().message();
  EXPECT_EQ(file.status().message().find('\n'), std::string::npos);
}

TEST(TomlJobFile, RefusesWhatIsNotAJobFileInOneLine) {
  ExpectRefused("bs = \"4k\"\n", "j.toml:1: key 'bs' outside a table");
  ExpectRefused("[a]\nqd = 1\n[a]\nqd = 2\n", "j.toml:3: ");  // a duplicate job: TOML's redefinition
  ExpectRefused("[a]\nqd = [1, 2]\n", "j.toml:2: key 'qd' in [a]: an array value");
  ExpectRefused("[a]\n[a.b]\nqd = 1\n", "j.toml:2: key 'b' in [a]: a table value");
  ExpectRefused("[a]\nbs = \"4k\"\n# caf\xc3\xa9\n", "j.toml:3: a non-ASCII character");
  ExpectRefused("[a]\ngroup = \"\"\n", "j.toml:2: key 'group' in [a]: an empty group name");
  ExpectRefused("[a]\ntime = inf\n", "j.toml:2: key 'time' in [a]: not a finite number");
  ExpectRefused("[a\n", "j.toml:1: ");
  ExpectRefused("[\"\"]\nqd = 1\n", "j.toml:1: a job's name (its table header) is empty");
  // the fuzz smoke of stop 24 (a job's setting with an empty key reached the caller)
  ExpectRefused("[a]\n\"\" = 1\n", "j.toml:2: an empty key in [a]");
  ExpectRefused("[global]\n\"\" = \"x\"\n[a]\n", "j.toml:2: an empty key in [global]");
}

TEST(TomlJobFile, DeepNestingIsOneLineNotACrash) {
  std::string deep = "[a]\nx = " + std::string(100000, '[') + std::string(100000, ']') + "\n";
  ExpectRefused(deep, "j.toml:2: ");
  std::string header = "[" + std::string("a");
  for (int i = 0; i < 5000; ++i) header += ".a";
  ExpectRefused(header + "]\n", "j.toml:1: key 'a' in [a]: a table value");
}

}  // namespace
}  // namespace nasperf
