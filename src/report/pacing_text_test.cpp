// The run table of a paced run: service times labelled beside the latencies from the
// intended start, and the rate line, sustained or short.
#include "report/pacing_text.h"

#include <gtest/gtest.h>

#include "report/csv_report.h"
#include "report/table_report.h"

namespace nasperf {
namespace {

RunResult PacedRun(double target_iops, double achieved_iops, bool sustained, double shortfall_pct) {
  RunResult r;
  r.target = "/data";
  r.engine = "psync";
  r.job.rw = AccessPattern::kRandRead;
  r.job.bs = 4096;
  r.job.threads = 2;
  r.job.pacing.rate_iops = target_iops;
  r.read = DirectionResult{4096 * 1000, 1000, 1, 4.1, achieved_iops, {5000, 150, 300, 5000, 9500, 10000}, 0, nullptr};
  PacingFacts p;
  p.target_iops = target_iops;
  p.achieved_iops = achieved_iops;
  p.sustained = sustained;
  p.shortfall_pct = shortfall_pct;
  p.read_service = LatencySummary{500, 500, 500, 500, 900, 10000};
  r.pacing = p;
  return r;
}

TEST(PacingText, SaysWhatTheLatenciesAreFromAndShowsServiceTimes) {
  const std::string text = PacingText(PacedRun(1000, 999.6, true, 0.04));
  EXPECT_NE(text.find("service time, from each I/O's submit (the latencies above are from its intended start):\n"),
            std::string::npos)
      << text;
  // The run table's columns, MB/s and IOPS blank: mean, p50, p90, p99, p99.9, max.
  EXPECT_NE(text.find("\nread                              500.0     500.0     500.0     500.0     900.0    10000.0\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("paced: 1000 IOPS scheduled (--rate-iops 1000, the job's total over 2 threads, 500 per "
                      "thread), 1000 achieved (sustained: within 1 %)"),
            std::string::npos)
      << text;
}

TEST(PacingText, ATargetThatCouldNotKeepUpIsNamedWithItsShortfall) {
  const std::string text = PacingText(PacedRun(5000, 3120, false, 37.6));
  EXPECT_NE(text.find("could not sustain 5000 IOPS: 3120 achieved (37.6 % short"), std::string::npos) << text;
}

// Think time beside a rate: the rate is the schedule, the think its closed loop beside it.
TEST(PacingText, NamesWhatSetTheSchedule) {
  RunResult r = PacedRun(0, 2208, true, 0);
  r.job.threads = 1;
  r.job.pacing = Pacing{.rate_mb_per_s = 200, .rate_iops = 0, .think_s = 0.001, .burst = 8};
  r.pacing->target_mb_per_s = 200;
  r.pacing->achieved_mb_per_s = 144.8;
  r.pacing->sustained = false;
  r.pacing->shortfall_pct = 27.6;
  EXPECT_NE(PacingText(r).find("paced: could not sustain 200 MB/s: 145 achieved (27.6 % short; scheduled by --rate "
                               "200 MB/s, the job's total over 1 thread, 200 per thread; --think 1 ms after every 8 "
                               "I/Os had completed (a closed loop: each burst's service time, then the think))"),
            std::string::npos)
      << PacingText(r);
}

// Think time alone (issue 33): nothing was scheduled, so the line names no target and no
// "sustained", only what the closed loop achieved.
TEST(PacingText, ThinkTimeAloneSaysClosedLoopAndClaimsNoTarget) {
  RunResult r = PacedRun(0, 818.3, true, 0);
  r.job.threads = 1;
  r.job.pacing = Pacing{.think_s = 0.001, .burst = 1};
  r.pacing->target_iops = 0;
  r.pacing->achieved_mb_per_s = 3.35;
  r.pacing->read_service.reset();  // no intended starts: the latencies are from the submit
  const std::string text = PacingText(r);
  EXPECT_NE(text.find("think: --think 1 ms after every 1 I/O had completed (a closed loop: each burst's service time, "
                      "then the think): 818 IOPS, 3.35 MB/s achieved, the job's total over 1 thread"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("sustained"), std::string::npos) << text;
  EXPECT_EQ(text.find("scheduled"), std::string::npos) << text;
  EXPECT_EQ(text.find("intended start"), std::string::npos) << text;
}

TEST(PacingText, RunTableCarriesItAndUnpacedRunsDoNot) {
  EXPECT_NE(RunTable(PacedRun(5000, 3120, false, 37.6)).find("could not sustain 5000 IOPS"), std::string::npos);
  RunResult plain = PacedRun(1000, 1000, true, 0);
  plain.pacing.reset();
  EXPECT_EQ(PacingText(plain), "");
  EXPECT_EQ(RunTable(plain).find("paced"), std::string::npos);
}

// The CSV export's job columns say what schedule a row's latencies were timed against.
TEST(PacingText, CsvCarriesTheScheduleAsked) {
  const std::string csv = RunsToCsv({PacedRun(50000000, 3120, false, 37.6)});
  const std::string header = csv.substr(0, csv.find('\n'));
  EXPECT_NE(header.find(",rate_mb_per_s,rate_iops,think_s,burst,"), std::string::npos) << header;
  EXPECT_NE(csv.find(",0,50000000,0,1,"), std::string::npos) << csv;
}

}  // namespace
}  // namespace nasperf
