// Targets: where a job's I/O goes (a directory, an existing file, a block device, null:).
// A target checks a job before anything is written, prepares and opens one file region
// per worker thread, and removes every file it created when it is destroyed.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "nasperf/engine.h"
#include "nasperf/job.h"
#include "nasperf/result.h"
#include "nasperf/status.h"
#include "base/scoped_fd.h"
#include "core/app_fs.h"

namespace nasperf {

// What a cache drop did, and what it measured afterwards (Target::DropCache).
struct CacheDropReport {
  std::string method;         // "fsync + posix_fadvise(DONTNEED)" [+ " + /proc/sys/vm/drop_caches"]
  double resident_pct = 0;    // share of the checked bytes still in this machine's page cache afterwards
  bool dropped = true;        // false: nothing here could be dropped (method says why)
  // Bytes whose residency mincore measured after the drop. 0: nothing was checked (no
  // file laid out yet), and resident_pct says nothing.
  uint64_t checked_bytes = 0;
  // "tmpfs" or "ramfs" when the file system keeps its files only in RAM: the file is the
  // cache, nothing can be dropped and every read is served from RAM. Empty otherwise.
  std::string ram_fs;
};

// One worker's share of the target: its open file and the byte range it may touch.
struct WorkerFile {
  ScopedFd fd;  // invalid for null: and protocol targets
  uint64_t base_offset = 0;
  uint64_t region_bytes = 0;
  std::shared_ptr<const RemoteFile> remote;  // protocol targets: the file on the server
};

struct TargetOptions {
  std::vector<std::string> allow_destructive;  // devices the user allowed writes to
  uint32_t connect_timeout_ms = 10000;          // protocol targets: connecting and each operation
  // Protocol targets: --user (else the URL's) and the password from --password-file or
  // NASPERF_PASSWORD (cli/credentials.h). Never printed or stored.
  std::string user;
  std::string password;
  // AppFileSystem (core/app_fs.h): leave the workspace in place when it is destroyed.
  bool keep_on_exit = false;
  // Many clients (mpirun): this process is rank `rank` of `ranks` running one job. On one
  // shared file or block device (a LUN) each rank then uses only its own region of it
  // (target/rank_region.h); targets where each rank makes its own files ignore it.
  uint32_t rank = 0;
  uint32_t ranks = 1;
};

// What a target is and can do, as plain facts that suites and headings read instead of
// asking which kind of target it is. Direct I/O and fsync are SupportsDirect/SupportsFsync,
// which also say why not; whether a scheme takes a login is its row in the scheme table.
struct TargetCaps {
  bool client_cache = true;    // this machine's page cache holds the target's data (local files)
  bool sweepable = false;      // AsSweepable() gives a SweepableTarget
  bool asynchronous = true;    // its engine may keep more than one I/O in flight per thread
  bool shared_file = true;     // --shared-file: its threads can do their I/O on one file
};

class SweepableTarget;

class Target {
 public:
  virtual ~Target() = default;
  // What the user named, as shown in results ("/tmp", "null:", "/dev/sdb").
  virtual std::string description() const = 0;
  virtual bool is_null() const { return false; }
  // The engine this target needs whatever --engine says (null:, the protocols); nullptr
  // when any local engine will do.
  virtual const char* required_engine() const { return is_null() ? "null" : nullptr; }
  // Size a job should use when the user gave none (per thread); nullopt: the job default.
  virtual std::optional<uint64_t> natural_size(uint32_t threads) const { return std::nullopt; }
  // Whether O_DIRECT works here; `why` says why not (for the fall-back note).
  virtual bool SupportsDirect(std::string* why) { return true; }
  // Whether --fsync can be a real flush of the written data here; `why` says why not.
  // Asked before anything connects, so a refusal writes and sends nothing.
  virtual bool SupportsFsync(std::string* why) const { return true; }
  // Every check that needs the target: space, permissions, O_DIRECT, alignment, safety.
  // Writes nothing.
  virtual Status Check(const JobSpec& job) = 0;
  // Creates and lays out files as the job needs, then opens one per thread.
  virtual Result<std::vector<WorkerFile>> Open(const JobSpec& job) = 0;
  // Drops the target's own files from the page cache before a read that follows writes
  // (see target/page_cache.h) and reports the most any file kept cached. Targets that
  // hold no cached data (null:, devices read with O_DIRECT) report nothing to drop.
  virtual Result<CacheDropReport> DropCache(bool system_wide) {
    return CacheDropReport{"nothing of it is in this machine's page cache", 0, false, 0, ""};
  }
  // Protocol targets: how the server was reached (known once Check has connected).
  virtual std::optional<ProtocolFacts> protocol_facts() const { return std::nullopt; }
  // A read job on data nasperf did not write may read never-written (sparse) regions:
  // one line saying so (target/holes.h), or "" when the region is known written or the
  // target lays out its own data. Called after Check.
  virtual std::string ReadHoleWarning(const JobSpec& job) { return ""; }
  // Many clients on one file or device (TargetOptions::ranks > 1): the region of it this
  // process uses, which every job's threads split among them. nullopt when this process
  // has the target to itself or makes files of its own in it.
  virtual std::optional<RankRegion> shared_region() const { return std::nullopt; }
  // What this target can do (TargetCaps); the local defaults unless a target says otherwise.
  virtual TargetCaps caps() const { return {}; }
  // One worker's engine for `job`: a protocol target's own, else the local engine the job
  // names (EngineFor). Called once per worker thread, before the clock starts.
  virtual Result<std::unique_ptr<Engine>> MakeEngine(const JobSpec& job);
  // File-level access for application workloads (core/app_fs.h): a fresh workspace in
  // this target. Unavailable for targets that serve no files (null:, devices, a file).
  virtual Result<std::unique_ptr<AppFileSystem>> OpenAppFileSystem();
  // The same target as a SweepableTarget when caps().sweepable, else nullptr.
  virtual SweepableTarget* AsSweepable() { return nullptr; }
};

// Targets a sweep can drive (a local directory, an SMB share, an NFS export): one test
// file, which a write test starts afresh and a read test finds filled, in a file system
// whose free space the sweep plans with.
class SweepableTarget : public Target {
 public:
  // Replaces the test file by an empty one (a write test measures a new file).
  virtual Status StartNewFile() = 0;
  // Makes sure the test file holds `bytes` of data: what a write test left, else laid out
  // now, untimed (a read test without a write test before it).
  virtual Status EnsureData(uint64_t bytes, const BufferPattern& pattern) = 0;
  // Bytes free where the test file lives.
  virtual Result<uint64_t> FreeBytes() = 0;
  // Whether this machine keeps the file's data in its page cache (a local file system
  // does; libsmbclient and libnfs keep no client cache).
  virtual bool client_caches() const = 0;
  SweepableTarget* AsSweepable() override { return this; }
};

// The engine a job runs with on `target`: the target's own, else the job's choice.
std::string EngineFor(const JobSpec& job, const Target& target);

// The engine check of the targets on this machine's own storage (directories, files,
// devices, null:): auto or a local engine (engine/local_engines.h). BadInput otherwise.
Status CheckLocalEngine(const JobSpec& job);

// Open flags a job needs: read-only for read jobs, O_DIRECT when asked.
int OpenFlagsFor(const JobSpec& job);

}  // namespace nasperf
