// Iometer access specifications read into a JobFile: the fixture testdata/several_specs.icf
// (written from Iometer's documented ICF layout, CRLF line ends as Iometer saves them), each
// field's conversion, and every refusal as one line naming file and line.
#include "jobfile/iometer_spec.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <utility>
#include <vector>

namespace nasperf {
namespace {

std::string IcfFixture() {
  std::ifstream in(std::string(NASPERF_SOURCE_DIR) + "/src/jobfile/testdata/several_specs.icf");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

using Pairs = std::vector<std::pair<std::string, std::string>>;

Pairs SpecSettings(const std::string& spec) {
  Result<JobFile> file = ParseIometerSpec(IcfFixture(), "bench.icf", spec);
  EXPECT_TRUE(file.ok()) << file.status().message();
  if (!file.ok()) return {};
  EXPECT_EQ(file.value().format, "iometer");
  EXPECT_EQ(file.value().jobs.size(), 1u);
  EXPECT_EQ(file.value().jobs[0].name, spec);
  Pairs out;
  for (const JobSetting& s : file.value().jobs[0].settings) out.emplace_back(s.key, s.value);
  return out;
}

// A file of one spec with these lines, and a worker running it at depth 8.
std::string OneSpec(const std::string& lines) {
  return "Version 1.1.0\n'ACCESS SPECIFICATIONS ====\n'Access specification name,default assignment\n\tS,NONE\n"
         "'size,% of size,% reads,% random,delay,burst,align,reply\n" +
         lines + "'END access specifications\n'MANAGER LIST ====\n";
}

std::string IcfRefusal(const std::string& text, const std::string& spec = "S") {
  Result<JobFile> file = ParseIometerSpec(text, "t.icf", spec);
  EXPECT_FALSE(file.ok()) << text;
  if (file.ok()) return "";
  EXPECT_EQ(file.status().kind(), ErrorKind::kBadInput);
  EXPECT_EQ(file.status().message().find('\n'), std::string::npos);
  return file.status().message();
}

TEST(IometerSpec, ListsTheFilesSpecsInOrder) {
  Result<std::vector<std::string>> names = IometerSpecNames(IcfFixture(), "bench.icf");
  ASSERT_TRUE(names.ok()) << names.status().message();
  EXPECT_EQ(names.value(), (std::vector<std::string>{"Vendor 4K-64K; 67% Read; 100% random", "512B sequential reads",
                                                     "Paced 8K writes", "Split by direction", "Network reply"}));
}

TEST(IometerSpec, AVendorSpecIsASizeMixWithItsReadShareAndItsWorkersDepth) {
  EXPECT_EQ(SpecSettings("Vendor 4K-64K; 67% Read; 100% random"),
            (Pairs{{"rw", "randrw"},
                   {"mix", "67"},
                   {"bs", "4096/50:65536/50"},
                   {"align", "512"},
                   {"direct", ""},
                   {"qd", "16"}}));
}

TEST(IometerSpec, ASpecNoWorkerRunsLeavesTheDepthToTheCommandLine) {
  EXPECT_EQ(SpecSettings("512B sequential reads"), (Pairs{{"rw", "read"}, {"bs", "512"}, {"align", "512"}, {"direct", ""}}));
}

TEST(IometerSpec, DelayBurstAlignAndAPartialRandomShare) {
  EXPECT_EQ(SpecSettings("Paced 8K writes"), (Pairs{{"rw", "randwrite"},
                                                    {"random", "40"},
                                                    {"bs", "8192"},
                                                    {"think", "20ms"},
                                                    {"burst", "4"},
                                                    {"align", "4096"},
                                                    {"direct", ""},
                                                    {"qd", "4"}}));
}

TEST(IometerSpec, LinesThatDifferInReadsGiveEachDirectionItsOwnSizes) {
  // 4 KiB reads 50 % of the time, 64 KiB writes the other 50 %.
  EXPECT_EQ(SpecSettings("Split by direction"),
            (Pairs{{"rw", "randrw"},
                   {"mix", "50"},
                   {"bs-read", "4096"},
                   {"bs-write", "65536"},
                   {"align", "512"},
                   {"direct", ""},
                   {"qd", "16"}}));
  // Of all I/Os: 4 KiB reads 25 %, 64 KiB reads 25 % and writes 25 %, 1 MiB writes 25 %.
  Result<JobFile> three = ParseIometerSpec(
      OneSpec("\t4096,25,100,0,0,1,0,0\n\t65536,50,50,0,0,1,0,0\n\t1048576,25,0,0,0,1,0,0\n"), "t.icf", "S");
  ASSERT_TRUE(three.ok()) << three.status().message();
  Pairs got;
  for (const JobSetting& s : three.value().jobs[0].settings) got.emplace_back(s.key, s.value);
  EXPECT_EQ(got,
            (Pairs{{"rw", "rw"},
                   {"mix", "50"},
                   {"bs-read", "4096/50:65536/50"},
                   {"bs-write", "65536/50:1048576/50"},
                   {"align", "512"},
                   {"direct", ""}}));
}

TEST(IometerSpec, ZeroShareLinesAreLeftOutAndRepeatedSizesMerge) {
  Result<JobFile> file = ParseIometerSpec(
      OneSpec("\t4096,40,100,0,0,1,0,0\n\t8192,0,100,0,0,1,0,0\n\t4096,60,100,0,0,1,0,0\n"), "t.icf", "S");
  ASSERT_TRUE(file.ok()) << file.status().message();
  ASSERT_EQ(file.value().jobs[0].settings.size(), 4u);  // rw, bs, align, direct
  EXPECT_EQ(file.value().jobs[0].settings[1].value, "4096");
}

// The manager list of OneSpec's file with these workers: {outstanding I/Os, assigned spec}.
std::string WithWorkers(const std::vector<std::pair<int, std::string>>& workers) {
  std::string text = OneSpec("\t4096,100,100,100,0,1,0,0\n");
  text += "'Manager ID, manager name\n\t1,BENCH\n";
  int n = 0;
  for (const auto& [depth, spec] : workers)
    text += "'Worker\n\tWorker " + std::to_string(++n) +
            "\n'Worker type\n\tDISK\n'Number of outstanding IOs,test connection rate\n\t" + std::to_string(depth) +
            ",DISABLED\n'Assigned access specs\n\t" + spec + "\n'End assigned access specs\n'End worker\n";
  return text + "'End manager\n'END manager list\n";
}

Pairs SettingsOf(const FileJob& job) {
  Pairs out;
  for (const JobSetting& s : job.settings) out.emplace_back(s.key, s.value);
  return out;
}

// Issue 33 item 3: only the first worker's depth was read and one thread ran. Every worker
// the spec is assigned to is a thread, its own outstanding I/Os; they share one file.
TEST(IometerSpec, EveryAssignedWorkerIsAThreadAndTheyShareOneFile) {
  Result<JobFile> file = ParseIometerSpec(WithWorkers({{8, "S"}, {8, "S"}, {32, "other"}, {8, "S"}}), "t.icf", "S");
  ASSERT_TRUE(file.ok()) << file.status().message();
  ASSERT_EQ(file.value().jobs.size(), 1u);
  const FileJob& job = file.value().jobs[0];
  EXPECT_EQ(job.name, "S");
  EXPECT_EQ(SettingsOf(job), (Pairs{{"rw", "randread"},
                                    {"bs", "4096"},
                                    {"align", "512"},
                                    {"direct", ""},
                                    {"qd", "8"},
                                    {"threads", "3"},
                                    {"shared-file", ""}}));
  EXPECT_EQ(job.notes, (std::vector<std::string>{
                           "the spec's alignment 0 (Iometer: sector boundaries) asks --align 512",
                           "Iometer's I/O is unbuffered, so the spec asks --direct (--buffered undoes it; the heading says which ran)"}));
}

// Workers of different depths: one job per depth, in one group, and a note that Iometer's
// would have shared one file where nasperf's jobs each have their own.
TEST(IometerSpec, WorkersOfDifferentDepthsAreOneJobPerDepthInOneGroup) {
  Result<JobFile> file = ParseIometerSpec(WithWorkers({{4, "S"}, {32, "S"}, {4, "S"}}), "t.icf", "S");
  ASSERT_TRUE(file.ok()) << file.status().message();
  ASSERT_EQ(file.value().jobs.size(), 2u);
  const FileJob& four = file.value().jobs[0];
  const FileJob& deep = file.value().jobs[1];
  EXPECT_EQ(four.name, "S qd4");
  EXPECT_EQ(deep.name, "S qd32");
  EXPECT_EQ(four.group, deep.group);
  const Pairs four_settings = SettingsOf(four), deep_settings = SettingsOf(deep);
  EXPECT_EQ(Pairs(four_settings.end() - 3, four_settings.end()),
            (Pairs{{"qd", "4"}, {"threads", "2"}, {"shared-file", ""}}));
  EXPECT_EQ(deep_settings.back(), (std::pair<std::string, std::string>{"qd", "32"}));
  ASSERT_FALSE(deep.notes.empty());
  EXPECT_NE(deep.notes.back().find("2 queue depths: one job per depth"), std::string::npos) << deep.notes.back();
}

TEST(IometerSpec, AnUnknownSpecNameListsTheNamesTheFileHas) {
  EXPECT_EQ(IcfRefusal(IcfFixture(), "RND4K"),
            "t.icf: no access specification 'RND4K'; the file has 'Vendor 4K-64K; 67% Read; 100% random', "
            "'512B sequential reads', 'Paced 8K writes', 'Split by direction', 'Network reply'");
}

TEST(IometerSpec, RefusesANonzeroReplySize) {
  EXPECT_EQ(IcfRefusal(IcfFixture(), "Network reply"),
            "t.icf:33: access specification 'Network reply': a reply size (512 bytes) is not supported: replies are "
            "for Iometer's network workers");
}

TEST(IometerSpec, RefusesWhatNasperfHasOnlyOneOfPerJobWhenLinesDiffer) {
  EXPECT_EQ(IcfRefusal(OneSpec("\t4096,50,100,100,0,1,0,0\n\t65536,50,100,0,0,1,0,0\n")),
            "t.icf:7: access specification 'S': its lines differ in % random (0 here, 100 on line 6); nasperf runs "
            "one % random per job");
  EXPECT_EQ(IcfRefusal(OneSpec("\t4096,50,100,0,5,1,0,0\n\t65536,50,100,0,0,1,0,0\n")),
            "t.icf:7: access specification 'S': its lines differ in delay (0 here, 5 on line 6); nasperf runs one "
            "delay per job");
  EXPECT_EQ(IcfRefusal(OneSpec("\t4096,50,100,0,0,1,0,0\n\t65536,30,50,0,0,1,0,0\n\t1048576,20,0,0,0,1,0,0\n")),
            "t.icf:6: access specification 'S': its lines' % reads give the reads' or the writes' sizes shares that "
            "are not whole percents");
}

TEST(IometerSpec, RefusesMalformedSpecsNamingTheLine) {
  EXPECT_EQ(IcfRefusal(OneSpec("\t4096,50,100,0,0,1,0,0\n")),
            "t.icf:4: access specification 'S': its % of size adds up to 50, not 100");
  EXPECT_EQ(IcfRefusal(OneSpec("\t4096,100,100,0,0,1,0\n")),
            "t.icf:6: an access specification line has 7 fields, not 8 (size,% of size,% reads,% random,delay,burst,"
            "align,reply)");
  EXPECT_EQ(IcfRefusal(OneSpec("\t4k,100,100,0,0,1,0,0\n")), "t.icf:6: size: '4k' is not a whole number");
  EXPECT_EQ(IcfRefusal(OneSpec("\t4096,100,101,0,0,1,0,0\n")), "t.icf:6: % reads: 101 is more than 100");
  EXPECT_EQ(IcfRefusal(OneSpec("\t0,100,100,0,0,1,0,0\n")),
            "t.icf:6: access specification 'S': a transfer size of 0 bytes");
  EXPECT_EQ(IcfRefusal(OneSpec("\t4096,100,100,0,0,1,0,0\n'Pie chart\n")),
            "t.icf:7: unexpected line in the access specifications: ''Pie chart'");
  EXPECT_EQ(IcfRefusal("Version 1.1.0\n'ACCESS SPECIFICATIONS\n'Access specification name,default assignment\n\tS,NONE\n"
                    "'size,% of size,% reads,% random,delay,burst,align,reply\n\t4096,100,100,0,0,1,0,0\n"),
            "t.icf:6: the access specifications do not end ('END access specifications missing)");
  EXPECT_EQ(IcfRefusal("Version 1.1.0\n'TEST SETUP\n"),
            "t.icf: no 'ACCESS SPECIFICATIONS section: is this an Iometer configuration (.icf)?");
  EXPECT_EQ(IcfRefusal("\x7f"
                    "ELF\x02\x01\x01\x00"),
            "t.icf:1: byte 0x7f is not text: is this an Iometer configuration?");
  EXPECT_EQ(IcfRefusal("Version 1.1.0\n" + std::string(9000, 'x') + "\n"),
            "t.icf:2: line of 9000 bytes, more than the 8192 a line may have");
}

TEST(IometerSpec, RefusesAWorkersDepthThatIsNotOne) {
  std::string text = OneSpec("\t4096,100,100,0,0,1,0,0\n") +
                     "'Worker\n\tW\n'Default target settings for worker\n'Number of outstanding IOs,test connection "
                     "rate,transactions per connection\n\tmany,DISABLED,1\n'Assigned access specs\n\tS\n'End assigned "
                     "access specs\n";
  EXPECT_EQ(IcfRefusal(text), "t.icf:13: number of outstanding IOs: 'many' is not a depth 1..65535");
}

}  // namespace
}  // namespace nasperf
