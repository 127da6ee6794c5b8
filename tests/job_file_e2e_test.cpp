// E2E tests of `nasperf run --job FILE`: a group of jobs runs together and is reported per
// job and as a group, stored as one invocation; every bad file is one line "FILE:LINE: ...",
// exit 2, nothing written; Ctrl-C stops every job and removes every job's files.
#include <csignal>
#include <string>
#include <thread>
#include <vector>

#include "cli_harness.h"

namespace nasperf::e2e {
namespace {

using json = nlohmann::json;

// A job file in `dir` holding `text`; its path.
std::string WriteJobFile(const TempDir& dir, const std::string& text, const std::string& name = "jobs.toml") {
  const std::string path = dir.Sub(name);
  EXPECT_TRUE(WriteFileBytes(path, text));
  return path;
}

// Exit 2, one stderr line starting with `prefix` and containing `needle`, nothing on
// stdout, and `data` (the jobs' target) left exactly as it was.
void ExpectRefused(const std::string& file, const std::string& data, const std::string& prefix,
                   const std::string& needle) {
  const std::vector<std::string> before = DirEntries(data);
  for (bool as_json : {false, true}) {
    std::vector<std::string> args = {"run", data, "--job", file, "--no-store"};
    if (as_json) args.push_back("--json");
    SCOPED_TRACE(Join(args));
    CliResult r = RunNasperf(args, 30);
    EXPECT_EQ(r.term_signal, 0);
    EXPECT_EQ(r.exit_code, 2) << r.err << r.out;
    std::vector<std::string> lines = Lines(r.err);
    ASSERT_EQ(lines.size(), 1u) << r.err;
    EXPECT_EQ(lines[0].rfind("nasperf: " + prefix, 0), 0u) << lines[0];
    EXPECT_TRUE(Contains(lines[0], needle)) << lines[0];
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(DirEntries(data), before);
  }
}

TEST(JobFileTest, UnknownKeyNamesFileLineAndKey) {
  TempDir dir, data;
  std::string f = WriteJobFile(dir, "[global]\nsize = \"1m\"\n\n[a]\nqdd = 4\n");
  ExpectRefused(f, data.path(), f + ":5: key 'qdd': ", "unknown option of run");
}

TEST(JobFileTest, BadValueNamesTheOptionsOwnError) {
  TempDir dir, data;
  std::string f = WriteJobFile(dir, "[a]\nbs = \"4k\"\nqd = \"many\"\n");
  ExpectRefused(f, data.path(), f + ":3: key 'qd': --qd: ", "many");
  f = WriteJobFile(dir, "[a]\ndirect = \"yes\"\n", "flag.toml");
  ExpectRefused(f, data.path(), f + ":2: key 'direct': ", "true or false");
}

TEST(JobFileTest, ACommandOptionInAJobIsSaidToBeOne) {
  TempDir dir, data;
  std::string f = WriteJobFile(dir, "[a]\njson = true\n");
  ExpectRefused(f, data.path(), f + ":2: key 'json': ", "command line");
}

TEST(JobFileTest, DuplicateJobNameIsRefused) {
  TempDir dir, data;
  std::string f = WriteJobFile(dir, "[a]\nqd = 1\n\n[a]\nqd = 2\n");
  ExpectRefused(f, data.path(), f + ":4: ", "");
}

TEST(JobFileTest, EmptyFileHasNoJobs) {
  TempDir dir, data;
  std::string f = WriteJobFile(dir, "");
  ExpectRefused(f, data.path(), f + ": no jobs", "[NAME]");
  f = WriteJobFile(dir, "[global]\nbs = \"4k\"\n", "global_only.toml");
  ExpectRefused(f, data.path(), f + ": no jobs", "[NAME]");
}

TEST(JobFileTest, HugeFileIsRefusedBeforeItIsRead) {
  TempDir dir, data;
  std::string f = WriteJobFile(dir, "[a]\n" + std::string(2 << 20, '#') + "\n");
  ExpectRefused(f, data.path(), "--job " + f + ": ", "1 MiB");
}

TEST(JobFileTest, DeepNestingIsOneLine) {
  TempDir dir, data;
  std::string f = WriteJobFile(dir, "[a]\nx = " + std::string(50000, '[') + std::string(50000, ']') + "\n");
  ExpectRefused(f, data.path(), f + ":2: ", "");
  std::string header = "[a";
  for (int i = 0; i < 2000; ++i) header += ".b";
  f = WriteJobFile(dir, header + "]\nqd = 1\n", "headers.toml");
  ExpectRefused(f, data.path(), f + ":1: key 'b' in [a]: a table value", "one level deep");
}

TEST(JobFileTest, NonAsciiIsRefusedWithItsLine) {
  TempDir dir, data;
  std::string f = WriteJobFile(dir, "[a]\nbs = \"4k\"\n[b\xc3\xa9]\n");
  ExpectRefused(f, data.path(), f + ":3: a non-ASCII character", "\\u");
}

TEST(JobFileTest, AJobsCrossOptionErrorNamesTheJob) {
  TempDir dir, data;
  std::string f = WriteJobFile(dir, "[ok]\nsize = \"1m\"\n[bad]\nrw = \"read\"\nmix = 30\nsize = \"1m\"\n");
  ExpectRefused(f, data.path(), f + ":3: job 'bad': --mix: ", "rw");
}

TEST(JobFileTest, OptionsOnTheCommandLineBesideAJobFileAreRefused) {
  TempDir dir, data;
  std::string f = WriteJobFile(dir, "[a]\nsize = \"1m\"\n");
  CliResult r = RunNasperf({"run", data.path(), "--job", f, "--bs", "4k", "--no-store"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(Contains(r.err, "the job file holds")) << r.err;
  EXPECT_TRUE(Contains(r.err, "--bs")) << r.err;
}

TEST(JobFileTest, OneGroupRunsTogetherReportedPerJobAndAsAGroup) {
  TempDir dir, data, db;
  std::string f = WriteJobFile(dir,
                               "[global]\n"
                               "size = \"4m\"\n"
                               "bs = \"64k\"\n"
                               "\n"
                               "[reader]\n"
                               "rw = \"read\"\n"
                               "\n"
                               "[writer]\n"
                               "rw = \"write\"\n"
                               "bs = \"128k\"\n"
                               "\n"
                               "[later]\n"
                               "target = \"null:\"\n"
                               "group = \"second\"\n");
  const std::string db_path = db.Sub("r.db");
  json doc = NasperfJson({"run", data.path(), "--job", f, "--db", db_path, "--json"});
  ASSERT_TRUE(HasDocumentShape(doc));
  ASSERT_EQ(doc["runs"].size(), 3u) << doc.dump(2);
  const json& reader = doc["runs"][0];
  const json& writer = doc["runs"][1];
  const json& later = doc["runs"][2];
  EXPECT_EQ(reader["job_name"], "reader");
  EXPECT_EQ(reader["job_group"], "all");
  EXPECT_EQ(writer["job_name"], "writer");
  EXPECT_EQ(later["job_group"], "second");
  EXPECT_EQ(reader["job"]["bs"], 65536);
  EXPECT_EQ(writer["job"]["bs"], 131072);  // the job's own key over [global]'s
  EXPECT_EQ(later["target"], "null:");
  for (const json& run : doc["runs"]) EXPECT_TRUE(HasConsistentFigures(run)) << run.dump(2);
  ASSERT_EQ(doc["groups"].size(), 2u);
  const json& all = doc["groups"][0];
  EXPECT_EQ(all["group"], "all");
  EXPECT_EQ(all["jobs"], json({"reader", "writer"}));
  EXPECT_EQ(all["read"]["bytes"], reader["read"]["bytes"]);
  EXPECT_EQ(all["write"]["bytes"], writer["write"]["bytes"]);
  EXPECT_EQ(all["write"]["ios"], writer["write"]["ios"]);
  EXPECT_TRUE(DirEntries(data.path()).empty()) << ::testing::PrintToString(DirEntries(data.path()));

  // One stored invocation, shown together by results show.
  json list = NasperfJson({"results", "list", "--db", db_path, "--json"});
  ASSERT_EQ(list["runs"].size(), 3u);
  CliResult shown = RunNasperf({"results", "show", std::to_string(reader["id"].get<int64_t>()),
                                std::to_string(writer["id"].get<int64_t>()), "--db", db_path});
  EXPECT_EQ(shown.exit_code, 0) << shown.err;
  EXPECT_TRUE(Contains(shown.out, "job reader (group all)")) << shown.out;
  EXPECT_TRUE(Contains(shown.out, "group all: 2 jobs (reader, writer) started together")) << shown.out;
  json stored =
      NasperfJson({"results", "show", std::to_string(reader["id"].get<int64_t>()), "--db", db_path, "--json"});
  ASSERT_EQ(stored["runs"].size(), 1u);
  EXPECT_EQ(stored["runs"][0]["job_name"], "reader");
  EXPECT_EQ(stored["runs"][0]["job_group"], "all");
}

TEST(JobFileTest, TableShowsEachJobAndTheGroupLine) {
  TempDir dir;
  std::string f = WriteJobFile(dir, "[global]\ntarget = \"null:\"\nsize = \"1m\"\n[x]\n[y]\nrw = \"write\"\n");
  CliResult r = RunNasperf({"run", "--job", f, "--no-store"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Contains(r.out, "job x (group all)")) << r.out;
  EXPECT_TRUE(Contains(r.out, "job y (group all)")) << r.out;
  EXPECT_TRUE(Contains(r.out, "group all: 2 jobs (x, y) started together")) << r.out;
}

TEST(JobFileTest, CtrlCStopsEveryJobAndRemovesEveryJobsFiles) {
  TempDir dir, one, two;
  std::string f =
      WriteJobFile(dir, "[global]\nsize = \"64m\"\ntime = \"30s\"\nrw = \"randwrite\"\nbs = \"4k\"\n[a]\ntarget = \"" +
                            one.path() + "\"\n[b]\ntarget = \"" + two.path() + "\"\n");
  BackgroundProcess p = StartNasperf({"run", "--job", f, "--no-store", "--json"});
  ASSERT_TRUE(p.running());
  ASSERT_NE(WaitForNasperfFile(one.path(), 20), "");
  ASSERT_NE(WaitForNasperfFile(two.path(), 20), "");
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  ASSERT_TRUE(p.Signal(SIGINT));
  CliResult r = p.Finish(20);
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 130) << r.err;
  json doc;
  ASSERT_TRUE(ParseJson(r.out, &doc));
  ASSERT_EQ(doc["runs"].size(), 2u);
  for (const json& run : doc["runs"]) EXPECT_EQ(run["partial"], true) << run.dump(2);
  EXPECT_TRUE(DirEntries(one.path()).empty()) << ::testing::PrintToString(DirEntries(one.path()));
  EXPECT_TRUE(DirEntries(two.path()).empty()) << ::testing::PrintToString(DirEntries(two.path()));
}

}  // namespace
}  // namespace nasperf::e2e
