// E2E tests of `run --fio-job FILE` and `run --iometer FILE --spec NAME`: the file's job
// runs as if its settings were typed (the command line still wins), and a bad file is
// refused with exit 2, one stderr line naming file, line and key, and nothing written.
#include <string>
#include <vector>

#include "cli_harness.h"

namespace nasperf::e2e {
namespace {

void ExpectRefused(const std::vector<std::string>& args, const std::string& dir, const std::string& line) {
  const std::vector<std::string> before = DirEntries(dir);
  SCOPED_TRACE(Join(args));
  CliResult r = RunNasperf(args, 30);
  EXPECT_EQ(r.term_signal, 0);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(Lines(r.err), (std::vector<std::string>{"nasperf: " + line}));
  EXPECT_EQ(DirEntries(dir), before);
}

std::string IcfWithOneSpec(const std::string& spec_line, const std::string& outstanding) {
  return "Version 1.1.0\r\n'ACCESS SPECIFICATIONS ====\r\n'Access specification name,default assignment\r\n"
         "\tRead 4K,NONE\r\n'size,% of size,% reads,% random,delay,burst,align,reply\r\n\t" +
         spec_line +
         "\r\n'END access specifications\r\n'MANAGER LIST ====\r\n'Worker\r\n\tWorker 1\r\n"
         "'Default target settings for worker\r\n'Number of outstanding IOs,test connection rate,transactions per "
         "connection\r\n\t" +
         outstanding + ",DISABLED,1\r\n'Assigned access specs\r\n\tRead 4K\r\n'End assigned access specs\r\n";
}

TEST(SpecJobFileE2e, RunsAFioJobFilesJobOnItsDirectory) {
  TempDir target, files;
  const std::string job = files.path() + "/one.fio";
  ASSERT_TRUE(WriteFileBytes(
      job, "[global]\ndirectory=" + target.path() + "\nsize=1m\n\n[rr]\nrw=randread\nbs=8k\nnumjobs=2\n"));
  nlohmann::json doc = NasperfJson({"run", "--fio-job", job, "--no-store", "--json"});
  ASSERT_TRUE(doc.contains("runs")) << doc.dump();
  const nlohmann::json& run = doc["runs"][0];
  EXPECT_EQ(run["name"], "rr");
  EXPECT_EQ(run["target"], target.path());
  EXPECT_EQ(run["job"]["rw"], "randread");
  EXPECT_EQ(run["job"]["bs"], 8192);
  EXPECT_EQ(run["job"]["threads"], 2);
  EXPECT_EQ(run["job"]["size"], 1048576);
  EXPECT_EQ(run["job"]["engine"], "psync");  // fio's default engine, not nasperf's auto
  EXPECT_EQ(TotalBytes(run), 2u * 1048576);  // one pass of each thread's file
  EXPECT_EQ(NasperfFiles(target.path()), std::vector<std::string>{});
}

TEST(SpecJobFileE2e, FiosPacingKeysBecomeRunsPacingInItsUnits) {
  TempDir target, files;
  const std::string job = files.path() + "/paced.fio";
  // rate=1m is 1048576 B/s per clone: 2.097152 MB/s for numjobs=2; thinktime is in us.
  ASSERT_TRUE(WriteFileBytes(job,
                             "[paced]\nrw=randread\nbs=4k\nsize=1m\nnumjobs=2\nrate=1m\nthinktime=1500\n"
                             "thinktime_blocks=8\n"));
  nlohmann::json doc = NasperfJson({"run", target.path(), "--fio-job", job, "--no-store", "--json"});
  ASSERT_TRUE(doc.contains("runs")) << doc.dump();
  const nlohmann::json& j = doc["runs"][0]["job"];
  EXPECT_DOUBLE_EQ(j.value("rate_mb_per_s", 0.0), 2.097152) << j.dump();
  EXPECT_DOUBLE_EQ(j.value("think_s", 0.0), 0.0015) << j.dump();
  EXPECT_EQ(j.value("burst", 0), 8) << j.dump();
}

TEST(SpecJobFileE2e, TheCommandLineWinsOverTheFile) {
  TempDir target, files;
  const std::string job = files.path() + "/one.fio";
  ASSERT_TRUE(WriteFileBytes(job, "[rr]\nrw=randread\nbs=8k\nsize=1m\ndirectory=/nonexistent\n"));
  nlohmann::json doc = NasperfJson({"run", target.path(), "--fio-job", job, "--bs", "4k", "--no-store", "--json"});
  ASSERT_TRUE(doc.contains("runs")) << doc.dump();
  EXPECT_EQ(doc["runs"][0]["target"], target.path());
  EXPECT_EQ(doc["runs"][0]["job"]["bs"], 4096);
}

TEST(SpecJobFileE2e, RunsAnIometerSpecAtItsWorkersOutstandingIos) {
  TempDir target, files;
  const std::string icf = files.path() + "/bench.icf";
  ASSERT_TRUE(WriteFileBytes(icf, IcfWithOneSpec("4096,100,100,0,0,1,0,0", "4")));
  nlohmann::json doc = NasperfJson(
      {"run", target.path(), "--iometer", icf, "--spec", "Read 4K", "--size", "256k", "--no-store", "--json"});
  ASSERT_TRUE(doc.contains("runs")) << doc.dump();
  const nlohmann::json& run = doc["runs"][0];
  EXPECT_EQ(run["name"], "Read 4K");
  EXPECT_EQ(run["job"]["rw"], "read");
  EXPECT_EQ(run["job"]["bs"], 4096);
  EXPECT_EQ(run["job"]["qd"], 4);
  // --qd on the command line applies instead of the worker's.
  nlohmann::json two = NasperfJson({"run", target.path(), "--iometer", icf, "--spec", "Read 4K", "--size", "256k",
                                    "--qd", "2", "--no-store", "--json"});
  ASSERT_TRUE(two.contains("runs")) << two.dump();
  EXPECT_EQ(two["runs"][0]["job"]["qd"], 2);
}

// Issue 33 item 3: every worker assigned the spec is a thread at its own depth, unbuffered
// as Iometer is, the workers of one depth sharing one file; two depths are two jobs of one
// group, and the options typed on the command line apply to both.
TEST(SpecJobFileE2e, AnIometerSpecRunsEveryWorkerAtItsOwnDepth) {
  TempDir target, files;
  const std::string icf = files.path() + "/bench.icf";
  std::string text = IcfWithOneSpec("4096,100,100,100,0,1,0,0", "2");
  for (const char* depth : {"2", "4"})
    text += std::string("'End worker\r\n'Worker\r\n\tWorker\r\n'Number of outstanding IOs,test connection rate\r\n\t") +
            depth + ",DISABLED\r\n'Assigned access specs\r\n\tRead 4K\r\n'End assigned access specs\r\n";
  ASSERT_TRUE(WriteFileBytes(icf, text));
  nlohmann::json doc = NasperfJson({"run", target.path(), "--iometer", icf, "--spec", "Read 4K", "--size", "256k",
                                    "--time", "1s", "--no-store", "--json"});
  ASSERT_TRUE(doc.contains("runs")) << doc.dump();
  ASSERT_EQ(doc["runs"].size(), 2u) << doc.dump();
  const nlohmann::json& two = doc["runs"][0]["job"];
  const nlohmann::json& four = doc["runs"][1]["job"];
  EXPECT_EQ(two["qd"], 2);
  EXPECT_EQ(two["threads"], 2);
  EXPECT_EQ(two["shared_file"], true);
  EXPECT_EQ(four["qd"], 4);
  EXPECT_EQ(four["threads"], 1);
  for (const nlohmann::json* job : {&two, &four}) {
    EXPECT_EQ((*job)["direct"], true) << "Iometer's I/O is unbuffered";
    EXPECT_EQ((*job)["align"], 512) << "alignment 0 is the sector's";
    EXPECT_EQ((*job)["size"], 256 * 1024) << "the command line's --size applies to every job";
  }
  const std::string notes = doc["runs"][1]["notes"].dump();
  EXPECT_NE(notes.find("unbuffered"), std::string::npos) << notes;
  EXPECT_NE(notes.find("2 queue depths: one job per depth"), std::string::npos) << notes;
  // A typed option that does not parse is refused as typed, before anything runs.
  ExpectRefused({"run", target.path(), "--iometer", icf, "--spec", "Read 4K", "--qd", "deep"}, target.path(),
                "--qd: 'deep' is not a whole number");
}

// Issue 19's done-when: a vendor's spec (67 % reads, 100 % random, 4 KiB and 64 KiB half
// each, 16 outstanding) runs from the .icf Iometer saved, with each size's own figures.
// tests/lab/nfs_lab_test.sh runs the same spec on the lab's NFS export.
TEST(SpecJobFileE2e, AVendorsSpecRunsFromItsIcfWithEachSizesReadsAndWrites) {
  TempDir target;
  const std::string icf = NASPERF_SOURCE_DIR "/src/jobfile/testdata/several_specs.icf";
  nlohmann::json doc = NasperfJson({"run", target.path(), "--iometer", icf, "--spec",
                                    "Vendor 4K-64K; 67% Read; 100% random", "--size", "32m", "--no-store", "--json"});
  ASSERT_TRUE(doc.contains("runs")) << doc.dump();
  const nlohmann::json& run = doc["runs"][0];
  EXPECT_EQ(run["name"], "Vendor 4K-64K; 67% Read; 100% random");
  EXPECT_EQ(run["job"]["rw"], "randrw");
  EXPECT_EQ(run["job"]["mix_read_pct"], 67);
  EXPECT_EQ(run["job"]["bs_split"], nlohmann::json::parse(R"([{"bs":4096,"pct":50},{"bs":65536,"pct":50}])"));
  EXPECT_EQ(run["job"]["qd"], 16);      // Worker 1's outstanding I/Os, the worker the spec is assigned to
  EXPECT_EQ(run["job"]["qd_run"], 16);  // and what ran
  ASSERT_EQ(run["per_size"].size(), 2u) << run.dump(2);
  EXPECT_EQ(run["per_size"][0]["bs"], 4096);
  EXPECT_EQ(run["per_size"][1]["bs"], 65536);
  uint64_t reads = 0, writes = 0, read_bytes = 0;
  for (const nlohmann::json& size : run["per_size"]) {
    ASSERT_TRUE(size.contains("read") && size.contains("write")) << size.dump();
    EXPECT_GT(size["read"]["mb_per_s"].get<double>(), 0);
    EXPECT_GT(size["write"]["mb_per_s"].get<double>(), 0);
    reads += size["read"]["ios"].get<uint64_t>();
    writes += size["write"]["ios"].get<uint64_t>();
    read_bytes += size["read"]["bytes"].get<uint64_t>();
  }
  EXPECT_EQ(reads, run["read"]["ios"].get<uint64_t>());
  EXPECT_EQ(writes, run["write"]["ios"].get<uint64_t>());
  EXPECT_EQ(read_bytes, run["read"]["bytes"].get<uint64_t>());
  // About 1,000 I/Os in 32 MiB: 67 % reads give or take 1.5 % (one sigma).
  EXPECT_NEAR(100.0 * static_cast<double>(reads) / static_cast<double>(reads + writes), 67, 7);
  EXPECT_TRUE(DirEntries(target.path()).empty());
}

TEST(SpecJobFileE2e, BadFilesAreRefusedInOneLineNamingFileLineAndKey) {
  TempDir target, files;
  const std::string fio = files.path() + "/bad.fio";
  ASSERT_TRUE(WriteFileBytes(fio, "[global]\nsize=1m\n[j]\nverify_pattern=0xff\n"));
  ExpectRefused({"run", target.path(), "--fio-job", fio}, target.path(),
                fio + ":4: fio key 'verify_pattern' is not supported");

  const std::string binary = files.path() + "/binary.fio";
  ASSERT_TRUE(WriteFileBytes(binary, std::string("\x7f"
                                                 "ELF\x02\x01\x01\0\0\0",
                                                 10)));
  ExpectRefused({"run", target.path(), "--fio-job", binary}, target.path(),
                binary + ":1: byte 0x7f is not text: is this a fio job file?");

  const std::string icf = files.path() + "/bench.icf";
  ASSERT_TRUE(WriteFileBytes(icf, IcfWithOneSpec("4096,100,100,0,0,1,0,512", "4")));
  ExpectRefused({"run", target.path(), "--iometer", icf, "--spec", "RND4K"}, target.path(),
                icf + ": no access specification 'RND4K'; the file has 'Read 4K'");
  ExpectRefused({"run", target.path(), "--iometer", icf}, target.path(),
                "--iometer " + icf + " needs --spec NAME; the file has 'Read 4K'");
  ExpectRefused({"run", target.path(), "--iometer", icf, "--spec", "Read 4K"}, target.path(),
                icf +
                    ":6: access specification 'Read 4K': a reply size (512 bytes) is not supported: replies are for "
                    "Iometer's network workers");
  ExpectRefused({"run", target.path(), "--iometer", icf, "--fio-job", fio, "--spec", "Read 4K"}, target.path(),
                "--fio-job and --iometer: give one job file, not both");
  ExpectRefused({"run", target.path(), "--spec", "Read 4K"}, target.path(),
                "--spec names an access specification of --iometer FILE.icf, which is not given");
  const std::string huge = files.path() + "/huge.fio";
  ASSERT_TRUE(WriteFileBytes(huge, "[j]\n" + std::string(2 << 20, ';')));
  ExpectRefused({"run", target.path(), "--fio-job", huge}, target.path(),
                huge + ": 2097156 bytes, more than the 1 MiB a job file may be");
  ExpectRefused({"run", target.path(), "--fio-job", files.path()}, target.path(),
                files.path() + ": is a directory, not a regular file (import reads regular files of at most 1 MiB)");
  ExpectRefused({"run", target.path(), "--fio-job", files.path() + "/missing.fio"}, target.path(),
                files.path() + "/missing.fio: cannot open: No such file or directory");
}

// A fio file of two jobs runs as `run --job` runs a group: both at once, one stored
// invocation, a group line; stonewall starts a second group. (It was refused while run
// took one job only.)
TEST(SpecJobFileE2e, TwoFioJobsRunAsOneGroupAndStonewallStartsAnother) {
  TempDir target, files, db;
  const std::string two = files.path() + "/two.fio";
  ASSERT_TRUE(WriteFileBytes(two, "[global]\nsize=1m\nrw=read\n[a]\n[b]\n[c]\nstonewall\n"));
  nlohmann::json doc = NasperfJson({"run", target.path(), "--fio-job", two, "--json", "--db", db.path() + "/r.db"});
  ASSERT_EQ(doc["runs"].size(), 3u) << doc.dump(2);
  EXPECT_EQ(doc["runs"][0]["job_name"], "a");
  EXPECT_EQ(doc["runs"][1]["job_name"], "b");
  EXPECT_EQ(doc["runs"][2]["job_name"], "c");
  EXPECT_EQ(doc["runs"][0]["job_group"], doc["runs"][1]["job_group"]);
  EXPECT_NE(doc["runs"][1]["job_group"], doc["runs"][2]["job_group"]);
  for (const nlohmann::json& r : doc["runs"]) EXPECT_EQ(r["read"]["bytes"], 1u << 20) << r.dump(2);
  ASSERT_TRUE(doc.contains("groups")) << doc.dump(2);
  EXPECT_EQ(doc["groups"].size(), 2u);
  EXPECT_TRUE(DirEntries(target.path()).empty());
}

}  // namespace
}  // namespace nasperf::e2e
