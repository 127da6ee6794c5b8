// The file-copy workload (suite/app/file_copy.h).
#include "suite/app/file_copy.h"

#include <fmt/format.h>

#include <cmath>
#include <memory>

#include "base/aligned_buffer.h"
#include "base/clock.h"
#include "base/units.h"
#include "suite/app/copy_data.h"

namespace nasperf {
namespace {

// A DVD-Video folder as ripped: 4,680,843,264 bytes in 38 files.
constexpr uint64_t kVobBytes = 1'073'709'056;     // a full VOB (just under 1 GiB)
constexpr uint64_t kShortVobBytes = 150'000'000;  // the last VOB of a title set
constexpr uint64_t kIfoBytes = 2'687'720;         // menus, IFO and BUP
constexpr uint64_t kDvdFolderBytes = 4'680'843'264;
static_assert(4 * kVobBytes + 2 * kShortVobBytes + 32 * kIfoBytes == kDvdFolderBytes);

uint64_t Scaled(uint64_t bytes, double scale) {
  const double v = std::floor(static_cast<double>(bytes) * scale);
  return v < 1 ? 1 : static_cast<uint64_t>(v);
}

void Add(FileCopyPlan& plan, std::string name, uint64_t bytes) {
  CopyFile f;
  f.rel = std::move(name);
  f.size_bytes = Scaled(bytes, plan.scale);
  f.index = plan.files.size();
  plan.total_bytes += f.size_bytes;
  plan.files.push_back(std::move(f));
}

void AddDvdFolder(FileCopyPlan& plan) {
  for (int i = 1; i <= 4; ++i) Add(plan, "VTS_01_" + std::to_string(i) + ".VOB", kVobBytes);
  Add(plan, "VTS_01_5.VOB", kShortVobBytes);
  Add(plan, "VTS_02_1.VOB", kShortVobBytes);
  for (int i = 0; i < 16; ++i) {
    const std::string set = (i < 10 ? "VTS_0" : "VTS_") + std::to_string(i) + "_0";
    Add(plan, set + ".IFO", kIfoBytes);
    Add(plan, set + ".BUP", kIfoBytes);
  }
}

}  // namespace

Result<FileCopyPlan> PlanFileCopy(const std::string& preset, uint64_t size_bytes, double scale,
                                  uint64_t client_ram_bytes) {
  if (!(scale > 0) || !std::isfinite(scale))
    return Status::BadInput(fmt::format("file-copy: --scale must be above 0, got {:g}", scale));
  FileCopyPlan plan;
  plan.preset = preset;
  plan.scale = scale;
  if (preset == "dvd-folder") {
    AddDvdFolder(plan);
  } else if (preset == "large") {
    if (client_ram_bytes == 0) return Status::BadInput("file-copy: --preset large: this machine's RAM is not known");
    Add(plan, "large.bin", 2 * client_ram_bytes);
  } else if (preset.empty()) {
    if (size_bytes == 0) return Status::BadInput("file-copy: --size must be above 0");
    Add(plan, "file.bin", size_bytes);
  } else {
    return Status::BadInput("file-copy: unknown --preset " + preset + " (dvd-folder, large)");
  }
  return plan;
}

Status CheckFileCopySpace(const CopyEnds& ends, const FileCopyPlan& plan) {
  if (Status s = NeedRoom(ends.from, plan.total_bytes, "file-copy: source"); !s.ok()) return s;
  return NeedRoom(ends.to, plan.total_bytes, "file-copy: destination");
}

AppRunOutcome RunFileCopy(const CopyEnds& ends, const FileCopyPlan& plan, const FileCopyOptions& options, RunSink& sink,
                          SuiteProgress& progress, const AppRunLabels& labels) {
  return RecordAppRun(sink, labels, [&](AppMeasured& m) -> Status {
    AppFigures& app = m.app;
    app.workload = "file-copy";
    app.from = options.from;
    app.to = options.to;
    app.threads = 1;
    app.cache_state = "unknown";
    AppDataset dataset;
    dataset.generator = "nasperf-copy 1";
    dataset.preset = plan.preset;
    dataset.scale = plan.scale;
    dataset.seed = options.seed;
    dataset.files = plan.files.size();
    dataset.bytes = plan.total_bytes;
    progress.SetLabel("file-copy: digest");
    Result<std::string> digest = GeneratedCopyDigest({}, plan.files, options.seed);
    if (!digest.ok()) return digest.status();
    dataset.digest = digest.value();
    app.dataset = dataset;
    AlignedBuffer aligned(options.request_bytes);
    const std::span<unsigned char> buffer = aligned.span();
    // Staging: before the clock.
    progress.SetLabel("file-copy: staging");
    progress.ShowLabel(FormatSize(plan.total_bytes));
    if (ends.from)
      for (const CopyFile& f : plan.files)
        if (Status s = StageFile(*ends.from, f, options.seed, buffer); !s.ok()) return s;
    CacheFacts cache = options.cache;
    cache.data_bytes = plan.total_bytes;
    DropClientCaches({ends.from, ends.to}, cache, m.notes);
    app.cache_state = CacheStateOf(cache);

    progress.SetLabel("file-copy");
    auto times = std::make_unique<CopyOpTimes>();
    CopyCounters counters;
    CopySampler sampler(counters, progress);
    CopyOptions copy;
    copy.seed = options.seed;
    copy.sync = options.sync;
    if (Status met = m.before_clock(); !met.ok()) return met;
    Status status = Status::Ok();
    const uint64_t start = MonotonicNs();
    sampler.Start(start);
    for (const CopyFile& f : plan.files)
      if (status = CopyOneFile(ends, f, copy, buffer, times.get(), &counters); !status.ok()) break;
    const uint64_t end = MonotonicNs();
    sampler.Stop(end);
    progress.Clear();
    app.elapsed_s = static_cast<double>(end - start) / 1e9;
    app.files = counters.files.load();
    app.bytes = ends.to ? counters.written_bytes.load() : counters.read_bytes.load();
    if (!ends.from && !ends.to) app.bytes = plan.total_bytes;
    app.mb_per_s = app.elapsed_s > 0 ? app.bytes / app.elapsed_s / 1e6 : 0;
    app.files_per_s = app.elapsed_s > 0 ? app.files / app.elapsed_s : 0;
    if (ends.to) app.write_flush = WriteFlushOf(counters.written_bytes.load(), app.files, times->fsync.count());
    app.ops = times->Figures();
    if (counters.flush_unavailable.load())
      m.notes.push_back("no flush: " + counters.flush_unavailable_why + "; timed to the last close");
    else if (!options.sync && ends.to)
      m.notes.push_back("not flushed (--no-flush): timed to the last close, the data possibly still in a page cache");
    m.samples = sampler.samples();
    m.read_bytes = counters.read_bytes.load();
    m.written_bytes = counters.written_bytes.load();
    if (ends.from) m.read = std::make_shared<LatencyHistogram>(times->read);
    if (ends.to) m.write = std::make_shared<LatencyHistogram>(times->write);
    m.op_times = std::move(times);
    if (options.after_copy) options.after_copy();
    // Our files, removed now (the workspace goes with its AppFileSystem too).
    for (AppFileSystem* fs : {ends.to, ends.from})
      if (fs)
        for (const CopyFile& f : plan.files) fs->Remove(f.rel);
    return status;
  });
}

}  // namespace nasperf
