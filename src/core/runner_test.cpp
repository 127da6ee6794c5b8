// Runner tests: what engines write is what they read back, for every rw mode, engine and
// O_DIRECT setting; faults stop the run with a partial result; time, ramp and Ctrl-C.
#include "core/runner.h"
#include "proto/make_target.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <csignal>
#include <cstring>
#include <map>
#include <mutex>
#include <thread>
#include <tuple>

#include "base/clock.h"
#include "base/signals.h"
#include "stats/histogram.h"
#include "target/own_file.h"
#include "testing/fault_injecting_engine.h"
#include "testing/test_support.h"
#include "workload/buffers.h"
#include "proto/engine_registry.h"
#include "engine/local_engines.h"

namespace nasperf {
namespace {

using testing::FaultInjectingEngine;
using testing::FaultPlan;
using testing::TempDir;

constexpr uint64_t kBlock = 4096;

std::vector<std::byte> KnownBlock(uint64_t offset) {
  std::vector<std::byte> block(kBlock);
  FillPattern(block.data(), kBlock, BufferPattern{}, offset + 1);
  return block;
}

// Remembers what every write carried and checks every read against it (or against the
// known content the file started with).
class VerifyingEngine final : public Engine {
 public:
  VerifyingEngine(std::unique_ptr<Engine> inner, std::map<uint64_t, std::vector<std::byte>>* written,
                  std::mutex* mu, uint64_t* mismatches, uint64_t* verified)
      : inner_(std::move(inner)), written_(written), mu_(mu), mismatches_(mismatches), verified_(verified) {}
  const char* name() const override { return inner_->name(); }
  EngineCaps caps() const override { return inner_->caps(); }
  Status open(const EngineOpenParams& p) override {
    buffers_ = p.buffers;
    slot_offset_.resize(p.buffers.size());
    slot_is_read_.resize(p.buffers.size());
    return inner_->open(p);
  }
  Result<size_t> submit(std::span<const IoRequest> requests) override {
    for (const IoRequest& r : requests) {
      slot_offset_[r.slot] = r.offset;
      slot_is_read_[r.slot] = r.dir == IoDir::kRead;
      if (r.dir == IoDir::kWrite) {
        std::lock_guard<std::mutex> lock(*mu_);
        (*written_)[r.offset].assign(buffers_[r.slot], buffers_[r.slot] + r.length);
      }
    }
    return inner_->submit(requests);
  }
  Result<size_t> reap(std::span<IoCompletion> out, size_t min_complete, std::chrono::microseconds timeout) override {
    Result<size_t> n = inner_->reap(out, min_complete, timeout);
    if (!n.ok()) return n;
    for (size_t i = 0; i < n.value(); ++i) {
      if (!slot_is_read_[out[i].slot] || out[i].result != static_cast<int64_t>(kBlock)) continue;
      uint64_t offset = slot_offset_[out[i].slot];
      std::lock_guard<std::mutex> lock(*mu_);
      auto it = written_->find(offset);
      std::vector<std::byte> expected = it != written_->end() ? it->second : KnownBlock(offset);
      ++*verified_;
      if (std::memcmp(expected.data(), buffers_[out[i].slot], kBlock) != 0) ++*mismatches_;
    }
    return n;
  }
  Status sync() override { return inner_->sync(); }
  void close() override { inner_->close(); }

 private:
  std::unique_ptr<Engine> inner_;
  std::map<uint64_t, std::vector<std::byte>>* written_;
  std::mutex* mu_;
  uint64_t* mismatches_;
  uint64_t* verified_;
  std::span<std::byte*> buffers_;
  std::vector<uint64_t> slot_offset_;
  std::vector<bool> slot_is_read_;
};

using EngineCase = std::tuple<std::string, bool, AccessPattern>;

class ReadBackTest : public ::testing::TestWithParam<EngineCase> {};

TEST_P(ReadBackTest, WhatIsWrittenIsReadBack) {
  const auto& [engine_name, direct, rw] = GetParam();
  if (engine_name == "io_uring" && !IoUringAvailable()) NASPERF_SKIP_OR_FAIL_IN_CI("io_uring unavailable");
  TempDir dir;
  const uint64_t blocks = 64;
  // A file nasperf made (an own name and its mark) and no longer holds: made in a child that
  // ends without cleaning up, as a killed run would. nasperf writes no other existing file.
  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    Result<OwnFile> own = OwnFile::Create(dir.path(), "verify");
    if (!own.ok()) ::_exit(1);
    Result<ScopedFd> fd = own.value().Reopen(O_WRONLY);
    if (!fd.ok()) ::_exit(1);
    for (uint64_t b = 0; b < blocks; ++b)
      if (::pwrite(fd.value().get(), KnownBlock(b * kBlock).data(), kBlock, b * kBlock) != (ssize_t)kBlock) ::_exit(1);
    const std::string& made = own.value().path();
    if (::write(pipe_fds[1], made.data(), made.size()) != (ssize_t)made.size()) ::_exit(1);
    ::_exit(0);  // no destructors: the file stays
  }
  ::close(pipe_fds[1]);
  char made[4096];
  ssize_t made_bytes = ::read(pipe_fds[0], made, sizeof made);
  ::close(pipe_fds[0]);
  int child_status = 0;
  ASSERT_EQ(::waitpid(child, &child_status, 0), child);
  ASSERT_TRUE(WIFEXITED(child_status) && WEXITSTATUS(child_status) == 0);
  ASSERT_GT(made_bytes, 0);
  const std::string path(made, static_cast<size_t>(made_bytes));
  Result<std::unique_ptr<Target>> target = MakeTarget(path, {});
  ASSERT_TRUE(target.ok()) << target.status().message();

  // One size-bound pass at depth 8 (each block visited once), then a time-based run at
  // depth 1 that revisits blocks, so reads follow writes of the same block.
  for (bool revisit : {false, true}) {
    JobSpec job;
    job.rw = rw;
    job.read_mix_pct = 50;
    job.bs = kBlock;
    job.qd = revisit ? 1 : 8;
    job.size = blocks * kBlock;
    job.direct = direct;
    job.engine = engine_name;
    job.time_based = revisit;
    job.time_s = revisit ? 0.3 : 0;
    Status check = target.value()->Check(job);
    if (!check.ok() && direct) NASPERF_SKIP_OR_FAIL_IN_CI("O_DIRECT unsupported under /tmp: " + check.message());
    ASSERT_TRUE(check.ok()) << check.message();

    std::map<uint64_t, std::vector<std::byte>> written;
    std::mutex mu;
    uint64_t mismatches = 0, verified = 0;
    RunHooks hooks;
    hooks.make_engine = [&](const std::string& name) -> Result<std::unique_ptr<Engine>> {
      Result<std::unique_ptr<Engine>> inner = MakeEngine(name);
      if (!inner.ok()) return inner.status();
      return std::unique_ptr<Engine>(new VerifyingEngine(std::move(inner).value(), &written, &mu, &mismatches, &verified));
    };
    RunOutcome outcome = RunJob(job, *target.value(), {}, hooks);
    ASSERT_TRUE(outcome.status.ok()) << outcome.status.message();
    EXPECT_EQ(mismatches, 0u) << "of " << verified << " verified reads";
    if (DoesReads(rw)) {
      EXPECT_GT(verified, 0u);
    }
    uint64_t ios = (outcome.result.read ? outcome.result.read->ios : 0) + (outcome.result.write ? outcome.result.write->ios : 0);
    if (!revisit) {
      EXPECT_EQ(ios, blocks);
    }

    // And the file itself holds exactly what was written, block for block.
    int fd = ::open(path.c_str(), O_RDONLY);
    ASSERT_GE(fd, 0);
    std::vector<std::byte> on_disk(kBlock);
    for (uint64_t b = 0; b < blocks; ++b) {
      ASSERT_EQ(::pread(fd, on_disk.data(), kBlock, b * kBlock), (ssize_t)kBlock);
      auto it = written.find(b * kBlock);
      std::vector<std::byte> expected = it != written.end() ? it->second : KnownBlock(b * kBlock);
      ASSERT_EQ(std::memcmp(on_disk.data(), expected.data(), kBlock), 0) << "block " << b;
    }
    ::close(fd);
    // Restore the known content so the second round's expectations hold.
    int wfd = ::open(path.c_str(), O_WRONLY);
    for (uint64_t b = 0; b < blocks; ++b) ::pwrite(wfd, KnownBlock(b * kBlock).data(), kBlock, b * kBlock);
    ::close(wfd);
  }
}

std::string CaseName(const ::testing::TestParamInfo<EngineCase>& info) {
  return std::get<0>(info.param) + (std::get<1>(info.param) ? "_direct_" : "_buffered_") +
         ToString(std::get<2>(info.param));
}

INSTANTIATE_TEST_SUITE_P(AllModes, ReadBackTest,
                         ::testing::Combine(::testing::Values("psync", "io_uring"), ::testing::Bool(),
                                            ::testing::Values(AccessPattern::kRead, AccessPattern::kWrite,
                                                              AccessPattern::kRandRead, AccessPattern::kRandWrite,
                                                              AccessPattern::kReadWrite,
                                                              AccessPattern::kRandReadWrite)),
                         CaseName);

RunHooks FaultHooks(FaultPlan plan) {
  RunHooks hooks;
  hooks.make_engine = [plan](const std::string& name) -> Result<std::unique_ptr<Engine>> {
    Result<std::unique_ptr<Engine>> inner = MakeEngine(name);
    if (!inner.ok()) return inner.status();
    return std::unique_ptr<Engine>(new FaultInjectingEngine(std::move(inner).value(), plan));
  };
  return hooks;
}

TEST(Runner, NoSpaceStopsTheRunWithAPartialResultAndCleansUp) {
  TempDir dir;
  {
    Result<std::unique_ptr<Target>> target = MakeTarget(dir.path(), {});
    ASSERT_TRUE(target.ok());
    JobSpec job;
    job.rw = AccessPattern::kWrite;
    job.bs = kBlock;
    job.size = 1 << 20;
    job.engine = "psync";
    RunOutcome outcome = RunJob(job, *target.value(), {}, FaultHooks({10, -ENOSPC}));
    EXPECT_EQ(outcome.status.kind(), ErrorKind::kIo);
    EXPECT_EQ(outcome.status.err(), ENOSPC);
    EXPECT_NE(outcome.status.message().find("No space left"), std::string::npos) << outcome.status.message();
    EXPECT_TRUE(outcome.result.partial);
    ASSERT_TRUE(outcome.result.write);
    EXPECT_EQ(outcome.result.write->ios, 10u);  // how far it got
    EXPECT_EQ(outcome.result.write->errors, 1u);
    EXPECT_FALSE(dir.Entries().empty());  // the target still owns its file here...
  }
  EXPECT_TRUE(dir.Entries().empty());  // ...and removes it when it goes
}

TEST(Runner, ShortReadIsAnError) {
  Result<std::unique_ptr<Target>> target = MakeTarget("null:", {});
  JobSpec job;
  job.bs = kBlock;
  job.qd = 4;
  job.size = 1 << 20;
  RunOutcome outcome = RunJob(job, *target.value(), {}, FaultHooks({100, 512}));
  EXPECT_EQ(outcome.status.kind(), ErrorKind::kIo);
  EXPECT_NE(outcome.status.message().find("short transfer of 512 B"), std::string::npos) << outcome.status.message();
  EXPECT_TRUE(outcome.result.partial);
}

TEST(Runner, TimeBasedRunLastsItsTimeAndExcludesTheRamp) {
  Result<std::unique_ptr<Target>> target = MakeTarget("null:", {});
  JobSpec job;
  job.bs = kBlock;
  job.qd = 4;
  job.size = 1 << 20;
  job.time_based = true;
  job.time_s = 1.2;
  job.ramp_s = 0.5;
  uint64_t start = MonotonicNs();
  RunOutcome outcome = RunJob(job, *target.value(), {});
  double wall_s = (MonotonicNs() - start) / 1e9;
  ASSERT_TRUE(outcome.status.ok());
  ASSERT_TRUE(outcome.result.read);
  EXPECT_NEAR(outcome.result.read->seconds, 1.2, 0.15);
  EXPECT_GE(wall_s, 1.65);
  EXPECT_GT(outcome.result.read->ios, 1u << 8);  // looped past one pass of 256 blocks
  ASSERT_GE(outcome.result.samples.size(), 1u);
  EXPECT_NEAR(outcome.result.samples.front().t_s, 1.0, 0.1);
  EXPECT_FALSE(outcome.result.partial);
}

TEST(Runner, SizeBoundRunMovesEachThreadsSizeOnce) {
  Result<std::unique_ptr<Target>> target = MakeTarget("null:", {});
  JobSpec job;
  job.bs = 65536;
  job.qd = 8;
  job.threads = 3;
  job.size = 8 << 20;
  RunOutcome outcome = RunJob(job, *target.value(), {});
  ASSERT_TRUE(outcome.status.ok());
  EXPECT_EQ(outcome.result.read->bytes, 3u * (8u << 20));
  EXPECT_EQ(outcome.result.read->ios, 3u * 128u);
  EXPECT_EQ(outcome.result.read->histogram->count(), 3u * 128u);
}

TEST(Runner, InterruptStopsWithinASecondAndMarksPartial) {
  InstallInterruptHandler();
  ClearInterrupt();
  Result<std::unique_ptr<Target>> target = MakeTarget("null:", {});
  JobSpec job;
  job.bs = kBlock;
  job.time_based = true;
  job.time_s = 30;
  std::thread killer([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    std::raise(SIGINT);
  });
  uint64_t start = MonotonicNs();
  RunOutcome outcome = RunJob(job, *target.value(), {});
  double wall_s = (MonotonicNs() - start) / 1e9;
  killer.join();
  ClearInterrupt();
  EXPECT_EQ(outcome.status.kind(), ErrorKind::kInterrupted);
  EXPECT_TRUE(outcome.result.partial);
  EXPECT_LT(wall_s, 1.3);
  ASSERT_TRUE(outcome.result.read);
  EXPECT_GT(outcome.result.read->ios, 0u);
}

TEST(Runner, RepeatReportsTheMedianAndEveryFigure) {
  Result<std::unique_ptr<Target>> target = MakeTarget("null:", {});
  JobSpec job;
  job.bs = kBlock;
  job.size = 4 << 20;
  job.repeat = 3;
  RunOutcome outcome = RunRepeated(job, *target.value(), {});
  ASSERT_TRUE(outcome.status.ok());
  ASSERT_EQ(outcome.result.repeats.size(), 3u);
  std::vector<double> sorted = RepeatTotals(outcome.result);
  std::sort(sorted.begin(), sorted.end());
  EXPECT_DOUBLE_EQ(outcome.result.read->mb_per_s, sorted[1]);
  for (const RepeatFigures& r : outcome.result.repeats) {
    EXPECT_GT(r.read_iops, 0);
    EXPECT_GT(r.seconds, 0);
    EXPECT_EQ(r.write_mb_per_s, 0);
  }
}

TEST(Runner, FailedBeforeRepeatHookKeepsTheFinishedRepeats) {
  Result<std::unique_ptr<Target>> target = MakeTarget("null:", {});
  JobSpec job;
  job.bs = kBlock;
  job.size = 4 << 20;
  job.repeat = 3;
  RunHooks hooks;
  std::vector<uint32_t> calls;
  hooks.before_repeat = [&](uint32_t repeat) -> Status {
    calls.push_back(repeat);
    return repeat == 1 ? Status::Io("cache drop failed") : Status::Ok();
  };
  RunOutcome outcome = RunRepeated(job, *target.value(), RunLabels{"named", {}}, hooks);
  EXPECT_EQ(calls, (std::vector<uint32_t>{0, 1}));
  EXPECT_FALSE(outcome.status.ok());
  EXPECT_TRUE(outcome.result.partial);
  EXPECT_EQ(outcome.result.error, "cache drop failed");
  EXPECT_EQ(outcome.result.name, "named");
  EXPECT_EQ(outcome.result.target, "null:");
  ASSERT_EQ(outcome.result.repeats.size(), 1u) << "the repeat finished before the failure is kept";
  EXPECT_GT(outcome.result.repeats[0].read_mb_per_s, 0);
}

}  // namespace
}  // namespace nasperf
