// --verify through the runner: every written block is read back and found, for each
// engine, access pattern and O_DIRECT setting; and a write that is corrupted, lands at
// the wrong offset or never lands, or a read-back that is corrupted, fails the run with
// one message naming the offset.
#include "core/verify_pass.h"

#include <gtest/gtest.h>

#include <tuple>

#include "core/runner.h"
#include "proto/make_target.h"
#include "testing/test_support.h"
#include "model/job_validate.h"
#include "proto/engine_registry.h"
#include "engine/local_engines.h"

namespace nasperf {
namespace {

using testing::TempDir;

constexpr uint64_t kBlock = 4096;
constexpr uint64_t kBlocks = 64;

enum class Tamper { kNone, kCorruptWrite, kMisplaceWrite, kDropWrite, kCorruptRead };

// Wraps an engine and damages the I/O at one offset the way broken storage would.
class TamperingEngine final : public Engine {
 public:
  TamperingEngine(std::unique_ptr<Engine> inner, Tamper tamper, uint64_t at)
      : inner_(std::move(inner)), tamper_(tamper), at_(at) {}
  const char* name() const override { return inner_->name(); }
  EngineCaps caps() const override { return inner_->caps(); }
  Status open(const EngineOpenParams& p) override {
    buffers_ = p.buffers;
    slot_offset_.resize(p.buffers.size());
    slot_read_.resize(p.buffers.size());
    return inner_->open(p);
  }
  Result<size_t> submit(std::span<const IoRequest> requests) override {
    std::vector<IoRequest> forward;
    for (IoRequest r : requests) {
      slot_offset_[r.slot] = r.offset;
      slot_read_[r.slot] = r.dir == IoDir::kRead;
      if (r.dir == IoDir::kWrite && r.offset == at_) {
        if (tamper_ == Tamper::kCorruptWrite) buffers_[r.slot][100] ^= std::byte{1};
        if (tamper_ == Tamper::kMisplaceWrite) r.offset = at_ + kBlock;
        if (tamper_ == Tamper::kDropWrite) {
          dropped_.push_back(IoCompletion{r.slot, static_cast<int64_t>(r.length)});
          continue;
        }
      }
      forward.push_back(r);
    }
    if (!forward.empty()) {
      Result<size_t> n = inner_->submit(forward);
      if (!n.ok()) return n;
    }
    return requests.size();
  }
  Result<size_t> reap(std::span<IoCompletion> out, size_t min_complete, std::chrono::microseconds timeout) override {
    size_t n = 0;
    while (!dropped_.empty() && n < out.size()) {
      out[n++] = dropped_.back();
      dropped_.pop_back();
    }
    if (n >= min_complete && n > 0) return n;
    Result<size_t> more = inner_->reap(out.subspan(n), min_complete - n, timeout);
    if (!more.ok()) return more;
    for (size_t i = n; i < n + more.value(); ++i)
      if (tamper_ == Tamper::kCorruptRead && slot_read_[out[i].slot] && slot_offset_[out[i].slot] == at_)
        buffers_[out[i].slot][4000] ^= std::byte{0x80};
    return n + more.value();
  }
  Status sync() override { return inner_->sync(); }
  void close() override { inner_->close(); }

 private:
  std::unique_ptr<Engine> inner_;
  Tamper tamper_;
  uint64_t at_;
  std::span<std::byte*> buffers_;
  std::vector<uint64_t> slot_offset_;
  std::vector<bool> slot_read_;
  std::vector<IoCompletion> dropped_;
};

RunOutcome RunVerified(const std::string& dir, JobSpec job, Tamper tamper = Tamper::kNone, uint64_t at = 0) {
  job.verify = true;
  job.bs = kBlock;
  job.size = kBlocks * kBlock;
  Result<std::unique_ptr<Target>> target = MakeTarget(dir, {});
  EXPECT_TRUE(target.ok());
  if (Status s = target.value()->Check(job); !s.ok()) {
    RunOutcome failed;
    failed.status = s;
    return failed;
  }
  RunHooks hooks;
  hooks.make_engine = [tamper, at](const std::string& name) -> Result<std::unique_ptr<Engine>> {
    Result<std::unique_ptr<Engine>> inner = MakeEngine(name);
    if (!inner.ok()) return inner.status();
    return std::unique_ptr<Engine>(new TamperingEngine(std::move(inner).value(), tamper, at));
  };
  return RunJob(job, *target.value(), {}, hooks);
}

using VerifyCase = std::tuple<std::string, bool, AccessPattern>;
class VerifyPassTest : public ::testing::TestWithParam<VerifyCase> {};

TEST_P(VerifyPassTest, EveryWrittenBlockIsReadBackAsWritten) {
  const auto& [engine, direct, rw] = GetParam();
  if (engine == "io_uring" && !IoUringAvailable()) NASPERF_SKIP_OR_FAIL_IN_CI("io_uring unavailable");
  TempDir dir;
  JobSpec job;
  job.rw = rw;
  job.engine = engine;
  job.direct = direct;
  job.qd = 8;
  job.threads = 2;
  RunOutcome outcome = RunVerified(dir.path(), job);
  if (!outcome.status.ok() && direct && outcome.status.kind() == ErrorKind::kBadInput)
    NASPERF_SKIP_OR_FAIL_IN_CI("O_DIRECT unsupported under /tmp: " + outcome.status.message());
  ASSERT_TRUE(outcome.status.ok()) << outcome.status.message();
  ASSERT_TRUE(outcome.result.verified_bytes);
  const uint64_t written = outcome.result.write ? outcome.result.write->bytes : 0;
  EXPECT_GT(written, 0u);
  // A size-bound pass writes each block at most once: what was written is what was checked.
  EXPECT_EQ(*outcome.result.verified_bytes, written);
  if (!DoesReads(rw)) {
    EXPECT_EQ(written, 2 * kBlocks * kBlock);
  }
  bool noted = false;
  for (const std::string& note : outcome.result.notes) noted = noted || note.rfind("verify: read back all", 0) == 0;
  EXPECT_TRUE(noted);
}

std::string CaseName(const ::testing::TestParamInfo<VerifyCase>& info) {
  return std::get<0>(info.param) + (std::get<1>(info.param) ? "_direct_" : "_buffered_") +
         ToString(std::get<2>(info.param));
}

INSTANTIATE_TEST_SUITE_P(AllModes, VerifyPassTest,
                         ::testing::Combine(::testing::Values("psync", "io_uring"), ::testing::Bool(),
                                            ::testing::Values(AccessPattern::kWrite, AccessPattern::kRandWrite,
                                                              AccessPattern::kRandReadWrite)),
                         CaseName);

TEST(VerifyPass, TimeBasedRewritesAreCheckedOncePerBlock) {
  TempDir dir;
  JobSpec job;
  job.rw = AccessPattern::kRandWrite;
  job.engine = "psync";
  job.time_based = true;
  job.time_s = 0.3;
  RunOutcome outcome = RunVerified(dir.path(), job);
  ASSERT_TRUE(outcome.status.ok()) << outcome.status.message();
  ASSERT_TRUE(outcome.result.verified_bytes);
  EXPECT_EQ(*outcome.result.verified_bytes, kBlocks * kBlock);  // every block, each once
}

std::string TamperName(const ::testing::TestParamInfo<Tamper>& info) {
  static const char* const kNames[] = {"None", "CorruptWrite", "MisplaceWrite", "DropWrite", "CorruptRead"};
  return kNames[static_cast<int>(info.param)];
}

class VerifyTamperTest : public ::testing::TestWithParam<Tamper> {};

TEST_P(VerifyTamperTest, DamageFailsTheRunNamingTheOffset) {
  TempDir dir;
  JobSpec job;
  job.rw = AccessPattern::kWrite;
  job.engine = "psync";
  const uint64_t at = 10 * kBlock;
  RunOutcome outcome = RunVerified(dir.path(), job, GetParam(), at);
  ASSERT_FALSE(outcome.status.ok());
  EXPECT_EQ(outcome.status.kind(), ErrorKind::kIo);
  const std::string& m = outcome.status.message();
  EXPECT_NE(m.find("verify: 4 KiB block at offset " + std::to_string(at)), std::string::npos) << m;
  EXPECT_NE(m.find("not what this run wrote"), std::string::npos) << m;
  EXPECT_EQ(m.find('\n'), std::string::npos) << m;
  EXPECT_TRUE(outcome.result.partial);
}

INSTANTIATE_TEST_SUITE_P(Damage, VerifyTamperTest,
                         ::testing::Values(Tamper::kCorruptWrite, Tamper::kMisplaceWrite, Tamper::kDropWrite,
                                           Tamper::kCorruptRead),
                         TamperName);

TEST(VerifyPass, AJobThatOnlyReadsHasNothingToVerify) {
  JobSpec job;
  job.rw = AccessPattern::kRandRead;
  job.verify = true;
  Status s = ValidateJob(job);
  EXPECT_EQ(s.kind(), ErrorKind::kBadInput);
  EXPECT_NE(s.message().find("--verify"), std::string::npos);
}

}  // namespace
}  // namespace nasperf
