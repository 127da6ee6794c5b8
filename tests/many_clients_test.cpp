// `mpirun -n 4 nasperf run DIR`: one merged result from rank 0, nothing from the others,
// the stonewall window inside every rank's own, a killed rank or Ctrl-C ending the run
// for all with a partial result stored and no file left behind. Skips when Open MPI's
// mpirun is absent (fails under CI=true).
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <thread>

#include "cli_harness.h"

namespace nasperf::e2e {
namespace {

std::string FindMpirun() {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "/usr/bin:/bin");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    const std::string candidate = dir + "/mpirun";
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

std::vector<std::string> Ranks(int n, const std::vector<std::string>& args) {
  std::vector<std::string> out = {"--allow-run-as-root", "--oversubscribe", "-n", std::to_string(n), NasperfBinary()};
  out.insert(out.end(), args.begin(), args.end());
  return out;
}

class ManyClients : public ::testing::Test {
 protected:
  void SetUp() override {
    mpirun_ = FindMpirun();
    if (mpirun_.empty()) NASPERF_SKIP_OR_FAIL_IN_CI("mpirun not found (apt-get install openmpi-bin libopenmpi-dev)");
    db_ = home_.path() + "/results.db";
  }
  CliResult Mpirun(int n, const std::vector<std::string>& args, double timeout_s = 120) {
    CliResult r = RunProgram(mpirun_, Ranks(n, args), timeout_s);
    if (Contains(r.err, "built without MPI")) ADD_FAILURE() << "this nasperf was built without MPI";
    return r;
  }
  // Each of `cases` (arguments, what stderr must say) is refused under 2 ranks, and
  // nothing is written: no own file in the directory, no database.
  void ExpectRefused(const std::vector<std::pair<std::vector<std::string>, std::string>>& cases) {
    for (const auto& [args, says] : cases) {
      CliResult r = Mpirun(2, args);
      EXPECT_NE(r.exit_code, 0) << says;
      EXPECT_TRUE(Contains(r.err, says)) << r.err;
    }
    EXPECT_TRUE(NasperfFiles(dir_.path()).empty());
    EXPECT_NE(::access(db_.c_str(), F_OK), 0) << "nothing stored";
  }
  // The one run rank 0 printed for `args` (which ask for --json) under 2 ranks: the other
  // rank prints nothing, so stdout is one document of one run. An empty object, with the
  // failure added, otherwise.
  nlohmann::json OneMergedRun(const std::vector<std::string>& args) {
    CliResult r = Mpirun(2, args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    nlohmann::json doc;
    if (!ParseJson(r.out, &doc) || !doc.contains("runs") || doc["runs"].size() != 1) {
      ADD_FAILURE() << "not one document of one run: " << r.out << r.err;
      return nlohmann::json::object();
    }
    return doc["runs"][0];
  }
  // The runs stored in the test's database.
  nlohmann::json Stored() { return NasperfJson({"results", "export", "--db", db_, "--json"}); }

  std::string mpirun_;
  TempDir dir_, home_;
  std::string db_;
};

TEST_F(ManyClients, FourRanksPrintAndStoreOneMergedResult) {
  CliResult r = Mpirun(
      4, {"run", dir_.path(), "--rw", "write", "--bs", "64k", "--size", "8m", "--time", "2s", "--json", "--db", db_});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json doc;
  ASSERT_TRUE(ParseJson(r.out, &doc)) << r.out;  // one document: the other ranks print nothing
  ASSERT_TRUE(HasDocumentShape(doc));
  ASSERT_EQ(doc["runs"].size(), 1u);
  const nlohmann::json& run = doc["runs"][0];
  EXPECT_FALSE(run["partial"].get<bool>()) << run.dump(2);
  const nlohmann::json& c = run["cluster"];
  ASSERT_EQ(c["ranks"], 4);
  ASSERT_EQ(c["each"].size(), 4u);
  EXPECT_TRUE(c["stonewall"].get<bool>());
  EXPECT_GE(c["start_skew_us"].get<double>(), 0);

  uint64_t bytes = 0, ios = 0;
  double mb_per_s = 0;
  const double window_start = c["first_done_s"].get<double>() - c["window_s"].get<double>();
  char host[256] = {};
  ASSERT_EQ(gethostname(host, sizeof host - 1), 0);
  for (const nlohmann::json& e : c["each"]) {
    ASSERT_TRUE(e["reported"].get<bool>()) << e.dump();
    // Per-rank inventory: its host; a local directory has no NIC in its path, so none.
    EXPECT_EQ(e["host"], std::string(host)) << e.dump();
    EXPECT_FALSE(e.contains("nic")) << e.dump();
    bytes += e["write"]["bytes"].get<uint64_t>();
    ios += e["write"]["ios"].get<uint64_t>();
    mb_per_s += e["write"]["mb_per_s"].get<double>();
    // The stonewall window lies inside every rank's own window, on the shared clock.
    const double start = e["start_offset_s"].get<double>(), end = start + e["seconds"].get<double>();
    EXPECT_GE(window_start, start - 1e-9) << e.dump();
    EXPECT_LE(c["first_done_s"].get<double>(), end + 1e-9) << e.dump();
  }
  EXPECT_GT(c["window_s"].get<double>(), 0);
  EXPECT_EQ(run["write"]["bytes"].get<uint64_t>(), bytes);
  EXPECT_EQ(run["write"]["ios"].get<uint64_t>(), ios);
  EXPECT_NEAR(run["write"]["mb_per_s"].get<double>(), mb_per_s, mb_per_s * 1e-9);
  // MB/s (the sum of rates) is not bytes / seconds (the window): a note says so, with both.
  char by_window[64];
  std::snprintf(by_window, sizeof by_window, "bytes / seconds = %.1f MB/s",
                bytes / run["write"]["seconds"].get<double>() / 1e6);
  bool related = false;
  for (const nlohmann::json& n : run["notes"]) {
    const std::string note = n.get<std::string>();
    related = related || (note.starts_with("total MB/s") && Contains(note, by_window));
  }
  EXPECT_TRUE(related) << by_window << " in " << run["notes"].dump();
  EXPECT_TRUE(NasperfFiles(dir_.path()).empty());

  nlohmann::json stored = Stored();
  ASSERT_EQ(stored["runs"].size(), 1u) << stored.dump(2);  // rank 0 stores; the others store nothing
  EXPECT_EQ(stored["runs"][0]["cluster"]["ranks"], 4);     // with its ranks
  EXPECT_EQ(stored["runs"][0]["cluster"]["each"].size(), 4u);
}

// Issue 19 item 6 under mpirun: the stonewall that stops the other rank when one finishes
// is a normal end, so each rank still syncs and verifies what it wrote. (Which rank the
// stonewall reaches before its own deadline is up to the machine; RankRunner's unit test
// pins the stop itself.)
TEST_F(ManyClients, StonewalledRanksStillFsyncAndVerify) {
  CliResult r = Mpirun(2, {"run", dir_.path(), "--rw", "write", "--bs", "64k", "--size", "4m", "--time", "1s",
                           "--fsync", "--verify", "--json", "--no-store"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json doc;
  ASSERT_TRUE(ParseJson(r.out, &doc)) << r.out;
  const nlohmann::json& run = doc["runs"][0];
  EXPECT_FALSE(run["partial"].get<bool>()) << run.dump(2);
  // Both ranks read back their whole 4 MiB file (each wrote it over at least once in 1 s).
  ASSERT_TRUE(run.contains("verified_bytes")) << run.dump(2);
  EXPECT_EQ(run["verified_bytes"].get<uint64_t>(), 2u * (4u << 20)) << run.dump(2);
  EXPECT_TRUE(NasperfFiles(dir_.path()).empty());
}

// Issue 20 item 1: ranks on one file or block device (a LUN) each get their own region,
// [r * span / N, (r + 1) * span / N) aligned to 4 KiB, recorded per rank and in a note.
// --stonewall off, so that each rank makes its whole pass and the bytes say where it went.
void ExpectOwnRegions(const nlohmann::json& run, int ranks, uint64_t span, const char* dir) {
  const nlohmann::json& c = run["cluster"];
  ASSERT_EQ(c["each"].size(), static_cast<size_t>(ranks)) << run.dump(2);
  const uint64_t each_bytes = span / ranks;
  for (int r = 0; r < ranks; ++r) {
    const nlohmann::json& e = c["each"][r];
    ASSERT_TRUE(e.contains("region")) << e.dump();
    EXPECT_EQ(e["region"]["offset_bytes"].get<uint64_t>(), r * each_bytes) << e.dump();
    EXPECT_EQ(e["region"]["bytes"].get<uint64_t>(), each_bytes) << e.dump();
    EXPECT_EQ(e[dir]["bytes"].get<uint64_t>(), each_bytes) << "one pass over its own region only: " << e.dump();
  }
  EXPECT_EQ(run[dir]["bytes"].get<uint64_t>(), span) << "together the ranks moved the span once";
  bool noted = false;
  for (const nlohmann::json& n : run["notes"])
    noted = noted || Contains(n.get<std::string>(), "one target shared by the ranks: each used its own region");
  EXPECT_TRUE(noted) << run["notes"].dump();
}

TEST_F(ManyClients, RanksReadingOneFileEachReadTheirOwnRegion) {
  const std::string file = dir_.Sub("lun.img");
  ASSERT_TRUE(WriteFileBytes(file, std::string(16u << 20, 'x')));
  CliResult r = Mpirun(4, {"run", file, "--rw", "read", "--bs", "64k", "--stonewall", "off", "--json", "--no-store"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json doc;
  ASSERT_TRUE(ParseJson(r.out, &doc)) << r.out;
  ExpectOwnRegions(doc["runs"][0], 4, 16u << 20, "read");
}

TEST_F(ManyClients, RanksWritingOneBlockDeviceEachWriteTheirOwnRegion) {
  if (!IsRoot()) NASPERF_SKIP_OR_FAIL_IN_CI("needs root to attach a loop device");
  const std::string backing = dir_.Sub("disk.img");
  const std::string zeros(16u << 20, '\0');
  ASSERT_TRUE(WriteFileBytes(backing, zeros));
  ScopedLoopDevice loop(backing);
  if (!loop.ok()) NASPERF_SKIP_OR_FAIL_IN_CI("cannot attach a loop device: " + loop.error());
  CliResult r = Mpirun(2, {"run", loop.device(), "--rw", "write", "--bs", "64k", "--direct", "--allow-destructive",
                           loop.device(), "--stonewall", "off", "--json", "--no-store"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json doc;
  ASSERT_TRUE(ParseJson(r.out, &doc)) << r.out;
  ExpectOwnRegions(doc["runs"][0], 2, 16u << 20, "write");
  // Every 64 KiB block of the device was written, by one rank or the other.
  const std::string after = ReadFileBytes(backing);
  ASSERT_EQ(after.size(), zeros.size());
  for (size_t at = 0; at < after.size(); at += 65536)
    EXPECT_NE(after.compare(at, 65536, zeros, 0, 65536), 0) << "block at " << at << " never written";
}

TEST_F(ManyClients, TableShowsRanksAndStonewallOffSaysSo) {
  CliResult r = Mpirun(2, {"run", dir_.path(), "--rw", "read", "--bs", "64k", "--size", "4m", "--time", "1s",
                           "--stonewall", "off", "--db", db_});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Contains(r.out, "ranks: 2 (mpirun)")) << r.out;
  EXPECT_TRUE(Contains(r.out, "stonewall off: each rank ran its whole job")) << r.out;
  EXPECT_TRUE(Contains(r.out, "nic: none known on any rank (a local target has no NIC in its path)")) << r.out;
  CliResult shown = RunNasperf({"results", "show", "1", "--db", db_});
  EXPECT_EQ(shown.exit_code, 0) << shown.err;
  EXPECT_TRUE(Contains(shown.out, "nic: none known on any rank")) << shown.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n') > 0, true);
  // One table: the header line appears once, from rank 0.
  size_t first = r.out.find("MB/s"), again = r.out.find("read 64 KiB", first);
  EXPECT_EQ(again, std::string::npos) << r.out;
  EXPECT_TRUE(NasperfFiles(dir_.path()).empty());
}

// Issue 33 item 6: a paced, mixed-size, buffered read under 2 ranks. --rate-iops is the
// job's total, so each rank paces 200 and the run moves ~400 (it moved 801 for 400); the
// merged run keeps its pacing facts and service times, its per-size rows, and each rank's
// own seed and cold-read check in cluster.each[].
TEST_F(ManyClients, PacedMixedRunKeepsEveryRanksFacts) {
  nlohmann::json run = OneMergedRun({"run", dir_.path(), "--rw", "randread", "--bs", "4k/50:64k/50", "--size", "8m",
                                     "--time", "2s", "--rate-iops", "400", "--json", "--db", db_});
  ASSERT_TRUE(run.contains("read") && run.contains("pacing")) << run.dump(2);
  const nlohmann::json& p = run["pacing"];
  EXPECT_DOUBLE_EQ(run["job"]["rate_iops"].get<double>(), 400) << "the job's total, as asked";
  EXPECT_NEAR(p["target_iops"].get<double>(), 400, 1e-6);
  EXPECT_EQ(p["ranks"], 2);
  EXPECT_EQ(p["rates_are"], "job total over all ranks and threads");
  EXPECT_NEAR(p["per_rank_target_iops"].get<double>(), 200, 1e-6);
  // 200 IOPS per rank is far below what a local file gives: the pacing sets the rate.
  EXPECT_NEAR(run["read"]["iops"].get<double>(), 400, 400 * 0.05) << p.dump(2);
  EXPECT_NEAR(p["achieved_iops"].get<double>(), run["read"]["iops"].get<double>(), 1e-6);
  ASSERT_TRUE(p.contains("read_service_us")) << p.dump(2);
  EXPECT_GE(run["read"]["lat_us"]["mean"].get<double>(), p["read_service_us"]["mean"].get<double>());
  ASSERT_TRUE(run.contains("per_size")) << run.dump(2);
  ASSERT_EQ(run["per_size"].size(), 2u);
  uint64_t size_ios = 0;
  for (const nlohmann::json& size : run["per_size"]) size_ios += size["read"]["ios"].get<uint64_t>();
  EXPECT_EQ(size_ios, run["read"]["ios"].get<uint64_t>()) << "the sizes add up to the merged reads";
  const nlohmann::json& each = run["cluster"]["each"];
  ASSERT_EQ(each.size(), 2u);
  for (const nlohmann::json& e : each) {
    EXPECT_TRUE(e.contains("seed")) << e.dump();
    EXPECT_TRUE(e.contains("cold_read")) << e.dump();
  }
  EXPECT_NE(each[0]["seed"], each[1]["seed"]) << "each rank draws its own";
  EXPECT_FALSE(run["job"].contains("seed")) << "no one rank's seed reruns the merged run";
  for (const nlohmann::json& n : run["notes"]) EXPECT_NE(n, each[0]["cold_read"]) << "rank 0's check as the run's";

  CliResult shown = RunNasperf({"results", "show", "1", "--db", db_});
  ASSERT_EQ(shown.exit_code, 0) << shown.err;
  EXPECT_TRUE(Contains(shown.out, "service time, from each I/O's submit (the latencies above are from its intended "
                                  "start):"))
      << shown.out;
  EXPECT_TRUE(Contains(shown.out, "the job's total over 2 ranks x 1 thread, 200 per thread")) << shown.out;
  EXPECT_TRUE(Contains(shown.out, "rank 1: seed " + std::to_string(each[1]["seed"].get<uint64_t>()))) << shown.out;
  EXPECT_TRUE(Contains(shown.out, "4K read")) << shown.out;
  EXPECT_TRUE(NasperfFiles(dir_.path()).empty());
}

TEST_F(ManyClients, BadStonewallValueIsOneLineAndExitTwo) {
  CliResult r = Mpirun(2, {"run", dir_.path(), "--stonewall", "maybe", "--db", db_});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_TRUE(Contains(r.err, "--stonewall: 'maybe' is neither on nor off")) << r.err;
  EXPECT_TRUE(NasperfFiles(dir_.path()).empty());
}

TEST_F(ManyClients, OtherCommandsAreRefusedUnderMpirun) {
  CliResult r = Mpirun(2, {"sweep", dir_.path(), "--db", db_});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_TRUE(Contains(r.err, "under mpirun only `nasperf run`, `nasperf quick` and `nasperf app")) << r.err;
  EXPECT_TRUE(NasperfFiles(dir_.path()).empty());
}

// quick under mpirun: its eight tests run in lockstep, each one merged run of every rank,
// printed once and stored by rank 0; its median of 3 becomes one run per test.
TEST_F(ManyClients, QuickRunsEachTestOnEveryRankAndStoresTheEightMergedRuns) {
  CliResult r = Mpirun(2, {"quick", dir_.path(), "--size", "4m", "--time", "1s", "--db", db_});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Contains(r.out, "one run per test on each of 2 ranks (mpirun)")) << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n') > 8, true) << r.out;
  size_t first = r.out.find("nasperf quick"), again = r.out.find("nasperf quick", first + 1);
  EXPECT_EQ(again, std::string::npos) << "one table, from rank 0: " << r.out;
  EXPECT_TRUE(Contains(r.out, "SEQ1M Q8T1 read: 2 ranks, start skew")) << r.out;
  EXPECT_TRUE(Contains(r.out, "RND4K Q1T1 write: 2 ranks, start skew")) << r.out;
  EXPECT_TRUE(NasperfFiles(dir_.path()).empty()) << ::testing::PrintToString(NasperfFiles(dir_.path()));
  nlohmann::json stored = Stored();
  ASSERT_EQ(stored["runs"].size(), 8u) << r.err;
  for (const nlohmann::json& run : stored["runs"]) {
    EXPECT_FALSE(run["partial"].get<bool>()) << run.dump(2);
    EXPECT_EQ(run["job"]["repeat"], 1) << run["job"].dump();
    ASSERT_EQ(run["cluster"]["ranks"], 2) << run.dump(2);
    ASSERT_EQ(run["cluster"]["each"].size(), 2u);
    uint64_t bytes = 0;
    const char* direction = run.contains("read") ? "read" : "write";
    for (const nlohmann::json& e : run["cluster"]["each"]) bytes += e[direction]["bytes"].get<uint64_t>();
    EXPECT_EQ(run[direction]["bytes"].get<uint64_t>(), bytes) << run["test"];
  }
}

TEST_F(ManyClients, QuickRefusesWhatRanksCannotDoInOneLine) {
  ExpectRefused({
      {{"quick", dir_.path(), "--size", "4m", "--repeat", "3", "--db", db_}, "--repeat above 1 is not supported"},
      {{"quick", dir_.path(), "--size", "4m", "--fill", "10", "--db", db_}, "--fill is not supported"},
  });
}

// app file-copy and dir-copy under mpirun: every rank copies its own dataset into its own
// workspace after one start barrier; rank 0 prints and stores each run merged: the bytes
// of every rank over the span from the first start to the last end.
TEST_F(ManyClients, AppCopiesMergeEveryRanksBytesOverTheirSpan) {
  CliResult r = Mpirun(2, {"app", "file-copy", "--to", dir_.path(), "--size", "8m", "--json", "--db", db_});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json doc;
  ASSERT_TRUE(ParseJson(r.out, &doc)) << r.out;  // one document: the other rank prints nothing
  ASSERT_EQ(doc["runs"].size(), 1u);
  const nlohmann::json& run = doc["runs"][0];
  EXPECT_FALSE(run["partial"].get<bool>()) << run.dump(2);
  EXPECT_EQ(run["app"]["bytes"], 2u * (8u << 20));
  EXPECT_EQ(run["app"]["files"], 2u);
  ASSERT_EQ(run["cluster"]["ranks"], 2);
  const double span = run["cluster"]["last_done_s"].get<double>();
  EXPECT_NEAR(run["app"]["elapsed_s"].get<double>(), span, 0.002) << run["cluster"].dump(2);
  uint64_t writes = 0;
  for (const nlohmann::json& o : run["app"]["ops"])
    if (o["op"] == "write") writes = o["count"].get<uint64_t>();
  EXPECT_EQ(writes, 16u) << "both ranks' 1 MiB writes, from the summed histograms";
  EXPECT_TRUE(NasperfFiles(dir_.path()).empty());

  CliResult tree = Mpirun(2, {"app", "dir-copy", "--to", dir_.path(), "--preset", "small-files", "--scale", "0.01",
                              "--repeat", "2", "--db", db_});
  ASSERT_EQ(tree.exit_code, 0) << tree.err;
  EXPECT_TRUE(Contains(tree.out, "ranks: 2 (mpirun)")) << tree.out;
  EXPECT_TRUE(NasperfFiles(dir_.path()).empty());
  nlohmann::json stored = Stored();
  // file-copy, then per repeat the reference file-copy and the dir-copy: 5 merged runs.
  ASSERT_EQ(stored["runs"].size(), 5u) << tree.err;
  for (const nlohmann::json& s : stored["runs"]) EXPECT_EQ(s["cluster"]["ranks"], 2) << s["name"];
}

// office and photo-album: every rank stages and runs its own workspace from one barrier;
// rank 0's one result holds every rank's operations, from the summed histograms.
TEST_F(ManyClients, OfficeAndPhotoAlbumMergeEveryRanksOperations) {
  const nlohmann::json office = OneMergedRun(
      {"app", "office", dir_.path(), "--users", "2", "--time", "2s", "--think", "20", "--json", "--db", db_});
  ASSERT_FALSE(office.empty());
  EXPECT_FALSE(office["partial"].get<bool>()) << office.dump(2);
  ASSERT_EQ(office["cluster"]["ranks"], 2);
  EXPECT_EQ(office["cluster"]["each"].size(), 2u) << office["cluster"].dump(2);
  uint64_t ops = 0;
  for (const nlohmann::json& o : office["app"]["ops"]) ops += o["count"].get<uint64_t>();
  EXPECT_GT(ops, 0u);
  const double elapsed = office["app"]["elapsed_s"].get<double>();
  EXPECT_GE(elapsed, 2.0);
  EXPECT_NEAR(office["app"]["ops_per_s"].get<double>(), ops / elapsed, 1e-6 * ops) << "every rank's ops over the span";
  EXPECT_TRUE(NasperfFiles(dir_.path()).empty());

  const nlohmann::json photos =
      OneMergedRun({"app", "photo-album", dir_.path(), "--photos", "3", "--json", "--db", db_});
  ASSERT_FALSE(photos.empty());
  EXPECT_EQ(photos["app"]["files"], 6u) << "three photos on each of two ranks";
  uint64_t reads = 0;
  for (const nlohmann::json& o : photos["app"]["ops"])
    if (o["op"] == "read-photo") reads = o["count"].get<uint64_t>();
  EXPECT_EQ(reads, 6u);
  EXPECT_EQ(photos["cluster"]["ranks"], 2);
  EXPECT_TRUE(NasperfFiles(dir_.path()).empty());
  EXPECT_EQ(Stored()["runs"].size(), 2u) << "rank 0 stored one run per command";
}

// backup and restore: every rank packs its own tree into its own image; rank 0's result
// is every rank's image bytes over the span, the write (backup) or read (restore)
// direction summed over the ranks.
TEST_F(ManyClients, BackupAndRestoreMergeEveryRanksImage) {
  for (const std::string workload : {"backup", "restore"}) {
    const nlohmann::json run =
        OneMergedRun({"app", workload, dir_.path(), "--scale", "0.02", "--seed", "7", "--json", "--db", db_});
    ASSERT_FALSE(run.empty()) << workload;
    EXPECT_FALSE(run["partial"].get<bool>()) << run.dump(2);
    ASSERT_EQ(run["cluster"]["ranks"], 2);
    const nlohmann::json& each = run["cluster"]["each"];
    ASSERT_EQ(each.size(), 2u);
    const char* dir = workload == "backup" ? "write" : "read";
    // --seed 7 on both ranks: the same tree, so the same image size on each.
    const uint64_t image = run["app"]["bytes"].get<uint64_t>();
    ASSERT_GT(image, 0u);
    EXPECT_EQ(each[0][dir]["bytes"].get<uint64_t>() + each[1][dir]["bytes"].get<uint64_t>(), image) << workload;
    EXPECT_EQ(each[0][dir]["bytes"], each[1][dir]["bytes"]) << workload;
    EXPECT_EQ(run[dir]["bytes"].get<uint64_t>(), image) << workload;
    EXPECT_NEAR(run["app"]["elapsed_s"].get<double>(), run["cluster"]["last_done_s"].get<double>(), 0.002);
    EXPECT_NEAR(run["app"]["mb_per_s"].get<double>(), image / run["app"]["elapsed_s"].get<double>() / 1e6, 1e-6);
    EXPECT_TRUE(NasperfFiles(dir_.path()).empty()) << workload;
  }
}

// video: every rank plays its own streams from one barrier; rank 0's run lists every
// stream of every rank, numbered on, and the chunks' latencies from the summed histograms.
TEST_F(ManyClients, VideoListsEveryRanksStreams) {
  const nlohmann::json run = OneMergedRun(
      {"app", "video", dir_.path(), "--streams", "2", "--time", "2", "--rate", "8", "--json", "--db", db_});
  ASSERT_FALSE(run.empty());
  EXPECT_FALSE(run["partial"].get<bool>()) << run.dump(2);
  ASSERT_EQ(run["cluster"]["ranks"], 2);
  const nlohmann::json& streams = run["app"]["streams"];
  ASSERT_EQ(streams.size(), 4u) << "two streams on each of two ranks";
  uint64_t chunks = 0;
  for (size_t i = 0; i < streams.size(); ++i) {
    EXPECT_EQ(streams[i]["index"], i);
    chunks += streams[i]["chunks"].get<uint64_t>();
  }
  uint64_t timed = 0;
  for (const nlohmann::json& o : run["app"]["ops"])
    if (o["op"] == "chunk") timed = o["count"].get<uint64_t>();
  EXPECT_EQ(timed, chunks) << "every rank's chunks in the merged histogram";
  EXPECT_EQ(run["app"]["threads"], 4u);
  bool rank_note = false;  // the note on the streams is rank 0's own, and says so
  for (const nlohmann::json& n : run["notes"])
    rank_note |= n.get<std::string>().rfind("rank 0's own: 2 streams", 0) == 0;
  EXPECT_TRUE(rank_note) << run["notes"].dump(2);
  EXPECT_TRUE(NasperfFiles(dir_.path()).empty());
}

TEST_F(ManyClients, AppRefusesWhatRanksCannotDoInOneLine) {
  ExpectRefused({
      {{"app", "video", dir_.path(), "--find-max", "--db", db_}, "--find-max is not supported"},
      {{"app", "file-copy", "--to", dir_.path(), "--fill", "10", "--db", db_}, "--fill is not supported"},
      {{"app", "office", dir_.path(), "--fill", "10", "--db", db_}, "--fill is not supported"},
      {{"app", "backup", dir_.path(), "--fill", "10", "--db", db_}, "--fill is not supported"},
      {{"app", "dir-copy", "--to", "bench", "--on", "127.0.0.1:1", "--db", db_}, "--on is not supported"},
  });
}

// The PID in a rank's file name (".nasperf-host-PID-nonce-r<rank>t0.dat", or its app
// workspace's "-r<rank>app0.dir" with `tag_after` "app"), 0 when none yet.
pid_t PidOfRank(const std::string& dir, int rank, const std::string& tag_after = "t") {
  const std::string tag = "-r" + std::to_string(rank) + tag_after;
  for (const std::string& name : NasperfFiles(dir)) {
    if (name.find(tag) == std::string::npos) continue;
    // From the right: role, nonce, pid.
    size_t role = name.rfind('-'), nonce = name.rfind('-', role - 1), pid = name.rfind('-', nonce - 1);
    return static_cast<pid_t>(std::stol(name.substr(pid + 1, nonce - pid - 1)));
  }
  return 0;
}

pid_t WaitForRank(const std::string& dir, int rank, double timeout_s, const std::string& tag_after = "t") {
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  while (std::chrono::steady_clock::now() < until) {
    if (pid_t pid = PidOfRank(dir, rank, tag_after)) return pid;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return 0;
}

TEST_F(ManyClients, KilledRankEndsTheRunPartialAndLeavesNoFiles) {
  BackgroundProcess p = StartProgram(mpirun_, Ranks(4, {"run", dir_.path(), "--rw", "write", "--bs", "64k", "--size",
                                                        "8m", "--time", "60s", "--json", "--db", db_}));
  const pid_t victim = WaitForRank(dir_.path(), 2, 60);
  ASSERT_GT(victim, 0) << "rank 2's file never appeared";
  std::this_thread::sleep_for(std::chrono::seconds(1));  // the ranks are running now
  ASSERT_EQ(kill(victim, SIGKILL), 0);
  CliResult r = p.Finish(30);
  EXPECT_FALSE(r.timed_out) << r.err;
  EXPECT_LT(r.elapsed_s, 20) << r.err;  // nowhere near the 60 s asked
  EXPECT_NE(r.exit_code, 0);
  EXPECT_TRUE(NasperfFiles(dir_.path()).empty()) << ::testing::PrintToString(NasperfFiles(dir_.path()));
  nlohmann::json stored = Stored();
  ASSERT_EQ(stored["runs"].size(), 1u) << r.err;
  const nlohmann::json& run = stored["runs"][0];
  EXPECT_TRUE(run["partial"].get<bool>());
  EXPECT_TRUE(Contains(run.value("error", ""), "rank 2")) << run.dump(2);
}

// A rank killed in the middle of its copy cannot remove its workspace: rank 0 does, by
// that rank's own prefix, after storing the merged run as partial.
TEST_F(ManyClients, AKilledRankOfAnAppCopyLeavesNoWorkspace) {
  BackgroundProcess p = StartProgram(
      mpirun_, Ranks(2, {"app", "file-copy", "--to", dir_.path(), "--size", "4g", "--json", "--db", db_}));
  const pid_t victim = WaitForRank(dir_.path(), 1, 60, "app");
  ASSERT_GT(victim, 0) << "rank 1's workspace never appeared";
  std::this_thread::sleep_for(std::chrono::seconds(1));
  ASSERT_EQ(kill(victim, SIGKILL), 0);
  CliResult r = p.Finish(30);
  EXPECT_FALSE(r.timed_out) << r.err;
  EXPECT_NE(r.exit_code, 0);
  EXPECT_TRUE(NasperfFiles(dir_.path()).empty()) << ::testing::PrintToString(NasperfFiles(dir_.path()));
  nlohmann::json stored = Stored();
  ASSERT_EQ(stored["runs"].size(), 1u) << r.err;
  EXPECT_TRUE(stored["runs"][0]["partial"].get<bool>());
  EXPECT_TRUE(Contains(stored["runs"][0].value("error", ""), "rank 1")) << stored["runs"][0].dump(2);
}

TEST_F(ManyClients, CtrlCOnMpirunStoresAPartialRunAndLeavesNoFiles) {
  BackgroundProcess p = StartProgram(mpirun_, Ranks(4, {"run", dir_.path(), "--rw", "write", "--bs", "64k", "--size",
                                                        "8m", "--time", "60s", "--json", "--db", db_}));
  ASSERT_GT(WaitForRank(dir_.path(), 3, 60), 0);
  std::this_thread::sleep_for(std::chrono::seconds(1));
  ASSERT_TRUE(p.Signal(SIGINT));
  CliResult r = p.Finish(30);
  EXPECT_FALSE(r.timed_out) << r.err;
  EXPECT_LT(r.elapsed_s, 20) << r.err;
  EXPECT_TRUE(NasperfFiles(dir_.path()).empty()) << ::testing::PrintToString(NasperfFiles(dir_.path()));
  nlohmann::json stored = Stored();
  ASSERT_EQ(stored["runs"].size(), 1u) << r.err;
  EXPECT_TRUE(stored["runs"][0]["partial"].get<bool>());
}

}  // namespace
}  // namespace nasperf::e2e
