// The engine conformance suite: every engine EngineNames() lists, at qd 1 and qd 8, keeps
// the Engine contract (include/nasperf/engine.h). What each engine is held to:
//   psync, io_uring  on a file in a temp dir: every request completes once with its full
//                    length; what is written is read back byte for byte (after sync);
//                    every rw mode runs through the runner, writes checked by --verify;
//                    close() with I/O in flight returns and the file is usable after.
//   null             does no I/O: every request completes once with its full length and
//                    buffers are left alone; every rw mode runs; close() with I/O in flight.
//   nfs, iscsi, smb  speak to a server (a RemoteFile, not an fd): skipped here with the
//                    reason; tests/lab/<engine>_lab_test.sh runs them against real servers.
#include <fcntl.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "core/runner.h"
#include "nasperf/engine.h"
#include "testing/test_support.h"
#include "workload/buffers.h"
#include "proto/make_target.h"
#include "proto/engine_registry.h"
#include "engine/local_engines.h"

namespace nasperf {
namespace {

using testing::TempDir;

constexpr uint32_t kBlock = 4096;
constexpr uint64_t kBlocks = 64;

bool IsLocal(const std::string& engine) { return engine == "psync" || engine == "io_uring" || engine == "null"; }
bool CarriesData(const std::string& engine) { return engine != "null"; }

// The first byte of every 8 stamped with the block and a pass number, so that a block
// read back from the wrong offset or an older pass differs.
void Stamp(std::byte* block, uint64_t index, uint8_t pass) {
  std::memset(block, 0, kBlock);
  for (uint32_t i = 0; i < kBlock; i += 8) {
    block[i] = static_cast<std::byte>(index);
    block[i + 1] = static_cast<std::byte>(pass);
    block[i + 2] = static_cast<std::byte>(i >> 3);
  }
}

using Case = std::tuple<std::string, uint32_t>;  // engine, queue depth

class EngineConformance : public ::testing::TestWithParam<Case> {
 protected:
  void SetUp() override {
    const auto& [engine, qd] = GetParam();
    if (!IsLocal(engine))
      GTEST_SKIP() << engine << " speaks to a server, not to a local file: tests/lab/" << engine
                   << "_lab_test.sh runs it against a real one";
    if (engine == "io_uring" && !IoUringAvailable()) NASPERF_SKIP_OR_FAIL_IN_CI("io_uring unavailable here");
    Result<std::unique_ptr<Engine>> made = MakeEngine(engine);
    ASSERT_TRUE(made.ok()) << made.status().message();
    engine_ = std::move(made).value();
    depth_ = engine_->caps().asynchronous ? qd : 1;
    Result<BufferPool> pool = BufferPool::Create(depth_, kBlock, BufferPattern{}, 1);
    ASSERT_TRUE(pool.ok()) << pool.status().message();
    pool_ = std::make_unique<BufferPool>(std::move(pool).value());
    path_ = dir_.Sub("conformance.dat");
    fd_ = ::open(path_.c_str(), O_CREAT | O_EXCL | O_RDWR | O_NOFOLLOW | O_CLOEXEC, 0600);
    ASSERT_GE(fd_, 0) << std::strerror(errno);
    ASSERT_EQ(::ftruncate(fd_, kBlocks * kBlock), 0);
  }
  void TearDown() override {
    if (fd_ >= 0) ::close(fd_);
  }

  Status Open() {
    return engine_->open(EngineOpenParams{fd_, nullptr, pool_->pointers(), pool_->block_bytes(), depth_, false});
  }

  // Moves every block once in `dir`, depth_ at a time; `before` fills a write's buffer,
  // `after` checks a read's. Expects every request to complete once with its full length.
  void Pass(IoDir dir, const std::function<void(std::byte*, uint64_t)>& before,
            const std::function<void(const std::byte*, uint64_t)>& after) {
    std::vector<IoRequest> batch(depth_);
    std::vector<IoCompletion> done(depth_);
    std::vector<uint64_t> slot_block(depth_);
    for (uint64_t first = 0; first < kBlocks; first += depth_) {
      const uint32_t n = static_cast<uint32_t>(std::min<uint64_t>(depth_, kBlocks - first));
      for (uint32_t s = 0; s < n; ++s) {
        slot_block[s] = first + s;
        if (before) before(pool_->slot(s), first + s);
        batch[s] = IoRequest{(first + s) * kBlock, kBlock, dir, s};
      }
      Result<size_t> accepted = engine_->submit(std::span<const IoRequest>(batch.data(), n));
      ASSERT_TRUE(accepted.ok()) << accepted.status().message();
      ASSERT_EQ(accepted.value(), n);
      std::set<uint32_t> seen;
      while (seen.size() < n) {
        Result<size_t> got = engine_->reap(std::span<IoCompletion>(done.data(), depth_), 1,
                                           std::chrono::microseconds(1000000));
        ASSERT_TRUE(got.ok()) << got.status().message();
        ASSERT_GT(got.value(), 0u) << "no completion within a second";
        for (size_t i = 0; i < got.value(); ++i) {
          EXPECT_EQ(done[i].result, static_cast<int64_t>(kBlock)) << "block " << slot_block[done[i].slot];
          EXPECT_TRUE(seen.insert(done[i].slot).second) << "slot " << done[i].slot << " completed twice";
          if (after) after(pool_->slot(done[i].slot), slot_block[done[i].slot]);
        }
      }
    }
  }

  TempDir dir_;
  std::unique_ptr<Engine> engine_;
  uint32_t depth_ = 1;
  std::unique_ptr<BufferPool> pool_;
  std::string path_;
  int fd_ = -1;
};

TEST_P(EngineConformance, WhatIsWrittenIsReadBack) {
  const std::string& engine = std::get<0>(GetParam());
  ASSERT_TRUE(Open().ok());
  ASSERT_NO_FATAL_FAILURE(Pass(IoDir::kWrite, [](std::byte* b, uint64_t i) { Stamp(b, i, 7); }, nullptr));
  ASSERT_TRUE(engine_->sync().ok());
  uint64_t mismatches = 0;
  std::vector<std::byte> expected(kBlock);
  ASSERT_NO_FATAL_FAILURE(Pass(
      IoDir::kRead, [](std::byte* b, uint64_t) { std::memset(b, 0xEE, kBlock); },
      [&](const std::byte* b, uint64_t i) {
        Stamp(expected.data(), i, 7);
        if (std::memcmp(b, expected.data(), kBlock) != 0) ++mismatches;
      }));
  engine_->close();
  if (CarriesData(engine)) {
    EXPECT_EQ(mismatches, 0u) << "blocks not read back as written";
  } else {
    EXPECT_EQ(mismatches, kBlocks) << "null moves no data: a read leaves the buffer as it was";
  }
}

// Requests still in flight when close() is called are drained or cancelled by it: it
// returns, and the file takes a new engine afterwards.
TEST_P(EngineConformance, CloseWithIoInFlightReturns) {
  ASSERT_TRUE(Open().ok());
  std::vector<IoRequest> batch;
  for (uint32_t s = 0; s < depth_; ++s) batch.push_back(IoRequest{s * kBlock, kBlock, IoDir::kRead, s});
  Result<size_t> accepted = engine_->submit(batch);
  ASSERT_TRUE(accepted.ok()) << accepted.status().message();
  engine_->close();
  Result<std::unique_ptr<Engine>> again = MakeEngine(std::get<0>(GetParam()));
  ASSERT_TRUE(again.ok());
  engine_ = std::move(again).value();
  ASSERT_TRUE(Open().ok());
  ASSERT_NO_FATAL_FAILURE(Pass(IoDir::kRead, nullptr, nullptr));
  engine_->close();
}

// Every rw mode through the runner, size-bound: each block once, and what a writing mode
// wrote is read back by --verify (data-carrying engines).
TEST_P(EngineConformance, EveryRwModeMovesEachBlockOnce) {
  const auto& [engine, qd] = GetParam();
  for (AccessPattern rw : {AccessPattern::kRead, AccessPattern::kWrite, AccessPattern::kRandRead,
                           AccessPattern::kRandWrite, AccessPattern::kReadWrite, AccessPattern::kRandReadWrite}) {
    SCOPED_TRACE(ToString(rw));
    Result<std::unique_ptr<Target>> target = MakeTarget(CarriesData(engine) ? dir_.path() : "null:", {});
    ASSERT_TRUE(target.ok()) << target.status().message();
    JobSpec job;
    job.rw = rw;
    job.engine = engine;
    job.bs = kBlock;
    job.qd = qd;
    job.size = kBlocks * kBlock;
    job.verify = CarriesData(engine) && DoesWrites(rw);
    ASSERT_TRUE(target.value()->Check(job).ok());
    RunOutcome out = RunJob(job, *target.value(), {});
    ASSERT_TRUE(out.status.ok()) << out.status.message();
    EXPECT_EQ(out.result.engine, engine);
    EXPECT_EQ(out.result.qd_run, depth_);
    const uint64_t ios = (out.result.read ? out.result.read->ios : 0) + (out.result.write ? out.result.write->ios : 0);
    EXPECT_EQ(ios, kBlocks);
    if (job.verify) {
      ASSERT_TRUE(out.result.verified_bytes);
      EXPECT_EQ(*out.result.verified_bytes, (out.result.write ? out.result.write->bytes : 0));
    }
  }
}

std::vector<Case> AllEngines() {
  std::vector<Case> cases;
  for (const std::string& name : EngineNames())
    for (uint32_t qd : {1u, 8u}) cases.emplace_back(name, qd);
  return cases;
}

std::string CaseName(const ::testing::TestParamInfo<Case>& info) {
  std::string name = std::get<0>(info.param) + "_qd" + std::to_string(std::get<1>(info.param));
  for (char& c : name)
    if (!isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(EveryEngine, EngineConformance, ::testing::ValuesIn(AllEngines()), CaseName);

}  // namespace
}  // namespace nasperf
