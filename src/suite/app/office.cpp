// PlanOffice, StageOffice and RunOffice: the users' loop, one phase per operation.
#include "suite/app/office.h"

#include <fmt/format.h>

#include <algorithm>
#include <random>

#include "base/signals.h"
#include "suite/app/app_bytes.h"
#include "suite/app/op_timings.h"
#include "suite/app/staging.h"

namespace nasperf {
namespace {

enum OfficeOp : size_t { kOpen, kRead, kWrite, kFsync, kRename, kList };
constexpr uint64_t kSleepSliceNs = 100'000'000;  // Ctrl-C is noticed within this, mid-think

// StagedBytes' file number of a document's version: every save writes new bytes.
uint64_t DocFile(uint32_t user, uint32_t doc, uint32_t version) {
  return (uint64_t{user} << 40) | (uint64_t{doc} << 20) | version;
}

struct User {
  uint32_t index = 0;
  uint64_t next_ns = 0;  // when its next operation is due
  int step = 0;          // 0 open+read, 1 safe-save, 2 browse
  std::mt19937_64 rng;
  std::vector<uint32_t> versions;
};

class OfficeRun {
 public:
  OfficeRun(AppFileSystem& fs, const OfficePlan& plan, Clock& clock, AppFigures* out)
      : fs_(fs),
        plan_(plan),
        clock_(clock),
        out_(out),
        buffer_(plan.options.request_bytes),
        timings_({"open", "read", "write", "fsync", "rename", "list"}, 4096) {}

  Status Run();
  // Why the target could not sync, when it could not; empty otherwise.
  const std::string& sync_unavailable() const { return sync_unavailable_; }
  const OpTimings& timings() const { return timings_; }

 private:
  // Each returns the operation's own failure; the timings are added as each step ends.
  Status OpenRead(User& u);
  Status SafeSave(User& u);
  Status Browse(User& u);
  // Sleeps until `due_ns` (in slices, to notice Ctrl-C); false when interrupted.
  bool SleepUntil(uint64_t due_ns);
  uint64_t Lap(size_t op, uint64_t since_ns) {
    const uint64_t now = clock_.NowNs();
    timings_.Add(op, now - since_ns);
    return now;
  }

  AppFileSystem& fs_;
  const OfficePlan& plan_;
  Clock& clock_;
  AppFigures* out_;
  std::vector<uint8_t> buffer_;
  OpTimings timings_;
  std::string sync_unavailable_;  // why the target cannot sync, once it said so
};

bool OfficeRun::SleepUntil(uint64_t due_ns) {
  for (uint64_t now = clock_.NowNs(); now < due_ns; now = clock_.NowNs()) {
    if (InterruptRequested()) return false;
    clock_.SleepNs(std::min(due_ns - now, kSleepSliceNs));
  }
  return !InterruptRequested();
}

Status OfficeRun::OpenRead(User& u) {
  const uint32_t doc = static_cast<uint32_t>(u.rng() % plan_.sizes[u.index].size());
  const std::string name = OfficeDocName(u.index, doc);
  const uint64_t start = clock_.NowNs();
  Result<std::unique_ptr<AppFile>> file = fs_.OpenRead(name);
  if (!file.ok()) return file.status();
  const uint64_t opened = Lap(kOpen, start);
  uint64_t bytes = 0;
  while (true) {
    Result<size_t> got = file.value()->Read(buffer_.data(), buffer_.size());
    if (!got.ok()) return got.status();
    if (got.value() == 0) break;
    bytes += got.value();
  }
  if (Status s = file.value()->Close(); !s.ok()) return s;
  Lap(kRead, opened);
  if (bytes != plan_.sizes[u.index][doc])
    return Status::Io(fmt::format("{}: read {} bytes of {}", name, bytes, plan_.sizes[u.index][doc]));
  out_->bytes += bytes;
  ++out_->files;
  return Status::Ok();
}

Status OfficeRun::SafeSave(User& u) {
  const uint32_t doc = static_cast<uint32_t>(u.rng() % plan_.sizes[u.index].size());
  const std::string name = OfficeDocName(u.index, doc);
  const std::string temp = fmt::format("{}/~doc{:04}.tmp", OfficeUserDir(u.index), doc);
  const uint64_t size = plan_.sizes[u.index][doc];
  const uint64_t file_index = DocFile(u.index, doc, ++u.versions[doc]);
  const uint64_t start = clock_.NowNs();
  Result<std::unique_ptr<AppFile>> file = fs_.Create(temp);
  if (!file.ok()) return file.status();
  for (uint64_t at = 0; at < size;) {
    const size_t n = static_cast<size_t>(std::min<uint64_t>(buffer_.size(), size - at));
    // Generating the bytes is inside the write's time: a few microseconds per 64 KiB,
    // against a network write's hundreds; the alternative is a document-sized buffer.
    StagedBytes(plan_.options.seed, file_index, at, std::span<uint8_t>(buffer_.data(), n));
    Result<size_t> wrote = file.value()->Write(buffer_.data(), n);
    if (!wrote.ok()) return wrote.status();
    if (wrote.value() == 0) return Status::Io(temp + ": write made no progress");
    at += wrote.value();
  }
  const uint64_t written = Lap(kWrite, start);
  if (sync_unavailable_.empty()) {
    Status s = file.value()->Sync();
    if (s.kind() == ErrorKind::kUnavailable) {
      sync_unavailable_ = s.message();  // asked once: every later save is without it
    } else if (!s.ok()) {
      return s;
    } else {
      Lap(kFsync, written);
    }
  }
  if (Status s = file.value()->Close(); !s.ok()) return s;
  const uint64_t closed = clock_.NowNs();
  if (Status s = fs_.Rename(temp, name); !s.ok()) return s;
  Lap(kRename, closed);
  out_->bytes += size;
  ++out_->files;
  return Status::Ok();
}

Status OfficeRun::Browse(User& u) {
  const uint64_t start = clock_.NowNs();
  Result<std::vector<AppDirEntry>> listed = fs_.List(OfficeUserDir(u.index));
  if (!listed.ok()) return listed.status();
  Lap(kList, start);
  // After a safe-save the folder holds the documents and nothing else (no temp file left).
  if (listed.value().size() != plan_.sizes[u.index].size())
    return Status::Io(fmt::format("{}: {} entries, expected {} documents", OfficeUserDir(u.index),
                                  listed.value().size(), plan_.sizes[u.index].size()));
  return Status::Ok();
}

Status OfficeRun::Run() {
  out_->workload = "office";
  out_->threads = plan_.options.users;
  const uint64_t think_ns = uint64_t{plan_.options.think_ms} * 1'000'000;
  const uint64_t start_ns = clock_.NowNs();
  const uint64_t deadline_ns = start_ns + static_cast<uint64_t>(plan_.options.time_s * 1e9);
  std::vector<User> users(plan_.options.users);
  for (uint32_t i = 0; i < users.size(); ++i) {
    users[i].index = i;
    // Users start spread over one think time, so they do not all open at once.
    users[i].next_ns = start_ns + think_ns * i / users.size();
    users[i].rng.seed(plan_.options.seed ^ (0x5bd1e995ull * (i + 1)));
    users[i].versions.assign(plan_.sizes[i].size(), 0);
  }
  Status status;
  uint64_t end_ns = start_ns;
  while (status.ok()) {
    User& u = *std::min_element(users.begin(), users.end(),
                                [](const User& a, const User& b) { return a.next_ns < b.next_ns; });
    if (u.next_ns >= deadline_ns) {
      // Every user is thinking past the end: the run lasted until the deadline.
      if (!SleepUntil(deadline_ns)) status = Status::Interrupted();
      end_ns = clock_.NowNs();
      break;
    }
    if (!SleepUntil(u.next_ns)) {
      status = Status::Interrupted();
      end_ns = clock_.NowNs();
      break;
    }
    status = u.step == 0 ? OpenRead(u) : u.step == 1 ? SafeSave(u) : Browse(u);
    u.step = (u.step + 1) % 3;
    end_ns = clock_.NowNs();
    u.next_ns = end_ns + think_ns;
  }
  out_->elapsed_s = static_cast<double>(end_ns - start_ns) / 1e9;
  out_->ops = timings_.Summarise();
  uint64_t saves = 0, fsyncs = 0;  // a save's write is one timed write of its temp file
  for (const AppOpLatency& o : out_->ops) {
    if (o.op == "write") saves = o.count;
    if (o.op == "fsync") fsyncs = o.count;
  }
  // Each safe-save fsyncs its temp file before the rename (unless the target has no flush).
  out_->write_flush = WriteFlushOf(saves, saves, fsyncs);
  if (out_->elapsed_s > 0) {
    out_->mb_per_s = static_cast<double>(out_->bytes) / out_->elapsed_s / 1e6;
    out_->files_per_s = static_cast<double>(out_->files) / out_->elapsed_s;
    out_->ops_per_s = static_cast<double>(timings_.count()) / out_->elapsed_s;
  }
  return status;
}

}  // namespace

std::string OfficeUserDir(uint32_t user) { return fmt::format("u{:02}", user + 1); }
std::string OfficeDocName(uint32_t user, uint32_t doc) {
  return fmt::format("{}/doc{:04}.docx", OfficeUserDir(user), doc + 1);
}

Result<OfficePlan> PlanOffice(const OfficeOptions& options) {
  if (options.users < 1) return Status::BadInput("--users 0: the office needs at least one user");
  if (!(options.time_s > 0)) return Status::BadInput(fmt::format("--time {:g}: must be above 0", options.time_s));
  if (options.docs_per_user < 1) return Status::BadInput("each user needs at least one document");
  OfficePlan plan;
  plan.options = options;
  for (uint32_t u = 0; u < options.users; ++u) {
    plan.sizes.push_back(
        SeededSizes(options.seed + u, options.docs_per_user, options.min_bytes, options.max_bytes, true));
    for (uint64_t s : plan.sizes.back()) plan.total_bytes += s;
  }
  return plan;
}

Status StageOffice(AppFileSystem& fs, const OfficePlan& plan) {
  // A safe-save holds a document twice until the rename: room for the largest once more.
  if (Status s = CheckRoomFor(fs, plan.total_bytes + plan.options.max_bytes * plan.options.users); !s.ok()) return s;
  std::vector<uint8_t> buffer(1u << 20);
  for (uint32_t u = 0; u < plan.sizes.size(); ++u) {
    if (Status s = fs.MakeDir(OfficeUserDir(u)); !s.ok()) return s;
    for (uint32_t d = 0; d < plan.sizes[u].size(); ++d)
      if (Status s = WriteStagedFile(fs, OfficeDocName(u, d), plan.sizes[u][d], plan.options.seed, DocFile(u, d, 0),
                                     buffer, false);
          !s.ok())
        return s;
  }
  return Status::Ok();
}

Status RunOffice(AppFileSystem& fs, const OfficePlan& plan, Clock& clock, AppFigures* out,
                 std::vector<std::string>* notes, OpHistograms* histograms) {
  OfficeRun run(fs, plan, clock, out);
  Status status = run.Run();
  if (histograms) *histograms = run.timings().Histograms();
  if (notes && !run.sync_unavailable().empty())
    notes->push_back("safe-saves without fsync (write, close, rename): " + run.sync_unavailable());
  return status;
}

}  // namespace nasperf
