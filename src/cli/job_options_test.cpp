// The job option table against what is built from it: the README's table, the defaults of
// JobSpec, --help's layout, and BuildJob's parse-then-check order.
#include "cli/job_options.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "model/job_json.h"

namespace nasperf {
namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Fails when an option's name, placeholder, README description or default changes in one
// place and not the other. To update: paste the "expected" text over the README's table.
TEST(JobOptionsReadme, TableMatchesTheDescriptors) {
  const std::string readme = ReadFile(NASPERF_SOURCE_DIR "/README.md");
  ASSERT_FALSE(readme.empty());
  const std::string expected = JobOptionsReadmeTable();
  EXPECT_NE(readme.find("`run` options:\n\n" + expected), std::string::npos)
      << "README.md's `run` options table differs from the descriptors; expected:\n"
      << expected;
}

// A default text parses to what JobSpec{} holds, so --help, the README and the struct agree.
TEST(JobOptionTable, DefaultTextsGiveJobSpecDefaults) {
  const JobSpec defaults;
  for (const JobOption& option : JobOptionTable()) {
    if (!option.default_text) continue;
    JobSpec job;
    ASSERT_TRUE(option.parse(option.default_text, job).ok()) << option.name;
    EXPECT_EQ(JobToJson(job, job.engine).dump(), JobToJson(defaults, defaults.engine).dump()) << option.name;
  }
}

TEST(JobOptionTable, EveryOptionIsOnRunsHelp) {
  CLI::App app;
  JobInput in;
  AddJobOptions(app, in, JobOptionSet::kFull);
  for (const JobOption& option : JobOptionTable())
    EXPECT_NE(app.get_option_no_throw(option.name), nullptr) << option.name;
}

TEST(JobOptionTable, EveryOptionRoundTripsThroughJson) {
  JobInput in;
  for (const auto& [name, text] : std::vector<std::pair<const char*, const char*>>{{"--rw", "randrw"},
                                                                                   {"--mix", "30"},
                                                                                   {"--bs", "4k"},
                                                                                   {"--qd", "8"},
                                                                                   {"--threads", "2"},
                                                                                   {"--shared-file", ""},
                                                                                   {"--size", "8m"},
                                                                                   {"--time", "2s"},
                                                                                   {"--ramp", "1s"},
                                                                                   {"--direct", ""},
                                                                                   {"--fsync", ""},
                                                                                   {"--engine", "io_uring"},
                                                                                   {"--repeat", "3"},
                                                                                   {"--verify", ""},
                                                                                   {"--seed", "42"},
                                                                                   {"--rate", "100"},
                                                                                   {"--rate-iops", "500"},
                                                                                   {"--think", "10ms"},
                                                                                   {"--burst", "4"},
                                                                                   {"--bs-read", "64k/50:4k/50"},
                                                                                   {"--bs-write", "4k"},
                                                                                   {"--random", "70"},
                                                                                   {"--dist", "zipf:1.2"},
                                                                                   {"--align", "4k"},
                                                                                   {"--steady", "iops:2%:2s"},
                                                                                   {"--repeat-until", "5%"},
                                                                                   {"--stonewall", "off"}})
    in.Give(name, text);
  const nlohmann::ordered_json once = JobToJson(in.job, in.job.engine);
  for (const JobOption& option : JobOptionTable()) EXPECT_TRUE(once.contains(option.json_key)) << option.json_key;
  Result<JobSpec> back = JobFromJson(nlohmann::json::parse(once.dump()));
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(JobToJson(back.value(), back.value().engine).dump(), once.dump());
}

// A directory-like target with no natural size: BuildJob's checks only ask these.
class FakeTarget : public Target {
 public:
  std::string description() const override { return "fake"; }
  Status Check(const JobSpec&) override { return Status::Ok(); }
  Result<std::vector<WorkerFile>> Open(const JobSpec&) override {
    return Status::BadInput("fake: not opened");
    ;
  }
};

TEST(BuildJob, ParseErrorNamesTheOptionAndItsText) {
  JobInput in;
  in.Give("--qd", "eight");
  FakeTarget target;
  Result<JobSpec> job = BuildJob(in, target);
  ASSERT_FALSE(job.ok());
  EXPECT_EQ(job.status().message(), "--qd: 'eight' is not a whole number");
}

// --scale of `app` and `tree gen` (one parser since the two commands' copies were folded):
// the whole text a finite number above 0, else one line naming the option and the text.
TEST(ParseScale, TakesAFiniteNumberAboveZeroAndNothingElse) {
  for (const auto& [text, value] : std::vector<std::pair<std::string, double>>{{"1", 1}, {"0.05", 0.05}, {"2.5", 2.5}})
    EXPECT_DOUBLE_EQ(ParseScale(text).value(), value) << text;
  for (const std::string text : {"", "0", "-1", "abc", "1x", "1e999", "nan", "inf"}) {
    Result<double> scale = ParseScale(text);
    ASSERT_FALSE(scale.ok()) << text;
    EXPECT_EQ(scale.status().message(), "--scale must be a number above 0, got '" + text + "'");
  }
}

}  // namespace
}  // namespace nasperf
