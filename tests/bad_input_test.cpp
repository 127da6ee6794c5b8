// E2E tests of bad input: exit 2, one stderr line naming the option, nothing on stdout, nothing written.
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ostream>
#include <string>
#include <vector>

#include "cli_harness.h"
#include "testing/sizes.h"

namespace nasperf::e2e {
namespace {

using testing::kMiB;

// What the single stderr line must contain: every string of `all_of` and, when `any_of`
// is not empty, at least one of its strings.
struct Needles {
  std::vector<std::string> all_of;
  std::vector<std::string> any_of;
};

// Runs `args` as given and again with --json; each time: exit status 2, one non-empty
// line on stderr that contains the needles, nothing on stdout, and `watched_dir` exactly
// as it was (no .nasperf-* file, nothing else either).
void ExpectBadInput(const std::vector<std::string>& args, const std::string& watched_dir, const Needles& needles,
                    bool also_json = true) {
  const std::vector<std::string> before = DirEntries(watched_dir);
  for (bool as_json : {false, true}) {
    if (as_json && !also_json) continue;
    std::vector<std::string> argv = args;
    if (as_json) argv.push_back("--json");
    SCOPED_TRACE("nasperf " + ::testing::PrintToString(argv));
    CliResult r = RunNasperf(argv, 30);
    EXPECT_FALSE(r.timed_out);
    EXPECT_EQ(r.term_signal, 0) << "nasperf died of signal " << r.term_signal;
    EXPECT_EQ(r.exit_code, 2) << "stderr: " << r.err << "\nstdout: " << r.out;
    std::vector<std::string> lines = Lines(r.err);
    EXPECT_EQ(lines.size(), 1u) << "stderr must be exactly one line:\n" << r.err;
    EXPECT_TRUE(r.err.empty() || r.err.back() == '\n') << "the line is not terminated: " << r.err;
    if (!lines.empty()) {
      const std::string& line = lines[0];
      EXPECT_GT(line.size(), 10u) << "too terse to name what is wrong: " << line;
      for (const std::string& needle : needles.all_of)
        EXPECT_NE(line.find(needle), std::string::npos) << "'" << needle << "' not named in: " << line;
      if (!needles.any_of.empty()) {
        bool found = false;
        for (const std::string& needle : needles.any_of) found = found || line.find(needle) != std::string::npos;
        EXPECT_TRUE(found) << "none of " << ::testing::PrintToString(needles.any_of) << " named in: " << line;
      }
    }
    EXPECT_EQ(r.out, "") << "bad input printed on stdout";
    EXPECT_TRUE(NasperfFiles(watched_dir).empty()) << ::testing::PrintToString(NasperfFiles(watched_dir));
    EXPECT_EQ(DirEntries(watched_dir), before) << "bad input changed " << watched_dir;
  }
}

// ---------------------------------------------------------------------------------------
// Options, each on an empty, writable temporary directory. "DIR" in args is replaced by it.

struct OptionCase {
  const char* name;
  std::vector<std::string> args;
  Needles needles;
};

void PrintTo(const OptionCase& c, std::ostream* os) {
  std::vector<std::string> shown;  // 100 KB arguments cut short
  for (const std::string& a : c.args) shown.push_back(a.size() > 60 ? a.substr(0, 57) + "..." : a);
  *os << c.name << " " << ::testing::PrintToString(shown);
}

// A decimal number far beyond the range of a double.
std::string HugeNumber() { return "1" + std::string(400, '0'); }
// 100 KB of letters: under the kernel's 128 KiB limit for one argument.
std::string LongWord() { return std::string(100000, 'a'); }

const std::vector<OptionCase>& OptionCases() {
  static const std::vector<OptionCase> cases = {
      {"BsZero", {"run", "DIR", "--bs", "0", "--size", "1m"}, {{"--bs"}, {}}},
      {"BsNotASize", {"run", "DIR", "--bs", "abc", "--size", "1m"}, {{"--bs"}, {}}},
      {"BsUnknownUnit", {"run", "DIR", "--bs", "4x", "--size", "1m"}, {{"--bs", "unit"}, {}}},
      {"BsAboveLimit", {"run", "DIR", "--bs", "2g", "--size", "4g"}, {{"--bs"}, {}}},
      {"QdZero", {"run", "DIR", "--qd", "0", "--size", "1m"}, {{"--qd"}, {}}},
      {"QdNegative", {"run", "DIR", "--qd", "-1", "--size", "1m"}, {{"--qd"}, {}}},
      {"QdNotANumber", {"run", "DIR", "--qd", "eight", "--size", "1m"}, {{"--qd"}, {}}},
      {"ThreadsZero", {"run", "DIR", "--threads", "0", "--size", "1m"}, {{"--threads"}, {}}},
      {"SizeZero", {"run", "DIR", "--size", "0"}, {{"--size"}, {}}},
      {"SizeNegative", {"run", "DIR", "--size", "-5"}, {{"--size"}, {}}},
      {"SizeAbsurd", {"run", "DIR", "--size", "99999999999t"}, {{"--size"}, {}}},
      {"SizeSmallerThanBlock", {"run", "DIR", "--size", "1k", "--bs", "4k"}, {{"--size"}, {}}},
      {"MixAbove100", {"run", "DIR", "--rw", "rw", "--mix", "101", "--size", "1m"}, {{"--mix"}, {}}},
      {"MixNegative", {"run", "DIR", "--rw", "randrw", "--mix", "-1", "--size", "1m"}, {{"--mix"}, {}}},
      // Block-size mixes, random share, distributions and alignment (issue 19).
      {"BsMixWeightsNot100", {"run", "DIR", "--bs", "4k/30:64k/20", "--size", "1m"}, {{"--bs", "50 %"}, {}}},
      {"BsMixSizeZero", {"run", "DIR", "--bs", "0/50:4k/50", "--size", "1m"}, {{"--bs", "1 byte"}, {}}},
      {"BsMixSizeAboveLimit", {"run", "DIR", "--bs", "4k/50:2g/50", "--size", "4g"}, {{"--bs", "1 GiB"}, {}}},
      {"BsMixWeightZero", {"run", "DIR", "--bs", "4k/0:64k/100", "--size", "1m"}, {{"--bs", "weight"}, {}}},
      {"BsMixNotSizeSlashWeight", {"run", "DIR", "--bs", "4k/30:64k", "--size", "1m"}, {{"--bs", "SIZE/PERCENT"}, {}}},
      {"BsMixBadWeight", {"run", "DIR", "--bs", "4k/3x:64k/97", "--size", "1m"}, {{"--bs", "3x"}, {}}},
      {"BsMixSizeTwice", {"run", "DIR", "--bs", "4k/50:4k/50", "--size", "1m"}, {{"--bs", "twice"}, {}}},
      {"BsReadWeightsNot100", {"run", "DIR", "--bs-read", "4k/30:64k/30", "--size", "1m"}, {{"--bs-read", "60 %"}, {}}},
      {"BsWriteOnReadJob", {"run", "DIR", "--rw", "read", "--bs-write", "4k", "--size", "1m"}, {{"--bs-write", "read"}, {}}},
      {"BsWriteZero", {"run", "DIR", "--rw", "write", "--bs-write", "0", "--size", "1m"}, {{"--bs-write"}, {}}},
      {"RandomAbove100", {"run", "DIR", "--random", "101", "--size", "1m"}, {{"--random", "101"}, {}}},
      {"RandomNotANumber", {"run", "DIR", "--random", "half", "--size", "1m"}, {{"--random", "half"}, {}}},
      {"DistBogus", {"run", "DIR", "--rw", "randread", "--dist", "gauss", "--size", "1m"}, {{"--dist", "gauss"}, {}}},
      {"DistZipfNoTheta", {"run", "DIR", "--rw", "randread", "--dist", "zipf:", "--size", "1m"}, {{"--dist", "THETA"}, {}}},
      {"DistParetoAboveOne", {"run", "DIR", "--rw", "randread", "--dist", "pareto:1.5", "--size", "1m"}, {{"--dist", "pareto"}, {}}},
      {"DistHotspotRegion100",
       {"run", "DIR", "--rw", "randread", "--dist", "hotspot:80/100", "--size", "1m"},
       {{"--dist", "REGION"}, {}}},
      {"DistOnSequentialJob", {"run", "DIR", "--rw", "read", "--dist", "zipf:1.2", "--size", "1m"}, {{"--dist", "read"}, {}}},
      {"AlignNotDividingSizes", {"run", "DIR", "--bs", "4k/50:6k/50", "--align", "4k", "--size", "1m"}, {{"--align", "6 KiB"}, {}}},
      {"AlignNotASize", {"run", "DIR", "--align", "abc", "--size", "1m"}, {{"--align"}, {}}},
      {"VerifyWithBsMix",
       {"run", "DIR", "--rw", "write", "--verify", "--bs", "4k/50:64k/50", "--size", "1m"},
       {{"--verify", "mix"}, {}}},
      {"StonewallBogus", {"run", "DIR", "--stonewall", "maybe", "--size", "1m"}, {{"--stonewall", "maybe"}, {}}},
      {"RwBogus", {"run", "DIR", "--rw", "bogus", "--size", "1m"}, {{"--rw", "bogus"}, {}}},
      {"EngineBogus", {"run", "DIR", "--engine", "bogus", "--size", "1m"}, {{"--engine", "bogus"}, {}}},
      {"PatternCompressibleAbove100",
       {"run", "DIR", "--pattern", "compressible:200", "--size", "1m"},
       {{"--pattern"}, {}}},
      {"PatternBogus", {"run", "DIR", "--pattern", "bogus", "--size", "1m"}, {{"--pattern"}, {}}},
      {"DirectUnalignedBlockSize",
       {"run", "DIR", "--direct", "--bs", "1000", "--size", "1m"},
       {{}, {"--bs", "--direct"}}},
      {"TimeNegative", {"run", "DIR", "--time", "-1", "--size", "1m"}, {{"--time"}, {}}},
      {"TimeNotADuration", {"run", "DIR", "--time", "soon", "--size", "1m"}, {{"--time"}, {}}},
      {"RampNotADuration", {"run", "DIR", "--ramp", "soon", "--time", "5", "--size", "1m"}, {{"--ramp"}, {}}},
      {"RepeatZero", {"run", "DIR", "--repeat", "0", "--size", "1m"}, {{"--repeat"}, {}}},
      {"TagNotKeyValue", {"run", "DIR", "--tag", "novalue", "--size", "1m"}, {{"--tag"}, {}}},
      {"UnknownOption", {"run", "DIR", "--frobnicate", "--size", "1m"}, {{"--frobnicate"}, {}}},
      {"UnknownCommand", {"frobnicate", "DIR"}, {{"frobnicate"}, {}}},
      {"VerifyReadOnlyJob", {"run", "DIR", "--rw", "randread", "--verify", "--size", "1m"}, {{"--verify", "randread"}, {}}},
      {"VerifyNullTarget", {"run", "null:", "--rw", "write", "--verify", "--size", "1m"}, {{"--verify", "null:"}, {}}},
      {"VerifyWithPattern",
       {"run", "DIR", "--rw", "write", "--verify", "--pattern", "zero", "--size", "1m"},
       {{"--verify", "--pattern"}, {}}},
      {"SmbUrlWithoutShare", {"run", "smb://nas", "--size", "1m"}, {{"smb://nas", "share"}, {}}},
      {"NfsUrlWithoutExport", {"run", "nfs://nas", "--size", "1m"}, {{"nfs://nas", "export"}, {}}},
      {"MissingDirectory", {"run", "DIR/missing", "--size", "1m"}, {{}, {"TARGET", "DIR/missing"}}},
      {"MissingDirectoryWrite",
       {"run", "DIR/missing/deeper", "--rw", "write", "--size", "1m"},
       {{}, {"TARGET", "DIR/missing/deeper"}}},
      {"EmptyTarget", {"run", "", "--size", "1m"}, {{"TARGET"}, {}}},
      {"QuickSizeNotASize", {"quick", "DIR", "--size", "abc"}, {{"--size"}, {}}},
      {"QuickSizeZero", {"quick", "DIR", "--size", "0"}, {{"--size"}, {}}},
      {"QuickMissingDirectory", {"quick", "DIR/missing", "--size", "16m"}, {{}, {"TARGET", "DIR/missing"}}},
      {"QuickSmbUrlWithoutShare", {"quick", "smb://nas", "--size", "16m"}, {{"smb://nas", "share"}, {}}},
      {"QuickRejectsRunOnlyOption", {"quick", "DIR", "--size", "16m", "--bs", "4k"}, {{"--bs"}, {}}},
      // Numbers past what a double holds (~1.8e308) name the option, not "internal error: stod".
      {"BsPastDoubleRange", {"run", "DIR", "--bs", HugeNumber(), "--size", "1m"}, {{"--bs"}, {}}},
      {"TimePastDoubleRange", {"run", "DIR", "--time", HugeNumber(), "--size", "1m"}, {{"--time"}, {}}},
      {"SweepMaxPastDoubleRange", {"sweep", "DIR", "--max", HugeNumber()}, {{"--max"}, {}}},
      {"NetBsPastDoubleRange", {"net", "127.0.0.1:1", "--bs", HugeNumber()}, {{"--bs"}, {}}},
      {"NetTimeNotADuration", {"net", "127.0.0.1:1", "--time", "abc"}, {{"--time"}, {}}},
      // Dates that do not exist.
      {"SinceImpossibleDate", {"results", "list", "--since", "2026-13-45", "--db", "DIR/r.db"}, {{"--since"}, {}}},
      {"SinceImpossibleDay", {"results", "list", "--since", "2026-02-30", "--db", "DIR/r.db"}, {{"--since"}, {}}},
      {"SinceImpossibleTime", {"results", "list", "--since", "2026-01-01T25:00", "--db", "DIR/r.db"}, {{"--since"}, {}}},
      // Options that contradict each other.
      {"MixWithoutMixedPattern", {"run", "DIR", "--rw", "read", "--mix", "30", "--size", "1m"}, {{"--mix", "read"}, {}}},
      {"SteadyBogusMetric", {"run", "DIR", "--steady", "lat:2%:30s", "--time", "1m", "--size", "1m"}, {{"--steady", "lat"}, {}}},
      {"SteadyNotThreeParts", {"run", "DIR", "--steady", "iops:2%", "--time", "1m", "--size", "1m"}, {{"--steady"}, {}}},
      {"SteadyWithoutTime", {"run", "DIR", "--steady", "iops:2%:30s", "--size", "1m"}, {{"--steady", "--time"}, {}}},
      {"SteadyWindowLongerThanTime", {"run", "DIR", "--steady", "bw:2%:30s", "--time", "10s", "--size", "1m"}, {{"--steady", "--time"}, {}}},
      {"SteadyZeroTolerance", {"run", "DIR", "--steady", "iops:0%:5s", "--time", "10s", "--size", "1m"}, {{"--steady", "tolerance"}, {}}},
      {"RepeatUntilNotAPercent", {"run", "DIR", "--repeat-until", "tight", "--size", "1m"}, {{"--repeat-until", "tight"}, {}}},
      {"RepeatUntilAbove100", {"run", "DIR", "--repeat-until", "150%", "--size", "1m"}, {{"--repeat-until"}, {}}},
      {"RepeatUntilCapOfOne", {"run", "DIR", "--repeat-until", "5%", "--repeat", "1", "--size", "1m"}, {{"--repeat-until", "--repeat 1"}, {}}},
      // Issue 33 item 7: the rule is checked from 5 repeats on; a cap below that is refused.
      {"RepeatUntilCapBelowTheMinimum", {"run", "DIR", "--repeat-until", "5%", "--repeat", "4", "--size", "1m"}, {{"--repeat-until", "--repeat 4", "no earlier than 5 repeats"}, {}}},
      {"PsyncWithQueueDepth",
       {"run", "DIR", "--engine", "psync", "--qd", "8", "--size", "1m"},
       {{"--qd", "psync", "io_uring"}, {}}},
      {"AllowDestructiveOnDirectoryTarget",
       {"run", "DIR", "--rw", "write", "--allow-destructive", "/dev/null", "--size", "1m"},
       {{"--allow-destructive"}, {}}},
      {"AgentInsecureWithTokenFile",
       {"agent", "--insecure", "--token-file", "DIR/token", "--listen", "127.0.0.1:0"},
       {{"--insecure", "--token-file"}, {}}},
      // Control characters in a value stay on the one line, escaped.
      {"ValueWithNewline", {"run", "DIR", "--bs", "4k\nrm -rf", "--size", "1m"}, {{"--bs", "\\n"}, {}}},
      {"TagWithNewline", {"run", "DIR", "--tag", "k=a\nb", "--size", "1m"}, {{"--tag"}, {}}},
      {"TagKeyWithNewline", {"run", "DIR", "--tag", "k\nj=v", "--size", "1m"}, {{"--tag"}, {}}},
      {"InfoUnknownScheme", {"info", "ftp://nas/share"}, {{"ftp"}, {}}},
      // Long arguments: std::regex recursed once per character and overflowed the stack.
      {"LongLineRate", {"results", "compare", "1", "2", "--line", LongWord(), "--db", "DIR/r.db"}, {{"--line"}, {}}},
      {"LongNameWithBadBlockSize", {"run", "DIR", "--name", LongWord(), "--bs", "0", "--size", "1m"}, {{"--bs"}, {}}},
      {"LongUrlLikeArgument", {"run", "DIR", "--name", "a://" + LongWord(), "--bs", "0", "--size", "1m"}, {{"--bs"}, {}}},
      // Pacing (issue 19): rates, think time and bursts.
      {"RateZero", {"run", "DIR", "--rate", "0", "--size", "1m"}, {{"--rate"}, {}}},
      {"RateNegative", {"run", "DIR", "--rate", "-5", "--size", "1m"}, {{"--rate"}, {}}},
      {"RateNotANumber", {"run", "DIR", "--rate", "fast", "--size", "1m"}, {{"--rate", "fast"}, {}}},
      {"RateAbsurd", {"run", "DIR", "--rate", "99999999999", "--size", "1m"}, {{"--rate"}, {}}},
      {"RatePastDoubleRange", {"run", "DIR", "--rate", HugeNumber(), "--size", "1m"}, {{"--rate"}, {}}},
      {"RateIopsZero", {"run", "DIR", "--rate-iops", "0", "--size", "1m"}, {{"--rate-iops"}, {}}},
      {"RateIopsNegative", {"run", "DIR", "--rate-iops", "-100", "--size", "1m"}, {{"--rate-iops"}, {}}},
      {"RateIopsNotANumber", {"run", "DIR", "--rate-iops", "1e3", "--size", "1m"}, {{"--rate-iops", "1e3"}, {}}},
      {"RateIopsNan", {"run", "DIR", "--rate-iops", "nan", "--size", "1m"}, {{"--rate-iops"}, {}}},
      {"RateIopsAbsurd", {"run", "DIR", "--rate-iops", "999999999999", "--size", "1m"}, {{"--rate-iops"}, {}}},
      {"RateAndRateIops",
       {"run", "DIR", "--rate", "10", "--rate-iops", "100", "--size", "1m"},
       {{"--rate-iops", "--rate "}, {}}},
      {"ThinkZero", {"run", "DIR", "--think", "0", "--size", "1m"}, {{"--think"}, {}}},
      {"ThinkNegative", {"run", "DIR", "--think", "-1ms", "--size", "1m"}, {{"--think"}, {}}},
      {"ThinkNotADuration", {"run", "DIR", "--think", "awhile", "--size", "1m"}, {{"--think"}, {}}},
      {"ThinkAbsurd", {"run", "DIR", "--think", "2h", "--size", "1m"}, {{"--think"}, {}}},
      {"BurstWithoutThink", {"run", "DIR", "--burst", "8", "--size", "1m"}, {{"--burst", "--think"}, {}}},
      {"BurstZero", {"run", "DIR", "--burst", "0", "--think", "1ms", "--size", "1m"}, {{"--burst"}, {}}},
      {"BurstNotANumber", {"run", "DIR", "--burst", "many", "--think", "1ms", "--size", "1m"}, {{"--burst"}, {}}},
      {"SharedFileWithVerify",
       {"run", "DIR", "--rw", "write", "--threads", "2", "--shared-file", "--verify", "--size", "1m"},
       {{"--shared-file", "--verify"}, {}}},
  };
  return cases;
}

class OptionBadInputTest : public ::testing::TestWithParam<OptionCase> {};

TEST_P(OptionBadInputTest, ExitsTwoWithOneLineAndWritesNothing) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  auto expand = [&](std::string s) {
    for (size_t at = s.find("DIR"); at != std::string::npos; at = s.find("DIR", at + dir.path().size()))
      s.replace(at, 3, dir.path());
    return s;
  };
  std::vector<std::string> args;
  for (const std::string& a : GetParam().args) args.push_back(expand(a));
  Needles needles = GetParam().needles;
  for (std::string& n : needles.all_of) n = expand(n);
  for (std::string& n : needles.any_of) n = expand(n);
  ExpectBadInput(args, dir.path(), needles);
}

INSTANTIATE_TEST_SUITE_P(Options, OptionBadInputTest, ::testing::ValuesIn(OptionCases()),
                         [](const ::testing::TestParamInfo<OptionCase>& info) { return std::string(info.param.name); });

// ---------------------------------------------------------------------------------------
// Cases that need the file system's help.

TEST(BadInputTest, SizeLargerThanFreeSpace) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  const uint64_t free_bytes = FreeBytesAt(dir.path());
  ASSERT_GT(free_bytes, 0u);
  const std::string size = std::to_string(2 * free_bytes);  // bytes: a bare number
  ExpectBadInput({"run", dir.path(), "--rw", "write", "--size", size}, dir.path(), {{"--size"}, {}});
  ExpectBadInput({"run", dir.path(), "--rw", "read", "--size", size}, dir.path(), {{"--size"}, {}});
  // Two threads of 60 % each: neither file alone is too big, both together are.
  const std::string share = std::to_string(free_bytes / 10 * 6 / 4096 * 4096);
  ExpectBadInput({"run", dir.path(), "--rw", "write", "--threads", "2", "--size", share}, dir.path(), {{"--size"}, {}});
}

// Root ignores permission bits, so "cannot write here" is a read-only mount.
TEST(BadInputTest, DirectoryWithoutWritePermission) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  ScopedMount readonly("tmpfs", dir.path(), "tmpfs", MS_RDONLY, "size=1m");
  if (!readonly.ok()) {
    if (!IsRoot()) {
      // Without root, permission bits do the job.
      ASSERT_EQ(::chmod(dir.path().c_str(), 0500), 0);
      ExpectBadInput({"run", dir.path(), "--rw", "write", "--size", "1m"}, dir.path(), {{}, {"TARGET", dir.path()}});
      ::chmod(dir.path().c_str(), 0700);
      return;
    }
    NASPERF_SKIP_OR_FAIL("needs a read-only mount: " + readonly.error());
  }
  ExpectBadInput({"run", dir.path(), "--rw", "write", "--size", "1m"}, dir.path(), {{}, {"TARGET", dir.path()}});
  ExpectBadInput({"run", dir.path(), "--rw", "read", "--size", "1m"}, dir.path(), {{}, {"TARGET", dir.path()}});
  ExpectBadInput({"quick", dir.path(), "--size", "16m"}, dir.path(), {{}, {"TARGET", dir.path()}});
}

// ramfs has no O_DIRECT (open with O_DIRECT fails with EINVAL, like some FUSE and network
// file systems); tmpfs accepts it on recent kernels, so it cannot serve here.
TEST(BadInputTest, DirectOnFileSystemWithoutODirect) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  ScopedMount ramfs("ramfs", dir.path(), "ramfs", 0, "");
  if (!ramfs.ok()) NASPERF_SKIP_OR_FAIL("needs to mount ramfs (root): " + ramfs.error());
  ASSERT_TRUE(RefusesODirect(dir.path())) << "ramfs accepted O_DIRECT on this kernel";
  // One line that says so and suggests dropping --direct.
  ExpectBadInput({"run", dir.path(), "--direct", "--rw", "write", "--bs", "4k", "--size", "1m"}, dir.path(),
                 {{"--direct", "O_DIRECT"}, {}});
  ExpectBadInput({"run", dir.path(), "--direct", "--rw", "randread", "--bs", "4k", "--size", "1m"}, dir.path(),
                 {{"--direct", "O_DIRECT"}, {}});
}

// `report` writes HTML and takes no --json.
TEST(BadInputTest, ReportOutputIsADirectory) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  ExpectBadInput({"report", "-o", dir.path(), "--last", "1", "--db", dir.Sub("r.db")}, dir.path(),
                 {{"-o", "directory"}, {}}, false);
}

// Every command reads its whole command line (to store it, redacted): a long argument
// must not crash even --version.
TEST(BadInputTest, LongArgumentDoesNotCrashAnyCommand) {
  for (const std::string& arg : {LongWord(), "a://" + LongWord(), "x://u:" + LongWord() + "@h/s"}) {
    CliResult r = RunNasperf({"--version", arg}, 30);
    EXPECT_EQ(r.term_signal, 0) << "nasperf died of signal " << r.term_signal;
    EXPECT_EQ(r.exit_code, 0) << r.err;
  }
}

// ---------------------------------------------------------------------------------------
// Files given to `results import`. "FILE" in args is replaced by the file's path.

void ExpectImportRefused(const std::string& file, const Needles& needles, const std::string& format = "") {
  TempDir db_dir;
  ASSERT_TRUE(db_dir.ok());
  std::vector<std::string> args = {"results", "import", file, "--db", db_dir.Sub("r.db")};
  if (!format.empty()) args.insert(args.end(), {"--format", format});
  ExpectBadInput(args, db_dir.path(), needles);
}

TEST(BadInputTest, ImportOfADeviceIsRefused) {
  // /dev/zero never ends: it was read until the OOM killer came.
  ExpectImportRefused("/dev/zero", {{"/dev/zero", "regular file"}, {}});
  ExpectImportRefused("/dev/zero", {{"/dev/zero", "regular file"}, {}}, "nasperf");
  ExpectImportRefused("/dev/zero", {{"/dev/zero", "regular file"}, {}}, "fio");
}

TEST(BadInputTest, ImportOfAFifoIsRefusedWithoutBlocking) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string fifo = dir.Sub("pipe");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  ExpectImportRefused(fifo, {{fifo, "regular file"}, {}});
  ExpectImportRefused(fifo, {{fifo, "regular file"}, {}}, "nasperf");
}

// A nasperf result document that says what `run` would refuse.
TEST(BadInputTest, ImportedNasperfDocumentIsValidatedLikeARun) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string file = dir.Sub("doc.json");
  auto document = [](const std::string& job) {
    return R"({"nasperf": {"version": "0.1.0"}, "runs": [{"id": 1, "name": "x", "target": "/tmp",
      "job": )" + job + R"(, "read": {"bytes": 4096, "ios": 1, "seconds": 1, "mb_per_s": 0.004096, "iops": 1}}]})";
  };
  const std::string good = R"({"rw": "read", "bs": 4096, "qd": 1, "threads": 1, "size": 1048576, "engine": "psync"})";
  ASSERT_TRUE(WriteFileBytes(file, document(good)));
  {
    TempDir db;
    CliResult ok = RunNasperf({"results", "import", file, "--db", db.Sub("r.db")});
    ASSERT_EQ(ok.exit_code, 0) << "the valid document must import: " << ok.err;
  }
  for (const std::string& bad :
       {std::string(R"({"rw": "read", "bs": -5, "qd": 1, "threads": 1, "size": 1048576})"),
        std::string(R"({"rw": "read", "bs": 0, "qd": 1, "threads": 1, "size": 1048576})"),
        std::string(R"({"rw": "read", "bs": 4096, "qd": 0, "threads": 1, "size": 1048576})"),
        std::string(R"({"rw": "read", "bs": 4096, "qd": 1, "threads": 1, "size": 1048576, "mix_read_pct": 500})"),
        std::string(R"({"rw": "read", "bs": 4096, "qd": 1, "threads": 1, "size": 1048576, "time_s": -3})")}) {
    SCOPED_TRACE(bad);
    ASSERT_TRUE(WriteFileBytes(file, document(bad)));
    ExpectImportRefused(file, {{file, "job"}, {}});
  }
}

// Nested 100,000 deep: the parser and every later dump() recursed once per level.
TEST(BadInputTest, ImportOfDeeplyNestedJsonIsRefused) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string file = dir.Sub("deep.json");
  constexpr int kDepth = 100000;
  const std::string deep = std::string(kDepth, '[') + std::string(kDepth, ']');
  ASSERT_TRUE(WriteFileBytes(file, R"({"nasperf": {"version": "0.1.0"}, "runs": [{"inventory": )" + deep + "}]}"));
  ExpectImportRefused(file, {{file, "deep"}, {}});
  ExpectImportRefused(file, {{file, "deep"}, {}}, "nasperf");
  ASSERT_TRUE(WriteFileBytes(file, R"({"fio version": "fio-3.33", "jobs": [{"job options": )" + deep + "}]}"));
  ExpectImportRefused(file, {{file, "deep"}, {}});
}

// Bytes that are not UTF-8 (and not the Shift-JIS a CrystalDiskMark export may hold).
TEST(BadInputTest, ImportOfInvalidUtf8IsRefusedWithOneLine) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string file = dir.Sub("iozone.txt");
  ASSERT_TRUE(WriteFileBytes(file,
                             "\tIozone: Performance Test of File I/O\n\tRun began: \xFF\xFE\xFF\xC0\x80\n"
                             "              kB  reclen    write  rewrite    read    reread\n"
                             "             512       4  1000000  1200000  3000000  3100000\n\niozone test complete.\n"));
  ExpectImportRefused(file, {{file, "UTF-8"}, {}});
}

// ---------------------------------------------------------------------------------------
// Block devices: a loop device on a file in a temporary directory.

TEST(BadInputTest, WriteToBlockDeviceWithoutAllowDestructive) {
  if (!IsRoot()) NASPERF_SKIP_OR_FAIL("needs root to attach a loop device");
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string backing = dir.Sub("disk.img");
  const std::string zeros(16 * kMiB, '\0');
  ASSERT_TRUE(WriteFileBytes(backing, zeros));
  ScopedLoopDevice loop(backing);
  if (!loop.ok()) NASPERF_SKIP_OR_FAIL("cannot attach a loop device: " + loop.error());
  for (const char* rw : {"write", "randwrite", "randrw"}) {
    SCOPED_TRACE(rw);
    ExpectBadInput({"run", loop.device(), "--rw", rw, "--bs", "4k", "--size", "1m"}, dir.path(),
                   {{}, {"--allow-destructive", loop.device()}});
  }
  // Naming another device does not allow this one.
  ExpectBadInput(
      {"run", loop.device(), "--rw", "write", "--bs", "4k", "--size", "1m", "--allow-destructive", "/dev/null"},
      dir.path(), {{}, {"--allow-destructive", loop.device()}});
  EXPECT_TRUE(ReadFileBytes(backing) == zeros) << "the device was written";
}

TEST(BadInputTest, WriteToBlockDeviceHoldingAFileSystemEvenWhenAllowed) {
  if (!IsRoot()) NASPERF_SKIP_OR_FAIL("needs root to attach a loop device");
  std::string mkfs;
  for (const char* path : {"/usr/sbin/mkfs.ext4", "/sbin/mkfs.ext4"})
    if (::access(path, X_OK) == 0) mkfs = path;
  if (mkfs.empty()) NASPERF_SKIP_OR_FAIL("needs mkfs.ext4 (e2fsprogs)");
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string backing = dir.Sub("disk.img");
  ASSERT_TRUE(WriteFileBytes(backing, std::string(16 * kMiB, '\0')));
  CliResult made = RunProgram(mkfs, {"-q", "-F", backing});
  ASSERT_EQ(made.exit_code, 0) << made.err;
  const std::string before = ReadFileBytes(backing);
  ScopedLoopDevice loop(backing);
  if (!loop.ok()) NASPERF_SKIP_OR_FAIL("cannot attach a loop device: " + loop.error());
  ExpectBadInput(
      {"run", loop.device(), "--rw", "write", "--bs", "4k", "--size", "1m", "--allow-destructive", loop.device()},
      dir.path(), {{loop.device()}, {}});
  EXPECT_TRUE(ReadFileBytes(backing) == before) << "a device holding a file system was written";
}

}  // namespace
}  // namespace nasperf::e2e
