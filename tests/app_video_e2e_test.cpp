// `nasperf app video` end to end on a temporary directory: short streams that a local
// directory keeps up with (zero misses), --record and --find-max, the stored run, and bad
// input (one line, exit 2, nothing written).
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <thread>

#include "cli_harness.h"

namespace nasperf::e2e {
namespace {

struct VideoDirs {
  TempDir target;
  TempDir db_dir;
  std::string db() const { return db_dir.Sub("results.db"); }
};

std::vector<std::string> VideoArgs(const VideoDirs& d, std::vector<std::string> extra) {
  std::vector<std::string> args = {"app", "video", d.target.path(), "--db", d.db()};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

TEST(AppVideoE2e, TwoStreamsOnALocalDirectoryKeepUp) {
  VideoDirs d;
  CliResult r = RunNasperf(VideoArgs(d, {"--streams", "2", "--time", "2"}), 120);
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_TRUE(Contains(r.out, "video: 2 streams, 0 deadline misses")) << r.out;
  EXPECT_TRUE(Contains(r.out, "PASS (kept up)")) << r.out;
  EXPECT_TRUE(Contains(r.out, "stream  dir")) << r.out;  // the streams table (report/app_text)
  EXPECT_TRUE(Contains(r.out, "stored as run")) << r.out;
  EXPECT_TRUE(d.target.Entries().empty()) << "left behind: " << d.target.Entries().size();
}

// Ctrl-C before the streams' time is up: they kept up while they ran, so the run gives no
// verdict rather than a FAIL it did not measure.
TEST(AppVideoE2e, AStreamStoppedEarlyWithoutAMissGetsNoVerdict) {
  VideoDirs d;
  BackgroundProcess p = StartNasperf(VideoArgs(d, {"--streams", "1", "--time", "60"}));
  // The play file is staged (287 MiB, well under a second here), then streamed for 60 s.
  ASSERT_NE(WaitForNasperfFile(d.target.path(), 60), "");
  std::this_thread::sleep_for(std::chrono::seconds(6));
  ASSERT_TRUE(p.Signal(SIGINT));
  CliResult r = p.Finish(30);
  EXPECT_EQ(r.exit_code, 130) << r.err;
  EXPECT_FALSE(Contains(r.out, "did not keep up")) << r.out;
  EXPECT_TRUE(Contains(r.out, "no verdict: stopped early")) << r.out;
}

TEST(AppVideoE2e, JsonCarriesBothDirectionsOfAMix) {
  VideoDirs d;
  nlohmann::json doc = NasperfJson(VideoArgs(d, {"--streams", "2", "--time", "2", "--mix", "--json"}), 120);
  ASSERT_TRUE(doc.contains("runs")) << doc.dump();
  const nlohmann::json& run = doc["runs"][0];
  EXPECT_TRUE(HasRunShape(run));
  EXPECT_EQ(run["read"]["ios"], 10);
  EXPECT_EQ(run["write"]["ios"], 10);
  EXPECT_EQ(run["test"], "video mix 2x40Mbit");
  // A stream's file is open the whole run: no files/s (it was 0); the recording stream's
  // chunks are closed unflushed.
  EXPECT_FALSE(run["app"].contains("files_per_s")) << run["app"].dump(2);
  EXPECT_EQ(run["app"]["write_flush"], "none");
  EXPECT_TRUE(d.target.Entries().empty());
}

// Issue 33 item 5: video printed "0.0 files/s"; a figure that does not apply is "-". Its
// recording streams write without a flush, and the table says so.
TEST(AppVideoE2e, FilesPerSecondIsADashAndRecordingSaysItIsNotFlushed) {
  VideoDirs d;
  CliResult r = RunNasperf(VideoArgs(d, {"--streams", "1", "--time", "2", "--record"}), 120);
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_TRUE(Contains(r.out, " MB/s, - files/s")) << r.out;
  EXPECT_FALSE(Contains(r.out, "0.0 files/s")) << r.out;
  EXPECT_TRUE(Contains(r.out, "1 thread, writes not flushed (page cache)")) << r.out;
  EXPECT_TRUE(d.target.Entries().empty());
}

TEST(AppVideoE2e, JsonCarriesTheStreamsAndTheChunkLatency) {
  VideoDirs d;
  nlohmann::json doc = NasperfJson(VideoArgs(d, {"--streams", "2", "--time", "2", "--mix", "--json"}), 120);
  ASSERT_TRUE(doc.contains("runs")) << doc.dump();
  const nlohmann::json& run = doc["runs"][0];
  ASSERT_TRUE(run.contains("app")) << run.dump();
  const nlohmann::json& app = run["app"];
  EXPECT_EQ(app["workload"], "video");
  ASSERT_EQ(app["streams"].size(), 2u);
  EXPECT_EQ(app["streams"][0]["dir"], "play");
  EXPECT_EQ(app["streams"][1]["dir"], "record");
  for (const nlohmann::json& s : app["streams"]) EXPECT_EQ(s["deadline_misses"], 0) << s.dump();
  bool chunk = false;
  for (const nlohmann::json& op : app["ops"]) chunk = chunk || (op["op"] == "chunk" && op["count"] == 20);
  EXPECT_TRUE(chunk) << app.dump();
}

TEST(AppVideoE2e, RecordWritesNewFilesAndRemovesThem) {
  VideoDirs d;
  CliResult r = RunNasperf(VideoArgs(d, {"--streams", "3", "--time", "2", "--record"}), 120);
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_TRUE(Contains(r.out, "video: 3 streams, 0 deadline misses")) << r.out;
  EXPECT_TRUE(Contains(r.out, "record")) << r.out;
  EXPECT_TRUE(d.target.Entries().empty());
}

TEST(AppVideoE2e, FindMaxSearchesUpToItsCap) {
  VideoDirs d;
  // A local directory sustains two 40 Mbit/s streams: the search stops at --max-streams.
  CliResult r = RunNasperf(VideoArgs(d, {"--find-max", "--max-streams", "2", "--time", "2"}), 180);
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_TRUE(Contains(r.out, "find-max: 2 streams sustained with zero misses")) << r.out;
  EXPECT_TRUE(Contains(r.out, "find-max probe: 1 streams")) << r.out;
  EXPECT_TRUE(Contains(r.out, "find-max probe: 2 streams")) << r.out;
  EXPECT_TRUE(d.target.Entries().empty());
}

TEST(AppVideoE2e, BadInputIsOneLineExitTwoAndNothingWritten) {
  const std::vector<std::vector<std::string>> cases = {
      {"--streams", "0"},
      {"--streams", "-2"},
      {"--rate", "0"},
      {"--rate", "-5"},
      {"--rate", "fast"},
      {"--time", "0"},
      {"--play", "--record"},
      {"--max-streams", "0"},
      // 4096 streams x a day at 40 Mbit/s: no temporary directory holds 1.7 PB.
      {"--streams", "4096", "--time", "86400"},
  };
  for (const std::vector<std::string>& extra : cases) {
    VideoDirs d;
    CliResult r = RunNasperf(VideoArgs(d, extra));
    EXPECT_EQ(r.exit_code, 2) << Join(extra) << ": " << r.err;
    EXPECT_EQ(Lines(r.err).size(), 1u) << Join(extra) << ": " << r.err;
    EXPECT_TRUE(r.out.empty()) << Join(extra) << ": " << r.out;
    EXPECT_TRUE(d.target.Entries().empty()) << Join(extra);
  }
}

TEST(AppVideoE2e, ATargetThatIsNotADirectoryIsRefused) {
  VideoDirs d;
  ASSERT_TRUE(WriteFileBytes(d.target.Sub("file"), "x"));
  CliResult r = RunNasperf({"app", "video", d.target.Sub("file"), "--db", d.db(), "--time", "2"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
  EXPECT_EQ(d.target.Entries(), std::vector<std::string>{"file"});
}

}  // namespace
}  // namespace nasperf::e2e
