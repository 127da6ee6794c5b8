// The copy loops (suite/app/copy_loop.h).
#include "suite/app/copy_loop.h"

#include <cstring>

#include "base/clock.h"
#include "base/signals.h"
#include "suite/app/copy_data.h"
#include "suite/app/op_timings.h"

namespace nasperf {
namespace {

// Runs `op`, recording its duration in `h`.
template <typename Op>
auto Timed(LatencyHistogram& h, Op&& op) {
  const uint64_t start = MonotonicNs();
  auto result = op();
  h.Record(MonotonicNs() - start);
  return result;
}


// `s` with what failed and on which file in front, of the same kind (a bad name stays bad
// input, Ctrl-C stays an interruption).
Status Failed(const char* what, const std::string& rel, const Status& s) {
  const std::string message = std::string(what) + " " + rel + ": " + s.message();
  switch (s.kind()) {
    case ErrorKind::kBadInput:
      return Status::BadInput(message);
    case ErrorKind::kUnavailable:
      return Status::Unavailable(message);
    case ErrorKind::kInterrupted:
      return s;
    default:
      return Status::Io(message, s.err());
  }
}

// Writes all of `data` (a short write continues where it stopped).
Status WriteAll(AppFile& f, const unsigned char* data, size_t bytes, const std::string& rel) {
  while (bytes > 0) {
    Result<size_t> n = f.Write(data, bytes);
    if (!n.ok()) return Failed("write", rel, n.status());
    if (n.value() == 0) return Status::Io("write " + rel + ": wrote nothing");
    data += n.value();
    bytes -= n.value();
  }
  return Status::Ok();
}

// Reads up to `bytes`, continuing after short reads; fewer only at end of file.
Result<size_t> ReadFull(AppFile& f, unsigned char* data, size_t bytes, const std::string& rel) {
  size_t got = 0;
  while (got < bytes) {
    Result<size_t> n = f.Read(data + got, bytes - got);
    if (!n.ok()) return Failed("read", rel, n.status());
    if (n.value() == 0) break;
    got += n.value();
  }
  return got;
}

}  // namespace

void CopyOpTimes::Merge(const CopyOpTimes& o) {
  mkdir.Merge(o.mkdir);
  open.Merge(o.open);
  create.Merge(o.create);
  read.Merge(o.read);
  write.Merge(o.write);
  setattr.Merge(o.setattr);
  fsync.Merge(o.fsync);
  close.Merge(o.close);
}

OpHistograms CopyOpTimes::Named() const {
  OpHistograms out;
  for (const auto& [name, h] : {std::pair{"mkdir", &mkdir}, std::pair{"open", &open}, std::pair{"create", &create},
                                std::pair{"read", &read}, std::pair{"write", &write}, std::pair{"setattr", &setattr},
                                std::pair{"fsync", &fsync}, std::pair{"close", &close}})
    if (h->count()) out.push_back(OpHistogram{name, *h});
  return out;
}

std::vector<AppOpLatency> CopyOpTimes::Figures() const { return OpHistogramFigures(Named()); }

Status CopyMakeDir(AppFileSystem& to, const std::string& dir, CopyOpTimes* times) {
  Status s = Timed(times->mkdir, [&] { return to.MakeDir(dir); });
  return s.ok() ? s : Failed("mkdir", dir, s);
}

Status CopyOneFile(const CopyEnds& ends, const CopyFile& file, const CopyOptions& options,
                   std::span<unsigned char> buffer, CopyOpTimes* times, CopyCounters* counters) {
  std::unique_ptr<AppFile> in, out;
  if (ends.from) {
    Result<std::unique_ptr<AppFile>> f = Timed(times->open, [&] { return ends.from->OpenRead(file.rel); });
    if (!f.ok()) return Failed("open", file.rel, f.status());
    in = std::move(f).value();
  }
  if (ends.to) {
    Result<std::unique_ptr<AppFile>> f = Timed(times->create, [&] { return ends.to->Create(file.rel); });
    if (!f.ok()) return Failed("create", file.rel, f.status());
    out = std::move(f).value();
  }
  uint64_t done = 0;
  while (done < file.size_bytes) {
    if (InterruptRequested()) return Status::Interrupted();
    const size_t want = static_cast<size_t>(std::min<uint64_t>(buffer.size(), file.size_bytes - done));
    size_t got = want;
    if (in) {
      Result<size_t> n = Timed(times->read, [&] { return ReadFull(*in, buffer.data(), want, file.rel); });
      if (!n.ok()) return n.status();
      got = n.value();
      if (got < want)
        return Status::Io("read " + file.rel + ": ended at " + std::to_string(done + got) + " of " +
                          std::to_string(file.size_bytes) + " bytes");
      counters->read_bytes.fetch_add(got, std::memory_order_relaxed);
    } else {
      FillCopyBytes(options.seed, file.index, done, buffer.data(), want);
    }
    if (out) {
      Status w = Timed(times->write, [&] { return WriteAll(*out, buffer.data(), got, file.rel); });
      if (!w.ok()) return w;
      counters->written_bytes.fetch_add(got, std::memory_order_relaxed);
    }
    done += got;
  }
  if (out && options.set_times) {
    Status s = Timed(times->setattr, [&] { return ends.to->SetTimes(file.rel, file.mtime_unix_ns); });
    if (!s.ok()) return Failed("set times of", file.rel, s);
  }
  if (out && options.sync && !counters->flush_unavailable.load(std::memory_order_relaxed)) {
    const uint64_t start = MonotonicNs();
    Status s = out->Sync();
    if (s.kind() == ErrorKind::kUnavailable) {
      // Not a flush that failed but one that does not exist: said once, never timed.
      if (!counters->flush_unavailable.exchange(true)) counters->flush_unavailable_why = s.message();
    } else if (!s.ok()) {
      return Failed("flush", file.rel, s);
    } else {
      times->fsync.Record(MonotonicNs() - start);
    }
  }
  for (std::unique_ptr<AppFile>* f : {&in, &out}) {
    if (!*f) continue;
    Status s = Timed(times->close, [&] { return (*f)->Close(); });
    if (!s.ok()) return Failed("close", file.rel, s);
  }
  counters->files.fetch_add(1, std::memory_order_relaxed);
  return Status::Ok();
}

Status StageFile(AppFileSystem& fs, const CopyFile& file, uint64_t seed, std::span<unsigned char> buffer) {
  Result<std::unique_ptr<AppFile>> f = fs.Create(file.rel);
  if (!f.ok()) return Failed("stage", file.rel, f.status());
  for (uint64_t done = 0; done < file.size_bytes;) {
    if (InterruptRequested()) return Status::Interrupted();
    const size_t n = static_cast<size_t>(std::min<uint64_t>(buffer.size(), file.size_bytes - done));
    FillCopyBytes(seed, file.index, done, buffer.data(), n);
    if (Status s = WriteAll(*f.value(), buffer.data(), n, file.rel); !s.ok()) return s;
    done += n;
  }
  // Staging is untimed: a source that cannot sync (SMB) is closed, which makes it visible.
  if (Status s = f.value()->Sync(); !s.ok() && s.kind() != ErrorKind::kUnavailable) return Failed("flush", file.rel, s);
  if (Status s = f.value()->Close(); !s.ok()) return Failed("close", file.rel, s);
  return Status::Ok();
}

Status VerifyFile(AppFileSystem& fs, const CopyFile& file, uint64_t seed, std::span<unsigned char> buffer,
                  std::span<unsigned char> expected, uint64_t* checked_bytes) {
  Result<std::unique_ptr<AppFile>> f = fs.OpenRead(file.rel);
  if (!f.ok()) return Failed("verify: open", file.rel, f.status());
  const size_t chunk = std::min(buffer.size(), expected.size());
  for (uint64_t done = 0;;) {
    if (InterruptRequested()) return Status::Interrupted();
    const size_t want = static_cast<size_t>(std::min<uint64_t>(chunk, file.size_bytes - done));
    // One byte more than is left: a longer file shows at its end.
    Result<size_t> n = ReadFull(*f.value(), buffer.data(), want ? want : 1, file.rel);
    if (!n.ok()) return n.status();
    if (want == 0) {
      if (n.value() != 0)
        return Status::Io("verify: " + file.rel + " is longer than its " + std::to_string(file.size_bytes) + " bytes");
      break;
    }
    if (n.value() < want)
      return Status::Io("verify: " + file.rel + " ends at " + std::to_string(done + n.value()) + " of " +
                        std::to_string(file.size_bytes) + " bytes");
    FillCopyBytes(seed, file.index, done, expected.data(), want);
    if (std::memcmp(buffer.data(), expected.data(), want) != 0) {
      size_t at = 0;
      while (buffer[at] == expected[at]) ++at;
      return Status::Io("verify: " + file.rel + " differs from the generated data at offset " +
                        std::to_string(done + at));
    }
    done += want;
    *checked_bytes += want;
  }
  return f.value()->Close();
}

}  // namespace nasperf
