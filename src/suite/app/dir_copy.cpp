// The dir-copy workload (suite/app/dir_copy.h).
#include "suite/app/dir_copy.h"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <mutex>
#include <thread>

#include "base/aligned_buffer.h"
#include "base/clock.h"
#include "base/units.h"
#include "suite/app/copy_data.h"
#include "suite/app/file_copy.h"

namespace nasperf {
namespace {

Status ListInto(AppFileSystem& fs, const std::string& rel, CopyTree* tree, int depth) {
  if (depth > 256) return Status::BadInput("dir-copy: --source is deeper than 256 levels at " + rel);
  Result<std::vector<AppDirEntry>> entries = fs.List(rel);
  if (!entries.ok()) return entries.status();
  std::vector<AppDirEntry> sorted = std::move(entries).value();
  std::sort(sorted.begin(), sorted.end(), [](const AppDirEntry& a, const AppDirEntry& b) { return a.name < b.name; });
  for (const AppDirEntry& e : sorted) {
    const std::string path = rel.empty() ? e.name : rel + "/" + e.name;
    if (e.is_dir) {
      tree->dirs.push_back(path);
      if (Status s = ListInto(fs, path, tree, depth + 1); !s.ok()) return s;
    } else {
      CopyFile f;
      f.rel = path;
      f.size_bytes = e.size_bytes;
      f.index = tree->files.size();
      tree->total_bytes += e.size_bytes;
      tree->files.push_back(std::move(f));
    }
  }
  return Status::Ok();
}

Status StageTree(AppFileSystem& fs, const CopyTree& tree, uint64_t seed, std::span<unsigned char> buffer) {
  CopyOpTimes unused;
  for (const std::string& d : tree.dirs)
    if (Status s = CopyMakeDir(fs, d, &unused); !s.ok()) return s;
  for (const CopyFile& f : tree.files)
    if (Status s = StageFile(fs, f, seed, buffer); !s.ok()) return s;
  return Status::Ok();
}

// Removes the files then the directories of `tree` on `fs`, deepest first; what is
// already gone (a copy stopped early) is skipped. The workspace goes with `fs` anyway.
void RemoveTree(AppFileSystem& fs, const CopyTree& tree) {
  for (const CopyFile& f : tree.files) fs.Remove(f.rel);
  for (auto it = tree.dirs.rbegin(); it != tree.dirs.rend(); ++it) fs.RemoveDir(*it);
}

// The copy's workers: each takes the next file until none is left or one fails.
struct Workers {
  std::atomic<size_t> next{0};
  std::atomic<bool> failed{false};
  std::mutex mu;
  Status first_error = Status::Ok();

  void Fail(const Status& s) {
    std::lock_guard lock(mu);
    if (first_error.ok()) first_error = s;
    failed = true;
  }
};

Status CopyFiles(const CopyEnds& ends, const CopyTree& tree, const DirCopyOptions& options, CopyOpTimes* merged,
                 CopyCounters* counters) {
  const uint32_t threads = std::max<uint32_t>(1, options.threads);
  std::vector<std::unique_ptr<CopyOpTimes>> times;
  for (uint32_t i = 0; i < threads; ++i) times.push_back(std::make_unique<CopyOpTimes>());
  Workers w;
  CopyOptions copy;
  copy.seed = options.seed;
  copy.set_times = options.set_times;
  copy.sync = options.flush;
  auto work = [&](CopyOpTimes* mine) {
    AlignedBuffer aligned(options.request_bytes);
    const std::span<unsigned char> buffer = aligned.span();
    while (!w.failed.load()) {
      const size_t i = w.next.fetch_add(1);
      if (i >= tree.files.size()) return;
      if (Status s = CopyOneFile(ends, tree.files[i], copy, buffer, mine, counters); !s.ok()) return w.Fail(s);
    }
  };
  std::vector<std::thread> pool;
  for (uint32_t i = 1; i < threads; ++i) pool.emplace_back(work, times[i].get());
  work(times[0].get());
  for (std::thread& t : pool) t.join();
  for (const auto& t : times) merged->Merge(*t);
  return w.first_error;
}

AppDataset SourceDataset(const CopyTree& tree) {
  AppDataset d = tree.dataset;
  d.files = tree.files.size();
  d.dirs = tree.dirs.size();
  d.bytes = tree.total_bytes;
  return d;
}

}  // namespace

Result<CopyTree> ListSourceTree(AppFileSystem& source) {
  CopyTree tree;
  tree.generated = false;
  if (Status s = ListInto(source, "", &tree, 0); !s.ok()) return s;
  if (tree.files.empty()) return Status::BadInput("dir-copy: --source " + source.description() + " holds no file");
  tree.dataset.generator = "source directory";
  return tree;
}

Status CheckDirCopySpace(const CopyEnds& ends, const CopyTree& tree) {
  if (tree.generated)
    if (Status s = NeedRoom(ends.from, tree.total_bytes, "dir-copy: source"); !s.ok()) return s;
  return NeedRoom(ends.to, tree.total_bytes, "dir-copy: destination");
}

AppRunOutcome RunDirCopy(const CopyEnds& ends, const CopyTree& tree, const DirCopyOptions& options, RunSink& sink,
                         SuiteProgress& progress, const AppRunLabels& labels) {
  return RecordAppRun(sink, labels, [&](AppMeasured& m) -> Status {
    AppFigures& app = m.app;
    app.workload = "dir-copy";
    app.from = options.from;
    app.to = options.to;
    app.threads = std::max<uint32_t>(1, options.threads);
    app.cache_state = "unknown";
    app.dataset = SourceDataset(tree);
    // What this run writes is the tree under its own seed (a repeat's differs): that is
    // the seed and the digest the record keeps. A --source tree is hashed by nobody.
    if (tree.generated) {
      progress.SetLabel("dir-copy: digest");
      app.dataset->seed = options.seed;
      Result<std::string> digest = GeneratedCopyDigest(tree.dirs, tree.files, options.seed);
      if (!digest.ok()) return digest.status();
      app.dataset->digest = digest.value();
    }
    AlignedBuffer aligned(options.request_bytes);
    const std::span<unsigned char> buffer = aligned.span();
    const bool staged = tree.generated && ends.from;
    if (staged) {
      progress.SetLabel("dir-copy: staging");
      progress.ShowLabel(fmt::format("{} files, {}", tree.files.size(), FormatSize(tree.total_bytes)));
      if (Status s = StageTree(*ends.from, tree, options.seed, buffer); !s.ok()) {
        RemoveTree(*ends.from, tree);
        return s;
      }
    }
    CacheFacts cache = options.cache;
    cache.data_bytes = tree.total_bytes;
    DropClientCaches({ends.from, ends.to}, cache, m.notes);
    app.cache_state = CacheStateOf(cache);

    progress.SetLabel("dir-copy");
    auto op_times = std::make_shared<CopyOpTimes>();
    CopyOpTimes& times = *op_times;
    CopyCounters counters;
    CopySampler sampler(counters, progress);
    if (Status met = m.before_clock(); !met.ok()) return met;
    Status status = Status::Ok();
    const uint64_t start = MonotonicNs();
    sampler.Start(start);
    if (ends.to)
      for (const std::string& d : tree.dirs)
        if (status = CopyMakeDir(*ends.to, d, &times); !status.ok()) break;
    if (status.ok()) status = CopyFiles(ends, tree, options, &times, &counters);
    const uint64_t end = MonotonicNs();
    sampler.Stop(end);
    progress.Clear();

    app.elapsed_s = static_cast<double>(end - start) / 1e9;
    app.files = counters.files.load();
    app.bytes = ends.to ? counters.written_bytes.load() : counters.read_bytes.load();
    if (!ends.from && !ends.to && status.ok()) app.bytes = tree.total_bytes;
    app.mb_per_s = app.elapsed_s > 0 ? app.bytes / app.elapsed_s / 1e6 : 0;
    app.files_per_s = app.elapsed_s > 0 ? app.files / app.elapsed_s : 0;
    if (ends.to) app.write_flush = WriteFlushOf(counters.written_bytes.load(), app.files, times.fsync.count());
    app.ops = times.Figures();
    if (options.file_copy_mb_per_s && app.mb_per_s > 0 && status.ok()) {
      app.small_file_penalty = *options.file_copy_mb_per_s / app.mb_per_s;
      m.notes.push_back("small-file penalty against " + options.file_copy_source);
    }
    if (counters.flush_unavailable.load())
      m.notes.push_back("no flush: " + counters.flush_unavailable_why + "; timed to the last close");
    else if (!options.flush && ends.to)
      m.notes.push_back("not flushed (--no-flush): timed to the last close, the data possibly still in a page cache");
    if (!options.set_times && ends.to)
      m.notes.push_back("data only (--no-times): no file's modification time was set, as robocopy /COPY:D");
    m.samples = sampler.samples();
    m.read_bytes = counters.read_bytes.load();
    m.written_bytes = counters.written_bytes.load();
    if (ends.from) m.read = std::make_shared<LatencyHistogram>(times.read);
    if (ends.to) m.write = std::make_shared<LatencyHistogram>(times.write);
    m.op_times = op_times;
    if (options.after_copy) options.after_copy();

    if (status.ok() && options.verify && ends.to) {
      progress.SetLabel("dir-copy: verify");
      progress.ShowLabel(fmt::format("{} files", tree.files.size()));
      AlignedBuffer expected_buffer(options.request_bytes);
      const std::span<unsigned char> expected = expected_buffer.span();
      uint64_t checked = 0;
      for (const CopyFile& f : tree.files) {
        // A --source tree's bytes are its own: compare with the source, not the generator.
        if (tree.generated)
          status = VerifyFile(*ends.to, f, options.seed, buffer, expected, &checked);
        else
          status = Status::Unavailable("dir-copy: --verify checks generated trees only, not --source");
        if (!status.ok()) break;
      }
      progress.Clear();
      if (status.ok()) m.verified_bytes = checked;
    }
    if (ends.to) RemoveTree(*ends.to, tree);
    if (staged) RemoveTree(*ends.from, tree);
    return status;
  });
}

}  // namespace nasperf
