// E2E tests of `nasperf results import`: a real fio run's JSON imported with fio's own
// figures exactly, compared against a native run of the same job on the same file;
// hand-written iozone and CrystalDiskMark reports (their documented layouts and units);
// and bad files (empty, truncated, binary, the wrong tool, missing) refused with one
// line naming the file and nothing stored.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "cli_harness.h"

namespace nasperf::e2e {
namespace {

using nlohmann::json;


// The full path of `name` on $PATH, or "".
std::string FindProgram(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
  size_t start = 0;
  while (start <= dirs.size()) {
    size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    std::string candidate = dirs.substr(start, end - start) + "/" + name;
    if (end > start && ::access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  return "";
}


json Runs(const json& doc) {
  if (!doc.contains("runs") || !doc["runs"].is_array()) return json::array();
  return doc["runs"];
}

int64_t IdOf(const json& run) {
  return run.contains("id") && run["id"].is_number_integer() ? run["id"].get<int64_t>() : -1;
}
std::string IdText(const json& run) { return std::to_string(IdOf(run)); }

std::string ListText(const std::string& db) {
  CliResult r = RunNasperf({"results", "list", "--db", db, "--json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.out;
}

// One run of `doc` by test name and access pattern ("" test: any).
json FindRun(const json& runs, const std::string& test, const std::string& rw, uint64_t bs = 0) {
  for (const json& r : runs)
    if (r.value("test", "") == test && r.contains("job") && r["job"].value("rw", "") == rw &&
        (bs == 0 || r["job"].value("bs", uint64_t{0}) == bs))
      return r;
  ADD_FAILURE() << "no run " << test << " " << rw << " in " << runs.dump(2);
  return json::object();
}

// The JSON document in a file fio wrote (fio may put notes before it).
json ReadFioJson(const std::string& path) {
  std::string text = ReadFileBytes(path);
  size_t brace = text.find('{');
  json doc;
  if (brace == std::string::npos || !ParseJson(text.substr(brace), &doc)) {
    ADD_FAILURE() << "fio wrote no JSON to " << path << ":\n" << text;
    return json::object();
  }
  return doc;
}

// CrystalDiskMark 8's "Save as text" layout: MB/s = 10^6 B/s, IOPS, mean latency in us.
constexpr const char* kCrystalDiskMark8 =
    "------------------------------------------------------------------------------\n"
    "CrystalDiskMark 8.0.4 x64 (C) 2007-2021 hiyohiyo\n"
    "                                  Crystal Dew World: https://crystalmark.info/\n"
    "------------------------------------------------------------------------------\n"
    "* MB/s = 1,000,000 bytes/s [SATA/600 = 600,000,000 bytes/s]\n"
    "* KB = 1000 bytes, KiB = 1024 bytes\n"
    "\n"
    "[Read]\n"
    "  SEQ    1MiB (Q=  8, T= 1):   560.123 MB/s [    534.2 IOPS] < 14945.51 us>\n"
    "  SEQ    1MiB (Q=  1, T= 1):   530.456 MB/s [    505.9 IOPS] <  1975.03 us>\n"
    "  RND    4KiB (Q= 32, T= 1):   390.789 MB/s [  95407.5 IOPS] <   334.99 us>\n"
    "  RND    4KiB (Q=  1, T= 1):    45.678 MB/s [  11151.9 IOPS] <    89.52 us>\n"
    "\n"
    "[Write]\n"
    "  SEQ    1MiB (Q=  8, T= 1):   520.111 MB/s [    496.0 IOPS] < 16075.23 us>\n"
    "  SEQ    1MiB (Q=  1, T= 1):   500.222 MB/s [    477.0 IOPS] <  2093.81 us>\n"
    "  RND    4KiB (Q= 32, T= 1):   350.333 MB/s [  85530.5 IOPS] <   373.57 us>\n"
    "  RND    4KiB (Q=  1, T= 1):   120.444 MB/s [  29405.3 IOPS] <    33.86 us>\n"
    "\n"
    "Profile: Default\n"
    "   Test: 1 GiB (x5) [C: 45% (107/238GiB)]\n"
    "   Mode: [Admin]\n"
    "   Time: Measure 5 sec / Interval 5 sec \n"
    "   Date: 2021/06/01 12:34:56\n"
    "     OS: Windows 10 Professional [10.0 Build 19043] (x64)\n";

// `iozone -a` output: rates in kBytes/sec with 1024-byte KB, one row per file size x
// record size, thirteen tests per row.
constexpr const char* kIozoneAuto =
    "\tIozone: Performance Test of File I/O\n"
    "\t        Version $Revision: 3.506 $\n"
    "\t\tCompiled for 64 bit mode.\n"
    "\t\tBuild: linux-AMD64 \n"
    "\n"
    "\tRun began: Sat Nov 28 10:15:02 2026\n"
    "\n"
    "\tAuto Mode\n"
    "\tUsing minimum file size of 64 kilobytes.\n"
    "\tUsing maximum file size of 64 kilobytes.\n"
    "\tCommand line used: iozone -a -n 64k -g 64k -f /mnt/nas/iozone.tmp\n"
    "\tOutput is in kBytes/sec\n"
    "\tTime Resolution = 0.000001 seconds.\n"
    "\tProcessor cache size set to 1024 kBytes.\n"
    "\tProcessor cache line size set to 64 bytes.\n"
    "\tFile stride size set to 17 * record size.\n"
    "                                                            random  random    bkwd   record   stride"
    "                                    \n"
    "              kB  reclen   write rewrite    read    reread    read   write    read  rewrite     read   "
    "fwrite frewrite   fread  freread\n"
    "              64       4  100000  200000   500000   600000  300000  150000  250000   175000   275000   "
    "110000   120000  510000   520000\n"
    "              64      64 1000000 1200000  4000000  4100000 3000000 1500000 2500000  1750000  2750000  "
    "1100000  1200000 5100000  5200000\n"
    "\n"
    "iozone test complete.\n";

// ---------------------------------------------------------------------------------------

// The issue's "done when": a fio JSON file from a real fio run imports with fio's own
// figures exactly and compares against a native run of the same job on the same file.
TEST(ImportFioE2eTest, RealFioRunImportsExactlyAndComparesWithANativeRun) {
  const std::string fio = FindProgram("fio");
  if (fio.empty()) NASPERF_SKIP_OR_FAIL("fio is not installed (Debian package fio)");
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string db = dir.Sub("results.db");
  const std::string data_dir = dir.Sub("data");
  ASSERT_EQ(::mkdir(data_dir.c_str(), 0755), 0);
  const std::string file = data_dir + "/f";
  const std::string report = dir.Sub("fio.json");
  CliResult f = RunProgram(fio, {"--name=job1", "--filename=" + file, "--size=16m", "--rw=randread", "--bs=4k",
                                 "--iodepth=1", "--ioengine=psync", "--output-format=json", "--output=" + report},
                           60);
  ASSERT_EQ(f.exit_code, 0) << "fio failed:\n" << f.out << f.err;
  json fio_doc = ReadFioJson(report);
  ASSERT_TRUE(fio_doc.contains("jobs") && fio_doc["jobs"].is_array() && fio_doc["jobs"].size() == 1) << fio_doc.dump(2);
  const json fio_read = fio_doc["jobs"][0]["read"];
  const json& clat = fio_read["clat_ns"];
  const json& pct = clat["percentile"];

  json imported_doc = NasperfJson({"results", "import", report, "--db", db, "--json"});
  ASSERT_TRUE(HasDocumentShape(imported_doc));
  ASSERT_EQ(Runs(imported_doc).size(), 1u);
  const json imported = Runs(imported_doc)[0];
  ASSERT_GT(IdOf(imported), 0) << imported.dump(2);
  EXPECT_EQ(imported.value("source_tool", ""), "fio");
  EXPECT_TRUE(Contains(imported.value("source_file", ""), "fio.json")) << imported.dump(2);
  EXPECT_EQ(imported["name"], "job1");
  EXPECT_EQ(imported["job"]["rw"], "randread");
  EXPECT_EQ(imported["job"]["bs"], 4096);
  EXPECT_EQ(imported["job"]["qd"], 1);
  EXPECT_EQ(imported["job"]["size"], 16u << 20);
  EXPECT_FALSE(imported.contains("write")) << "a randread job imported with a write direction";
  ASSERT_TRUE(imported.contains("read")) << imported.dump(2);
  const json& r = imported["read"];
  // fio's own figures, exactly: bw_bytes is B/s, MB/s is 10^6 B/s; clat is in ns.
  EXPECT_EQ(r["mb_per_s"].get<double>(), fio_read["bw_bytes"].get<double>() / 1e6);
  EXPECT_EQ(r["iops"].get<double>(), fio_read["iops"].get<double>());
  EXPECT_EQ(r["bytes"].get<uint64_t>(), fio_read["io_bytes"].get<uint64_t>());
  EXPECT_EQ(r["ios"].get<uint64_t>(), fio_read["total_ios"].get<uint64_t>());
  EXPECT_EQ(r["lat_us"]["p99"].get<double>(), pct["99.000000"].get<double>() / 1000);
  EXPECT_EQ(r["lat_us"]["p50"].get<double>(), pct["50.000000"].get<double>() / 1000);
  EXPECT_EQ(r["lat_us"]["p90"].get<double>(), pct["90.000000"].get<double>() / 1000);
  EXPECT_EQ(r["lat_us"]["p999"].get<double>(), pct["99.900000"].get<double>() / 1000);
  EXPECT_EQ(r["lat_us"]["mean"].get<double>(), clat["mean"].get<double>() / 1000);
  EXPECT_EQ(r["lat_us"]["max"].get<double>(), clat["max"].get<double>() / 1000);

  // Stored as imported: show returns the same figures.
  json shown = NasperfJson({"results", "show", IdText(imported), "--db", db, "--json"});
  ASSERT_TRUE(HasDocumentShape(shown));
  ASSERT_EQ(Runs(shown).size(), 1u);
  EXPECT_EQ(Runs(shown)[0]["read"], imported["read"]);
  EXPECT_EQ(Runs(shown)[0].value("source_tool", ""), "fio");

  // The same job natively, on fio's file (an existing file: read, never written).
  const std::string before = ReadFileBytes(file);
  ASSERT_EQ(before.size(), 16u << 20);
  json native_doc = NasperfJson({"run", file, "--rw", "randread", "--bs", "4k", "--db", db, "--json"});
  ASSERT_TRUE(HasDocumentShape(native_doc));
  ASSERT_EQ(Runs(native_doc).size(), 1u);
  const json native = Runs(native_doc)[0];
  EXPECT_TRUE(HasConsistentFigures(native));
  EXPECT_TRUE(ReadFileBytes(file) == before) << "a read-only run changed " << file;
  EXPECT_EQ(DirEntries(data_dir), std::vector<std::string>{"f"});

  json cmp_doc =
      NasperfJson({"results", "compare", IdText(native), IdText(imported), "--db", db, "--json"});
  ASSERT_TRUE(HasDocumentShape(cmp_doc));
  ASSERT_TRUE(cmp_doc.contains("compare")) << cmp_doc.dump(2);
  const json& cmp = cmp_doc["compare"];
  ASSERT_EQ(cmp["columns"].size(), 2u);
  const json* row = FindRow(cmp, "read MB/s");
  ASSERT_NE(row, nullptr) << "no read MB/s row: " << cmp.dump(2);
  ASSERT_EQ((*row)["cells"].size(), 2u);
  const json& c0 = (*row)["cells"][0];
  const json& c1 = (*row)["cells"][1];
  ASSERT_TRUE(c0.is_object() && c1.is_object()) << row->dump(2);
  const double native_mb = native["read"]["mb_per_s"], fio_mb = r["mb_per_s"];
  EXPECT_EQ(c0["value"].get<double>(), native_mb);
  EXPECT_EQ(c1["value"].get<double>(), fio_mb);
  EXPECT_NEAR(c1["pct_vs_first"].get<double>(), (fio_mb - native_mb) / native_mb * 100, 1e-9);
  const json* p99 = FindRow(cmp, "read p99 latency");
  ASSERT_NE(p99, nullptr) << cmp.dump(2);
  ASSERT_TRUE((*p99)["cells"][1].is_object());
  EXPECT_EQ((*p99)["cells"][1]["value"].get<double>(), r["lat_us"]["p99"].get<double>());
  bool names_source = false;
  for (const json& d : cmp["differences"]) names_source = names_source || Contains(d.get<std::string>(), "fio");
  EXPECT_TRUE(names_source) << "the differences do not say one run is fio's: " << cmp["differences"].dump();

  CliResult human = RunNasperf({"results", "compare", IdText(native), IdText(imported), "--db", db});
  ASSERT_EQ(human.exit_code, 0) << human.err;
  EXPECT_TRUE(Contains(human.out, "read MB/s")) << human.out;
}

// CrystalDiskMark prints MB/s (10^6 B/s), IOPS and the mean latency: those figures must
// come through the import, the database and every output.
TEST(ImportCrystalDiskMarkE2eTest, TextExportKeepsItsFigures) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string db = dir.Sub("results.db");
  const std::string file = dir.Sub("cdm.txt");
  ASSERT_TRUE(WriteFileBytes(file, kCrystalDiskMark8));
  json doc = NasperfJson({"results", "import", file, "--db", db, "--json", "--tag", "disk=ssd"});
  ASSERT_TRUE(HasDocumentShape(doc));
  ASSERT_EQ(Runs(doc).size(), 8u) << doc.dump(2);
  struct Want {
    const char* test;
    const char* rw;
    const char* dir;
    double mb_per_s, iops, mean_us;
  };
  const Want wants[] = {
      {"SEQ1M Q8T1", "read", "read", 560.123, 534.2, 14945.51},
      {"RND4K Q1T1", "randread", "read", 45.678, 11151.9, 89.52},
      {"SEQ1M Q1T1", "write", "write", 500.222, 477.0, 2093.81},
      {"RND4K Q32T1", "randwrite", "write", 350.333, 85530.5, 373.57},
  };
  for (const Want& w : wants) {
    SCOPED_TRACE(std::string(w.test) + " " + w.rw);
    json run = FindRun(Runs(doc), w.test, w.rw);
    EXPECT_EQ(run.value("source_tool", ""), "crystaldiskmark");
    EXPECT_EQ(run["tags"], json({{"disk", "ssd"}}));
    ASSERT_TRUE(run.contains(w.dir)) << "the imported run has no " << w.dir << " figures: " << run.dump(2);
    EXPECT_DOUBLE_EQ(run[w.dir]["mb_per_s"].get<double>(), w.mb_per_s);
    EXPECT_DOUBLE_EQ(run[w.dir]["iops"].get<double>(), w.iops);
    EXPECT_DOUBLE_EQ(run[w.dir]["lat_us"]["mean"].get<double>(), w.mean_us);
    json shown = NasperfJson({"results", "show", IdText(run), "--db", db, "--json"});
    ASSERT_EQ(Runs(shown).size(), 1u);
    ASSERT_TRUE(Runs(shown)[0].contains(w.dir)) << "the stored run lost its figures: " << shown.dump(2);
    EXPECT_DOUBLE_EQ(Runs(shown)[0][w.dir]["mb_per_s"].get<double>(), w.mb_per_s);
  }
  CliResult csv = RunNasperf({"results", "export", "--csv", "--db", db});
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_EQ(Lines(csv.out).size(), 9u) << "a header and a row per imported test:\n" << csv.out;
  EXPECT_TRUE(Contains(csv.out, "560.123")) << csv.out;
}

// iozone reports kB/s with 1024-byte kB: 100000 kB/s is 102.4 MB/s (10^6 B/s).
TEST(ImportIozoneE2eTest, AutoReportConvertsKilobytesOf1024Bytes) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string db = dir.Sub("results.db");
  const std::string file = dir.Sub("iozone.txt");
  ASSERT_TRUE(WriteFileBytes(file, kIozoneAuto));
  json doc = NasperfJson({"results", "import", file, "--db", db, "--json"});
  ASSERT_TRUE(HasDocumentShape(doc));
  EXPECT_EQ(Runs(doc).size(), 26u) << "2 rows x 13 tests";
  for (const json& run : Runs(doc)) EXPECT_EQ(run.value("source_tool", ""), "iozone");
  json write4k = FindRun(Runs(doc), "write", "write", 4096);
  ASSERT_TRUE(write4k.contains("write")) << write4k.dump(2);
  EXPECT_DOUBLE_EQ(write4k["write"]["mb_per_s"].get<double>(), 102.4);
  EXPECT_EQ(write4k["job"]["size"], 65536);
  json read64k = FindRun(Runs(doc), "read", "read", 65536);
  ASSERT_TRUE(read64k.contains("read")) << read64k.dump(2);
  EXPECT_DOUBLE_EQ(read64k["read"]["mb_per_s"].get<double>(), 4000000.0 * 1024 / 1e6);
  json listed;
  ASSERT_TRUE(ParseJson(ListText(db), &listed));
  EXPECT_EQ(Runs(listed).size(), 26u);
}

// Each bad file: exit 2, one line naming the file, nothing on stdout, nothing stored.
TEST(ImportBadInputE2eTest, BadFilesAreRefusedWithOneLineAndNothingStored) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string db = dir.Sub("results.db");
  // Something in the database to stay as it is.
  const std::string good_cdm = dir.Sub("good-cdm.txt");
  ASSERT_TRUE(WriteFileBytes(good_cdm, kCrystalDiskMark8));
  CliResult seeded = RunNasperf({"run", "null:", "--size", "1m", "--db", db});
  ASSERT_EQ(seeded.exit_code, 0) << seeded.err;

  const std::string fio_like = dir.Sub("fio.json");
  std::string fio_text = R"({
  "fio version" : "fio-3.33",
  "timestamp" : 1796034887,
  "timestamp_ms" : 1796034887039,
  "time" : "Mon Nov 30 10:34:47 2026",
  "jobs" : [
    {
      "jobname" : "job1",
      "groupid" : 0,
      "error" : 0,
      "job options" : {"name" : "job1", "rw" : "randread", "bs" : "4k", "size" : "16m"},
      "read" : {
        "io_bytes" : 16777216, "bw_bytes" : 14614299, "iops" : 3567.944251,
        "runtime" : 1148, "total_ios" : 4096,
        "clat_ns" : {"min" : 1000, "max" : 23872552, "mean" : 279361.904053, "N" : 4096,
                     "percentile" : {"50.000000" : 173056, "90.000000" : 232448,
                                     "99.000000" : 4046848, "99.900000" : 8847360}}
      },
      "write" : {"io_bytes" : 0, "bw_bytes" : 0, "iops" : 0.0, "runtime" : 0, "total_ios" : 0,
                 "clat_ns" : {"N" : 0}}
    }
  ]
}
)";
  ASSERT_TRUE(WriteFileBytes(fio_like, fio_text));
  // The hand-made fio document is a good file (so the bad ones below fail for their own fault).
  {
    TempDir scratch;
    CliResult ok = RunNasperf({"results", "import", fio_like, "--db", scratch.Sub("r.db")});
    ASSERT_EQ(ok.exit_code, 0) << ok.err;
  }

  const std::string empty = dir.Sub("empty.json");
  ASSERT_TRUE(WriteFileBytes(empty, ""));
  const std::string truncated = dir.Sub("truncated.json");
  ASSERT_TRUE(WriteFileBytes(truncated, fio_text.substr(0, fio_text.size() / 2)));
  const std::string binary = dir.Sub("binary.bin");
  std::string bytes;
  for (int i = 0; i < 4096; ++i) bytes += static_cast<char>((i * 37 + 11) % 256);
  ASSERT_TRUE(WriteFileBytes(binary, bytes));
  const std::string elf = dir.Sub("program");
  ASSERT_TRUE(WriteFileBytes(elf, std::string("\x7f" "ELF\x02\x01\x01\x00", 8) + std::string(64, '\0')));
  const std::string not_fio = dir.Sub("other.json");
  ASSERT_TRUE(WriteFileBytes(not_fio, "{\"photos\": [\"a.jpg\"]}\n"));
  const std::string missing = dir.Sub("no-such-file.json");
  const std::string subdir = dir.Sub("a-directory");
  ASSERT_EQ(::mkdir(subdir.c_str(), 0755), 0);

  struct Case {
    std::vector<std::string> args;  // after "results import"
    std::string names;              // the file the one line must name
  };
  const std::vector<Case> cases = {
      {{empty}, empty},
      {{truncated}, truncated},
      {{binary}, binary},
      {{elf}, elf},
      {{not_fio}, not_fio},
      {{good_cdm, "--format", "fio"}, good_cdm},
      {{fio_like, "--format", "cdm"}, fio_like},
      {{fio_like, "--format", "iozone"}, fio_like},
      {{missing}, missing},
      {{subdir}, subdir},
      // One bad file among good ones stores none of them.
      {{fio_like, good_cdm, truncated}, truncated},
      {{fio_like, missing}, missing},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args = {"results", "import"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    args.insert(args.end(), {"--db", db});
    SCOPED_TRACE(Join(args));
    const std::string before = ListText(db);
    CliResult r = RunNasperf(args);
    EXPECT_EQ(r.term_signal, 0) << "crashed";
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(Lines(r.err).size(), 1u) << "not one line:\n" << r.err;
    EXPECT_TRUE(Contains(r.err, c.names)) << "the error does not name " << c.names << ":\n" << r.err;
    EXPECT_EQ(ListText(db), before) << "something was stored";
  }
  // Unknown format name: refused before any file is read.
  CliResult r = RunNasperf({"results", "import", fio_like, "--format", "excel", "--db", db});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
  EXPECT_TRUE(Contains(r.err, "excel")) << r.err;
  json listed;
  ASSERT_TRUE(ParseJson(ListText(db), &listed));
  EXPECT_EQ(Runs(listed).size(), 1u) << "only the seeded run should be stored";
}

}  // namespace
}  // namespace nasperf::e2e
