// Every run draws a fresh seed and `--seed` reproduces a run (issue 15, item 1), checked
// from outside: the "seed" of the JSON document, and the offsets nasperf asked the kernel
// for (strace -e pread64), with the binary as users run it.
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <regex>
#include <sstream>

#include "cli_harness.h"

namespace nasperf::e2e {
namespace {

using nlohmann::json;

std::vector<std::string> RunArgs(const std::string& file) {
  return {"run", file, "--engine", "psync", "--rw", "randread", "--bs", "4k", "--size", "64m", "--time", "1", "--json"};
}

json OneRun(const std::vector<std::string>& args) {
  json doc = NasperfJson(args);
  if (!doc.contains("runs") || doc["runs"].size() != 1) {
    ADD_FAILURE() << "no single run in: " << doc.dump();
    return json::object();
  }
  return doc["runs"][0];
}

// A 64 MiB file to read (sparse: reads of holes still go through pread64).
std::string MakeFile(const TempDir& dir) {
  std::string path = dir.path() + "/data.bin";
  WriteFileBytes(path, "");
  std::filesystem::resize_file(path, 64ull << 20);
  return path;
}

TEST(SeedE2e, TwoRunsDrawDifferentSeedsAndSeedGivesOneBack) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string file = MakeFile(dir);
  json first = OneRun(RunArgs(file));
  json second = OneRun(RunArgs(file));
  ASSERT_TRUE(first.contains("seed")) << first.dump(2);
  ASSERT_TRUE(second.contains("seed"));
  EXPECT_NE(first["seed"], second["seed"]);
  EXPECT_EQ(first["job"]["seed"], first["seed"]);

  std::vector<std::string> again = RunArgs(file);
  again.insert(again.end(), {"--seed", std::to_string(first["seed"].get<uint64_t>())});
  json third = OneRun(again);
  EXPECT_EQ(third["seed"], first["seed"]);
}

TEST(SeedE2e, RepeatsEachCarryTheirOwnSeed) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string file = MakeFile(dir);
  json run = OneRun(
      {"run", file, "--rw", "randread", "--bs", "4k", "--size", "4m", "--repeat", "3", "--seed", "77", "--json"});
  EXPECT_EQ(run["seed"], 77);
  ASSERT_EQ(run["repeats"]["each"].size(), 3u) << run.dump(2);
  EXPECT_EQ(run["repeats"]["each"][0]["seed"], 77);
  EXPECT_NE(run["repeats"]["each"][1]["seed"], run["repeats"]["each"][0]["seed"]);
  EXPECT_NE(run["repeats"]["each"][2]["seed"], run["repeats"]["each"][1]["seed"]);
}

TEST(SeedE2e, BadSeedIsOneLineAndExitTwo) {
  for (const char* bad : {"x", "-1", "9007199254740992", "123456789012345678"}) {
    CliResult r = RunNasperf({"run", "null:", "--seed", bad});
    EXPECT_EQ(r.exit_code, 2) << bad << ": " << r.err;
    EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
    EXPECT_TRUE(Contains(r.err, "--seed")) << r.err;
    EXPECT_TRUE(r.out.empty());
  }
}

// The offsets of the first `n` pread64 calls on `file`, as strace saw them.
std::vector<uint64_t> TracedOffsets(const std::string& file, const std::string& trace, size_t n) {
  std::vector<uint64_t> out;
  std::istringstream lines(ReadFileBytes(trace));
  std::regex call(R"(pread64\(\d+(<[^>]*>)?, .*, 4096, (\d+)\))");
  std::string line;
  std::smatch m;
  while (out.size() < n && std::getline(lines, line))
    if (std::regex_search(line, m, call)) out.push_back(std::stoull(m[2]));
  return out;
}

TEST(SeedE2e, StraceShowsFreshOffsetsAndSeedReproducesThem) {
  if (RunProgram("/usr/bin/strace", {"-o", "/dev/null", "/bin/true"}).exit_code != 0)
    NASPERF_SKIP_OR_FAIL("strace cannot trace here (ptrace not allowed)");
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string file = MakeFile(dir);
  auto traced = [&](const std::string& name, std::vector<std::string> extra, json* run) {
    std::string trace = dir.path() + "/" + name;
    std::vector<std::string> args = {"-f", "-qq", "-P", file, "-e", "trace=pread64", "-o", trace,
                                     // LeakSanitizer cannot run under ptrace (the asan pass)
                                     "-E", "ASAN_OPTIONS=detect_leaks=0", NasperfBinary()};
    for (const std::string& a : RunArgs(file)) args.push_back(a);
    args.insert(args.end(), extra.begin(), extra.end());
    CliResult r = RunProgram("/usr/bin/strace", args, 120);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    json doc = json::parse(r.out, nullptr, false);
    if (!doc.is_discarded() && doc.contains("runs")) *run = doc["runs"][0];
    return TracedOffsets(file, trace, 16);
  };
  json a, b, c;
  std::vector<uint64_t> first = traced("a.trace", {}, &a);
  std::vector<uint64_t> second = traced("b.trace", {}, &b);
  ASSERT_EQ(first.size(), 16u) << ReadFileBytes(dir.path() + "/a.trace").substr(0, 2000);
  ASSERT_EQ(second.size(), 16u);
  EXPECT_NE(first, second) << "two runs without --seed read the same offsets";
  ASSERT_TRUE(a.contains("seed"));
  std::vector<uint64_t> third = traced("c.trace", {"--seed", std::to_string(a["seed"].get<uint64_t>())}, &c);
  EXPECT_EQ(third, first) << "--seed " << a["seed"] << " did not reproduce the first run's offsets";
}

}  // namespace
}  // namespace nasperf::e2e
