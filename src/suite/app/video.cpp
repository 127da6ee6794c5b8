// `nasperf app video`: staging, one thread per paced stream, the find-max search, the figures.
#include "suite/app/video.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <thread>

#include "base/aligned_buffer.h"
#include "base/signals.h"
#include "core/runner.h"
#include "workload/buffers.h"
#include "workload/dataset_bytes.h"
#include "suite/app/op_timings.h"

namespace nasperf {

uint64_t VideoPlan::ChunksFor(double seconds) const {
  const double chunks = std::ceil(seconds * static_cast<double>(rate_bytes_per_s()) / static_cast<double>(chunk_bytes));
  return std::max<uint64_t>(1, static_cast<uint64_t>(chunks));
}

double VideoPlan::probe_s() const { return std::max(time_s / 4, 2.0 * static_cast<double>(buffer_ns) / 1e9); }

Status ValidateVideoPlan(const VideoPlan& p) {
  if (p.streams < 1) return Status::BadInput(fmt::format("--streams {}: at least 1 stream", p.streams));
  if (!(p.rate_mbit > 0) || !std::isfinite(p.rate_mbit))
    return Status::BadInput(fmt::format("--rate {}: a rate above 0 Mbit/s", p.rate_mbit));
  if (p.rate_bytes_per_s() < 1) return Status::BadInput(fmt::format("--rate {}: below 1 byte per second", p.rate_mbit));
  if (p.rate_mbit > 1e6) return Status::BadInput(fmt::format("--rate {}: more than 1 Tbit/s per stream", p.rate_mbit));
  if (!(p.time_s > 0) || !std::isfinite(p.time_s) || p.time_s > 86400)
    return Status::BadInput(fmt::format("--time {}: between 0 and 86400 seconds", p.time_s));
  if (p.streams > 4096) return Status::BadInput(fmt::format("--streams {}: at most 4096", p.streams));
  if (p.max_search_streams < 1 || p.max_search_streams > 4096)
    return Status::BadInput(fmt::format("--max-streams {}: between 1 and 4096", p.max_search_streams));
  return Status::Ok();
}

namespace {


// A recorded chunk: the random fill made before the clock started, every 4 KiB stamped
// with its offset, the seed and the stream, so no block repeats (256 stores a chunk: cheap
// enough for the timed path, where generating the chunk afresh would not be).
void StampRecordChunk(AlignedBuffer& chunk, uint64_t stream, uint64_t offset, uint64_t seed) {
  StampBlock(chunk.bytes(), chunk.size(), offset, seed, stream);
}

class StreamChunks final : public ChunkIo {
 public:
  StreamChunks(std::unique_ptr<AppFile> file, bool write, uint64_t chunk_bytes, uint64_t seed, uint64_t stamp)
      : file_(std::move(file)), write_(write), chunk_(chunk_bytes), seed_(seed), stamp_(stamp) {
    FillPattern(chunk_.bytes(), chunk_.size(), BufferPattern{}, seed ^ stamp);
  }
  Status Transfer(uint64_t index) override {
    if (write_) {
      StampRecordChunk(chunk_, stamp_, index * chunk_.size(), seed_);
      return WriteAll(*file_, chunk_.bytes(), chunk_.size());
    }
    for (uint64_t done = 0; done < chunk_.size();) {
      Result<size_t> n = file_->Read(chunk_.bytes() + done, chunk_.size() - done);
      if (!n.ok()) return n.status();
      if (n.value() == 0) return Status::Io("video file ended before its last chunk");
      done += n.value();
    }
    return Status::Ok();
  }
  AppFile& file() { return *file_; }

 private:
  std::unique_ptr<AppFile> file_;
  bool write_;
  AlignedBuffer chunk_;  // one per stream, allocated before the clock starts
  uint64_t seed_, stamp_;
};

}  // namespace

std::string VideoWorkload::PlayName(uint32_t index) const { return fmt::format("play-{}.video", index); }

uint64_t VideoWorkload::BytesNeeded(uint32_t streams, double seconds) const {
  const uint64_t stream_bytes = plan_.ChunksFor(seconds) * plan_.chunk_bytes;
  uint64_t bytes = 0;
  for (uint32_t i = 0; i < streams; ++i)
    if (!plan_.PlaysStream(i) || i >= staged_streams_ || seconds > staged_s_) bytes += stream_bytes;
  return bytes;
}

Status VideoWorkload::CheckSpace(uint32_t streams, double seconds) {
  Result<AppSpace> space = fs_.Space();
  if (!space.ok()) return space.status();
  const uint64_t needed = BytesNeeded(streams, seconds);
  if (needed > space.value().free_bytes)
    return Status::BadInput(fmt::format("{}: {} streams of {} s need {} MB, and only {} MB are free", fs_.description(),
                                        streams, seconds, (needed + 999'999) / 1'000'000,
                                        space.value().free_bytes / 1'000'000));
  return Status::Ok();
}

Result<std::string> VideoWorkload::Stage(uint32_t streams, double seconds) {
  bool staged_any = false;
  const uint64_t chunks = plan_.ChunksFor(seconds);
  AlignedBuffer chunk(plan_.chunk_bytes);
  for (uint32_t i = 0; i < streams; ++i) {
    if (!plan_.PlaysStream(i)) continue;
    if (i < staged_streams_ && seconds <= staged_s_) continue;
    if (i < staged_streams_)
      if (Status s = fs_.Remove(PlayName(i)); !s.ok()) return s;
    Result<std::unique_ptr<AppFile>> f = fs_.Create(PlayName(i));
    if (!f.ok()) return f.status();
    // Play file i is file i of the dataset seeded --seed (workload/dataset_bytes.h).
    for (uint64_t k = 0; k < chunks; ++k) {
      if (InterruptRequested()) return Status::Interrupted();
      FillDatasetBytes(chunk.bytes(), chunk.size(), plan_.seed, i, k * chunk.size());
      if (Status s = WriteAll(*f.value(), chunk.bytes(), chunk.size()); !s.ok()) return s;
    }
    if (Status s = f.value()->Close(); !s.ok()) return s;
    staged_any = true;
  }
  if (streams > staged_streams_ || seconds > staged_s_) {
    staged_streams_ = std::max(staged_streams_, streams);
    staged_s_ = std::max(staged_s_, seconds);
  }
  // Dropped before every probe, not only after staging: a later probe of --find-max reads
  // files an earlier one read, which this machine would otherwise serve from its cache.
  if (staged_any || staged_streams_ > 0) {
    Result<ClientCacheDrop> dropped = fs_.DropClientCache();
    if (!dropped.ok()) return dropped.status();
    cache_note_ = dropped.value().note;
    cache_emptied_ = dropped.value().emptied;
    cache_evicted_some_ = dropped.value().evicted && !dropped.value().emptied;
  }
  return cache_note_;
}

VideoProbe VideoWorkload::RunProbe(uint32_t streams, double seconds) {
  VideoProbe probe;
  probe.streams = streams;
  probe.time_s = seconds;
  const uint32_t probe_index = probes_++;
  PacingPlan pacing;
  pacing.rate_bytes_per_s = plan_.rate_bytes_per_s();
  pacing.chunk_bytes = plan_.chunk_bytes;
  pacing.chunks = plan_.ChunksFor(seconds);
  pacing.buffer_ns = plan_.buffer_ns;

  // Open every file before the clock starts: an open is not part of a stream's pacing.
  std::vector<std::unique_ptr<StreamChunks>> ios;
  std::vector<std::string> record_names;
  for (uint32_t i = 0; i < streams && probe.status.ok(); ++i) {
    const bool play = plan_.PlaysStream(i);
    if (!play) record_names.push_back(fmt::format("record-{}-{}.video", probe_index, i));
    Result<std::unique_ptr<AppFile>> f = play ? fs_.OpenRead(PlayName(i)) : fs_.Create(record_names.back());
    if (!f.ok()) {
      probe.status = f.status();
      break;
    }
    ios.push_back(std::make_unique<StreamChunks>(std::move(f.value()), !play, plan_.chunk_bytes, plan_.seed,
                                                 (uint64_t{probe_index} << 32) | i));
  }

  std::vector<PacingOutcome> outcomes(ios.size());
  if (probe.status.ok()) {
    std::atomic<bool> stop{false};
    // Streams start 100 ms from now (their threads are running by then), each a fraction
    // of an interval after the one before, as players started one by one would.
    const uint64_t start_ns = clock_.NowNs() + 100'000'000;
    std::vector<std::thread> threads;
    for (size_t i = 0; i < ios.size(); ++i) {
      const uint64_t offset_ns = static_cast<uint64_t>(pacing.interval_ns() * static_cast<double>(i) / ios.size());
      threads.emplace_back([&, i, offset_ns] {
        RunPacedStream(clock_, start_ns + offset_ns, pacing, *ios[i], &stop, outcomes[i]);
        if (!outcomes[i].status.ok()) stop.store(true);
      });
    }
    for (std::thread& t : threads) t.join();
    const uint64_t end_ns = clock_.NowNs();
    probe.elapsed_s = static_cast<double>(end_ns - start_ns) / 1e9;
  }

  for (size_t i = 0; i < outcomes.size(); ++i) {
    const PacingOutcome& o = outcomes[i];
    const bool play = plan_.PlaysStream(static_cast<uint32_t>(i));
    if (Status s = ios[i]->file().Close(); !s.ok() && o.status.ok() && probe.status.ok()) probe.status = s;
    if (!o.status.ok() && probe.status.ok()) probe.status = o.status;
    AppStream s;
    s.index = static_cast<uint32_t>(i);
    s.dir = play ? "play" : "record";
    s.chunks = o.chunks_done;
    s.deadline_misses = o.deadline_misses;
    s.stall_s = static_cast<double>(o.stall_ns) / 1e9;
    s.late_p99_us = o.latency->Percentile(0.99) / 1000;
    probe.per_stream.push_back(s);
    probe.deadline_misses += o.deadline_misses;
    probe.stall_s += s.stall_s;
    (play ? probe.read_bytes : probe.write_bytes) += o.chunks_done * plan_.chunk_bytes;
    (play ? probe.read_chunks : probe.write_chunks) += o.chunks_done;
    probe.latency->Merge(*o.latency);
    probe.service->Merge(*o.service);
    (play ? probe.read_latency : probe.write_latency)->Merge(*o.latency);
  }
  ios.clear();
  for (const std::string& name : record_names)
    if (Status s = fs_.Remove(name); !s.ok() && probe.status.ok()) probe.status = s;
  return probe;
}

Result<StreamSearch> SearchMaxStreams(uint32_t limit, const std::function<Result<bool>(uint32_t)>& probe) {
  StreamSearch search;
  auto run = [&](uint32_t n) -> Result<bool> {
    Result<bool> passed = probe(n);
    if (passed.ok()) search.probes.emplace_back(n, passed.value());
    return passed;
  };
  if (limit < 1) return search;
  uint32_t pass = 0, fail = 0;
  for (uint32_t n = 1;; n = std::min<uint64_t>(uint64_t{n} * 2, limit)) {
    Result<bool> passed = run(n);
    if (!passed.ok()) return passed.status();
    if (!passed.value()) {
      fail = n;
      break;
    }
    pass = n;
    if (n == limit) break;
  }
  // Bisection between the last pass and the first failure.
  while (fail != 0 && fail - pass > 1) {
    const uint32_t mid = pass + (fail - pass) / 2;
    Result<bool> passed = run(mid);
    if (!passed.ok()) return passed.status();
    (passed.value() ? pass : fail) = mid;
  }
  search.max_streams = pass;
  return search;
}

void FillVideoRun(const VideoPlan& plan, const VideoProbe& probe, const std::string& target,
                  std::optional<uint32_t> max_streams, RunResult& run, const std::string& whose) {
  AppFigures app;
  app.workload = "video";
  const bool plays = probe.read_chunks > 0 || plan.mode != VideoMode::kRecord;
  const bool records = probe.write_chunks > 0 || plan.mode != VideoMode::kPlay;
  if (plays) app.from = target;
  if (records) app.to = target;
  app.elapsed_s = probe.elapsed_s;
  app.bytes = probe.read_bytes + probe.write_bytes;
  app.files = probe.streams;
  app.mb_per_s = probe.elapsed_s > 0 ? static_cast<double>(app.bytes) / probe.elapsed_s / 1e6 : 0;
  // A stream's file is open the whole run: files/s would describe nothing (printed "-").
  app.threads = probe.streams;
  app.cache_state = "unknown";
  // A recording stream writes its chunks and closes the file: nothing is flushed in the clock.
  if (probe.write_chunks) app.write_flush = kWriteFlushNone;
  app.streams = probe.per_stream;
  app.max_streams = max_streams;
  if (probe.latency->count()) {
    app.ops.push_back(SummariseOpHistogram("chunk", *probe.latency));
    app.ops.push_back(SummariseOpHistogram("chunk-service", *probe.service));
  }
  run.app = app;
  if (probe.read_chunks)
    run.read = SummariseDirection(probe.read_bytes, probe.read_chunks, probe.elapsed_s, 0, probe.read_latency);
  if (probe.write_chunks)
    run.write = SummariseDirection(probe.write_bytes, probe.write_chunks, probe.elapsed_s, 0, probe.write_latency);
  run.partial = !probe.status.ok();
  if (run.partial) run.error = probe.status.kind() == ErrorKind::kInterrupted ? "interrupted" : probe.status.message();
  run.notes.push_back(fmt::format(
      "{}{} streams x {} s at {} Mbit/s in {} KiB chunks, {} s player buffer: {} deadline misses, "
      "{:.3f} s stalled ({})",
      whose, probe.streams, probe.time_s, plan.rate_mbit, plan.chunk_bytes / 1024,
      static_cast<double>(plan.buffer_ns) / 1e9,
      probe.deadline_misses, probe.stall_s,
      probe.pass()                 ? "kept up"
      : probe.deadline_misses > 0 ? "did not keep up"
                                  : "no verdict: stopped early, no miss while it ran"));
  run.notes.push_back(
      "latency (read, write, chunk) is timed from each chunk's intended start (no coordinated omission); "
      "chunk-service from its actual issue");
}

}  // namespace nasperf
