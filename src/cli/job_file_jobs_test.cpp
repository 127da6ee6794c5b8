// BindJobFile: settings given through run's descriptors, the last of a key winning, flags
// on and off, the target and protocol keys, and one "FILE:LINE: key '...': ..." line for
// whatever is not an option of one job.
#include "cli/job_file_jobs.h"

#include <gtest/gtest.h>

namespace nasperf {
namespace {

JobFile OneJob(std::vector<JobSetting> settings, std::string group = "") {
  JobFile file;
  file.path = "j.toml";
  file.format = "nasperf";
  file.jobs.push_back({"a", std::move(group), 4, std::move(settings)});
  return file;
}

TEST(JobFileBinding, EachKeyIsTheOptionOfTheSameName) {
  Result<std::vector<BoundFileJob>> jobs = BindJobFile(OneJob({{"bs", "4k", 2},
                                                               {"qd", "8", 5},
                                                               {"rw", "randread", 6},
                                                               {"direct", "true", 7},
                                                               {"target", "null:", 8},
                                                               {"connect-timeout", "3s", 9}}),
                                                       ".");
  ASSERT_TRUE(jobs.ok()) << jobs.status().message();
  ASSERT_EQ(jobs.value().size(), 1u);
  const BoundFileJob& j = jobs.value()[0];
  EXPECT_EQ(j.name, "a");
  EXPECT_EQ(j.group, kDefaultJobGroup);
  EXPECT_EQ(j.input.job.bs, 4096u);
  EXPECT_EQ(j.input.job.qd, 8u);
  EXPECT_EQ(j.input.job.rw, AccessPattern::kRandRead);
  EXPECT_TRUE(j.input.job.direct);
  EXPECT_TRUE(j.input.given("--direct"));
  EXPECT_EQ(j.input.target, "null:");
  EXPECT_EQ(j.protocol.connect_timeout, "3s");
}

TEST(JobFileBinding, TheLastSettingOfAKeyWinsAndFalseTurnsAFlagOff) {
  // [global] said direct = true and qd = 4; the job says direct = false and qd = 2.
  Result<std::vector<BoundFileJob>> jobs =
      BindJobFile(OneJob({{"direct", "true", 2}, {"qd", "4", 3}, {"direct", "false", 5}, {"qd", "2", 6}}, "g"), "dir");
  ASSERT_TRUE(jobs.ok()) << jobs.status().message();
  const BoundFileJob& j = jobs.value()[0];
  EXPECT_FALSE(j.input.job.direct);
  EXPECT_FALSE(j.input.given("--direct"));
  EXPECT_EQ(j.input.job.qd, 2u);
  EXPECT_EQ(j.input.target, "dir");  // the command line's TARGET, when the job names none
  EXPECT_EQ(j.group, "g");
}

void ExpectRefused(const JobFile& file, const std::string& message) {
  Result<std::vector<BoundFileJob>> jobs = BindJobFile(file, ".");
  ASSERT_FALSE(jobs.ok());
  EXPECT_EQ(jobs.status().kind(), ErrorKind::kBadInput);
  EXPECT_EQ(jobs.status().message().rfind(message, 0), 0u) << jobs.status().message();
}

TEST(JobFileBinding, RefusesInOneLineNamingFileLineAndKey) {
  ExpectRefused(OneJob({{"qdd", "4", 7}}), "j.toml:7: key 'qdd': unknown option of run");
  ExpectRefused(OneJob({{"qd", "many", 3}}), "j.toml:3: key 'qd': --qd: ");
  ExpectRefused(OneJob({{"direct", "1", 3}}), "j.toml:3: key 'direct': --direct is a flag: true or false");
  ExpectRefused(OneJob({{"on", "nas:7070", 3}}), "j.toml:3: key 'on': an option of the whole command");
  ExpectRefused(OneJob({{"target", "", 3}}), "j.toml:3: key 'target': an empty target");
  JobFile empty;
  empty.path = "e.toml";
  ExpectRefused(empty, "e.toml: no jobs");
  JobFile twice = OneJob({});
  twice.jobs.push_back({"a", "", 9, {}});
  ExpectRefused(twice, "j.toml:9: job 'a' again (first at line 4)");
}

}  // namespace
}  // namespace nasperf
