// fio job files read into a JobFile: the fixtures under testdata/ (written from fio's man
// page), each conversion to nasperf's units, and every refusal as one line naming file,
// line and key.
#include "jobfile/fio_job_file.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <utility>
#include <vector>

namespace nasperf {
namespace {

std::string Fixture(const std::string& name) {
  std::ifstream in(std::string(NASPERF_SOURCE_DIR) + "/src/jobfile/testdata/" + name);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

using Pairs = std::vector<std::pair<std::string, std::string>>;

Pairs Settings(const FileJob& job) {
  Pairs out;
  for (const JobSetting& s : job.settings) out.emplace_back(s.key, s.value);
  return out;
}

std::string Refusal(const std::string& text) {
  Result<JobFile> file = ParseFioJobFile(text, "t.fio");
  EXPECT_FALSE(file.ok()) << text;
  if (file.ok()) return "";
  EXPECT_EQ(file.status().kind(), ErrorKind::kBadInput);
  EXPECT_EQ(file.status().message().find('\n'), std::string::npos);
  return file.status().message();
}

TEST(FioJobFile, OneJobInheritsTheGlobalSection) {
  Result<JobFile> file = ParseFioJobFile(Fixture("fio_one_job.fio"), "one.fio");
  ASSERT_TRUE(file.ok()) << file.status().message();
  EXPECT_EQ(file.value().format, "fio");
  ASSERT_EQ(file.value().jobs.size(), 1u);
  const FileJob& job = file.value().jobs[0];
  EXPECT_EQ(job.name, "randread-4k");
  EXPECT_EQ(job.line, 9);
  EXPECT_EQ(job.group, "0");
  EXPECT_EQ(Settings(job), (Pairs{{"rw", "randread"},
                                  {"engine", "io_uring"},  // libaio runs as io_uring
                                  {"qd", "16"},
                                  {"bs", "4096"},
                                  {"size", "67108864"},
                                  {"time", "10s"},
                                  {"direct", ""}}));
  // Each setting names the line it came from: the job's own, or the [global] one.
  EXPECT_EQ(job.settings[0].line, 10);
  EXPECT_EQ(job.settings[1].line, 3);
  // Issue 33 item 3: libaio ran as io_uring without saying so.
  EXPECT_EQ(job.notes, (std::vector<std::string>{"ioengine=libaio requested, io_uring used"}));
}

// Buffered libaio is synchronous in the kernel, io_uring is not: the note says the figures
// may differ, not only that the engine did.
TEST(FioJobFile, BufferedLibaioSaysItsFiguresCanBeHigherThanFios) {
  Result<JobFile> file = ParseFioJobFile("[j]\nioengine=libaio\niodepth=8\n", "t.fio");
  ASSERT_TRUE(file.ok()) << file.status().message();
  ASSERT_EQ(file.value().jobs[0].notes.size(), 1u);
  EXPECT_NE(file.value().jobs[0].notes[0].find("fio's libaio is synchronous without direct=1"), std::string::npos);
  Result<JobFile> plain = ParseFioJobFile("[j]\nioengine=io_uring\n", "t.fio");
  ASSERT_TRUE(plain.ok());
  EXPECT_TRUE(plain.value().jobs[0].notes.empty());
}

// Issue 33 item 3: numjobs clones of a filename= job got disjoint halves of the file; in
// fio they all open the one file and do their I/O over the same bytes.
TEST(FioJobFile, NumjobsClonesOfAFilenameShareTheFile) {
  Result<JobFile> file = ParseFioJobFile("[j]\nfilename=/data/f\nnumjobs=4\n", "t.fio");
  ASSERT_TRUE(file.ok()) << file.status().message();
  EXPECT_EQ(Settings(file.value().jobs[0]),
            (Pairs{{"engine", "psync"}, {"threads", "4"}, {"bs", "4096"}, {"target", "/data/f"}, {"shared-file", ""}}));
  Result<JobFile> dir = ParseFioJobFile("[j]\ndirectory=/data\nnumjobs=4\n", "t.fio");
  ASSERT_TRUE(dir.ok());
  for (const JobSetting& s : dir.value().jobs[0].settings) EXPECT_NE(s.key, "shared-file") << "each clone its own file";
}

TEST(FioJobFile, TwoJobsRunTogetherInOneGroup) {
  Result<JobFile> file = ParseFioJobFile(Fixture("fio_two_jobs.fio"), "two.fio");
  ASSERT_TRUE(file.ok()) << file.status().message();
  ASSERT_EQ(file.value().jobs.size(), 2u);
  const FileJob& read = file.value().jobs[0];
  const FileJob& write = file.value().jobs[1];
  EXPECT_EQ(read.group, write.group);
  EXPECT_EQ(Settings(read), (Pairs{{"rw", "read"},
                                   {"engine", "psync"},
                                   {"bs", "1048576"},
                                   {"size", "33554432"},
                                   {"time", "3s"},
                                   {"ramp", "0.5s"},
                                   {"target", "/dev/shm/nasperf-bench"}}));
  EXPECT_EQ(Settings(write), (Pairs{{"rw", "randwrite"},
                                    {"engine", "psync"},
                                    {"threads", "2"},
                                    {"bs", "4096"},
                                    {"size", "33554432"},
                                    {"time", "3s"},
                                    {"ramp", "0.5s"},
                                    {"target", "/dev/shm/nasperf-bench"}}));
}

TEST(FioJobFile, StonewallStartsANewGroupAndNewGroupDoesNot) {
  Result<JobFile> file = ParseFioJobFile(Fixture("fio_stonewall.fio"), "s.fio");
  ASSERT_TRUE(file.ok()) << file.status().message();
  std::vector<std::string> groups;
  for (const FileJob& job : file.value().jobs) groups.push_back(job.group);
  // new_group is fio's reporting group only: [d] still runs beside [c].
  EXPECT_EQ(groups, (std::vector<std::string>{"0", "0", "1", "1"}));
  EXPECT_EQ(Settings(file.value().jobs[2]),
            (Pairs{{"rw", "randread"}, {"engine", "io_uring"}, {"qd", "8"}, {"bs", "4096"}, {"size", "16777216"}}));
}

TEST(FioJobFile, ConvertsSizesMixesRatesAndTimesExactly) {
  Result<JobFile> file = ParseFioJobFile(Fixture("fio_conversions.fio"), "c.fio");
  ASSERT_TRUE(file.ok()) << file.status().message();
  ASSERT_EQ(file.value().jobs.size(), 2u);
  EXPECT_EQ(Settings(file.value().jobs[0]), (Pairs{{"rw", "randrw"},
                                                   {"mix", "70"},  // rwmixwrite=30
                                                   {"engine", "io_uring"},
                                                   {"qd", "32"},
                                                   {"threads", "4"},
                                                   {"bs-read", "4096/50:65536/25:1048576/25"},
                                                   {"bs-write", "8192"},
                                                   {"size", "1073741824"},
                                                   {"time", "60s"},
                                                   {"direct", ""},  // buffered=0
                                                   {"random", "80"},
                                                   {"dist", "hotspot:80/20"},
                                                   {"target", "/srv/test/data.bin"},
                                                   {"shared-file", ""}}));  // numjobs=4 on one filename
  const FileJob& paced = file.value().jobs[1];
  EXPECT_EQ(paced.name, "paced-read");
  // rate=1m is 1048576 B/s for each of numjobs=4 clones: 4.194304 MB/s (10^6 B/s) in all.
  // thinktime is in microseconds when bare. rate_iops=,50 caps writes only: none here.
  EXPECT_EQ(Settings(paced), (Pairs{{"rw", "read"},
                                    {"engine", "io_uring"},
                                    {"threads", "4"},
                                    {"bs", "131072"},
                                    {"rate", "4.194304"},
                                    {"think", "1.5ms"},
                                    {"burst", "8"},
                                    {"target", "/srv/test/data.bin"},
                                    {"shared-file", ""}}));
}

TEST(FioJobFile, SizesFollowFiosDefaultUnits) {
  struct Case {
    const char* bs;
    const char* bytes;
  } cases[] = {{"4096", "4096"},  {"4k", "4096"},     {"4K", "4096"},        {"4kb", "4096"},      {"4KB", "4096"},
               {"1m", "1048576"}, {"1mi", "1000000"}, {"1000ki", "1000000"}, {"2g", "2147483648"}, {"512b", "512"}};
  for (const Case& c : cases) {
    Result<JobFile> file = ParseFioJobFile(std::string("[j]\nbs=") + c.bs + "\nsize=4g\n", "t.fio");
    ASSERT_TRUE(file.ok()) << c.bs << ": " << file.status().message();
    EXPECT_EQ(Settings(file.value().jobs[0])[1], (std::pair<std::string, std::string>{"bs", c.bytes})) << c.bs;
  }
}

TEST(FioJobFile, LaterGlobalSectionsApplyOnlyBelowThem) {
  Result<JobFile> file = ParseFioJobFile("[global]\nbs=8k\n[a]\n[global]\nbs=16k\n[b]\n", "t.fio");
  ASSERT_TRUE(file.ok()) << file.status().message();
  EXPECT_EQ(file.value().jobs[0].settings[1].value, "8192");
  EXPECT_EQ(file.value().jobs[1].settings[1].value, "16384");
}

TEST(FioJobFile, RefusesUnknownKeysByNameWithFileAndLine) {
  EXPECT_EQ(Refusal("[global]\nbs=4k\n\n[job]\nverify_pattern=0xff\n"),
            "t.fio:5: fio key 'verify_pattern' is not supported");
  EXPECT_EQ(Refusal("[job]\nrw=trim\n"), "t.fio:2: fio key 'rw': trims are not supported");
  EXPECT_EQ(Refusal("[job]\nrw=randread:8\n"),
            "t.fio:2: fio key 'rw': offset modifiers ('randread:8') are not supported");
  EXPECT_EQ(Refusal("bs=4k\n[job]\n"), "t.fio:1: fio key 'bs' comes before any [section]");
  EXPECT_EQ(
      Refusal("[job]\nioengine=mmap\n"),
      "t.fio:2: fio key 'ioengine': 'mmap' is not supported (psync, io_uring, or libaio, which runs as io_uring)");
  EXPECT_EQ(Refusal("include other.fio\n[job]\n"), "t.fio:1: fio's include is not supported: put the jobs in one file");
}

TEST(FioJobFile, RefusesBadValuesNamingTheKey) {
  EXPECT_EQ(Refusal("[job]\nbs=4q\n"), "t.fio:2: fio key 'bs': '4q' is not a block size");
  EXPECT_EQ(Refusal("[job]\nblocksize=0\n"), "t.fio:2: fio key 'blocksize': '0' is not a block size");
  EXPECT_EQ(Refusal("[job]\nsize=(1+2)\n"), "t.fio:2: fio key 'size': '(1+2)' is not a size");
  EXPECT_EQ(Refusal("[job]\nsize=50%\n"), "t.fio:2: fio key 'size': a share of the file's size is not supported");
  EXPECT_EQ(Refusal("[job]\nsize=${SIZE}\n"), "t.fio:2: fio key 'size': environment variables ($...) are not expanded");
  EXPECT_EQ(Refusal("[job]\nbssplit=4k/60:64k/60\n"),
            "t.fio:2: fio key 'bssplit': the percentages add up to 120, more than 100");
  EXPECT_EQ(Refusal("[job]\nbssplit=4k/50:64k/40\n"),
            "t.fio:2: fio key 'bssplit': the percentages add up to 90, not 100");
  EXPECT_EQ(Refusal("[job]\nbssplit=4k/50:8k/:64k/:1m/\n"),
            "t.fio:2: fio key 'bssplit': the 50 % left over does not split evenly over 3 sizes");
  EXPECT_EQ(Refusal("[job]\niodepth=0\n"), "t.fio:2: fio key 'iodepth': '0' is not a depth 1..65535");
  EXPECT_EQ(Refusal("[job]\nruntime=10\n"),
            "t.fio:2: fio key 'runtime': without time_based (one pass, cut short) is not supported: add time_based=1");
  EXPECT_EQ(Refusal("[job]\ntime_based\n"), "t.fio:2: fio key 'time_based': needs runtime (how long to loop)");
  EXPECT_EQ(Refusal("[job]\nruntime=10x\ntime_based\n"),
            "t.fio:2: fio key 'runtime': '10x' is not a time (examples: 10, 10s, 500ms, 2m)");
  EXPECT_EQ(Refusal("[job]\nrw=randrw\nrate=1m\n"),
            "t.fio:3: fio key 'rate': on a job that reads and writes is not supported (fio paces each direction on "
            "its own)");
  EXPECT_EQ(Refusal("[job]\nrw=randread\nrandom_distribution=normal:10\n"),
            "t.fio:3: fio key 'random_distribution': 'normal:10' is not supported (random, zipf:THETA, pareto:H, "
            "zoned:A/R:B/S)");
  EXPECT_EQ(Refusal("[job]\nrate=16p\nnumjobs=4096\n"), "t.fio:2: fio key 'rate': '16p' is more than 1 PB/s");
  EXPECT_EQ(Refusal("[job]\nkb_base=1000\n"),
            "t.fio:2: fio key 'kb_base': only fio's default, 1024, is supported (sizes like 4k are then 4096 bytes)");
  EXPECT_EQ(Refusal("[job]\nfilename=/dev/sda:/dev/sdb\n"),
            "t.fio:2: fio key 'filename': several files or directories (':') are not supported: give one");
  EXPECT_EQ(Refusal("[job]\nstonewall=maybe\n"), "t.fio:2: fio key 'stonewall': 'maybe' is not 0 or 1");
}

TEST(FioJobFile, RefusesFilesThatAreNotJobFiles) {
  EXPECT_EQ(Refusal(""), "t.fio: no job section ([name]) in this fio job file");
  EXPECT_EQ(Refusal("[global]\nbs=4k\n"), "t.fio: no job section ([name]) in this fio job file");
  EXPECT_EQ(Refusal("[a]\n[a]\n"), "t.fio:2: a second job named 'a' (the first is on line 1)");
  EXPECT_EQ(Refusal("[job\n"), "t.fio:1: a section header must end in ']'");
  EXPECT_EQ(Refusal("[job]\n\x7f"
                    "ELF\x02\x01\x01\n"),
            "t.fio:2: byte 0x7f is not text: is this a fio job file?");
  EXPECT_EQ(Refusal(std::string("[job]\nbs=4k\0\n", 12)), "t.fio:2: byte 0x00 is not text: is this a fio job file?");
  EXPECT_EQ(Refusal("[job]\nname=" + std::string(9000, 'x') + "\n"),
            "t.fio:2: line of 9005 bytes, more than the 8192 a line may have");
  std::string many;
  for (int i = 0; i < 300; ++i) many += "[j" + std::to_string(i) + "]\n";
  EXPECT_EQ(Refusal(many), "t.fio:257: more than 256 jobs in one file");
}

}  // namespace
}  // namespace nasperf
