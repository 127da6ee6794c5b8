// Results are plain data: the table, the JSON document and later the database all read
// these structs. Units are in the names (bytes, seconds, microseconds, MB/s = 10^6 B/s).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "nasperf/app_result.h"
#include "nasperf/job.h"

namespace nasperf {

class LatencyHistogram;

struct LatencySummary {
  double mean_us = 0, p50_us = 0, p90_us = 0, p99_us = 0, p999_us = 0, max_us = 0;
};

struct DirectionResult {
  uint64_t bytes = 0;
  uint64_t ios = 0;
  double seconds = 0;
  double mb_per_s = 0;  // 10^6 bytes per second
  double iops = 0;
  LatencySummary lat;
  uint64_t errors = 0;
  std::shared_ptr<const LatencyHistogram> histogram;  // kept for percentiles and storage
};

// Figures of the I/Os of one block size in a mixed-size job (--bs 4k/50:64k/50).
struct SizeResult {
  uint64_t bs = 0;
  std::optional<DirectionResult> read, write;
};

// What pacing asked and what the run achieved (job.pacing.paced()). Latency in the
// directions is then from each I/O's intended start; service time from its submit is here.
struct PacingFacts {
  double target_iops = 0, achieved_iops = 0;          // 0 target: not paced by I/Os
  double target_mb_per_s = 0, achieved_mb_per_s = 0;  // 0 target: not paced by bytes
  // false: the run did not keep the schedule, under it (shortfall_pct) or over it (excess_pct)
  bool sustained = true;
  double shortfall_pct = 0;  // how far under the target the run ended, % of the target
  double excess_pct = 0;     // how far over the target the run ended, % of the target
  std::optional<LatencySummary> read_service, write_service;  // from the actual submit
  std::shared_ptr<const LatencyHistogram> read_service_histogram, write_service_histogram;
};

// --steady: whether the rule was met and when; nullopt when no rule was asked.
struct SteadyFacts {
  bool reached = false;
  double at_s = 0;    // seconds after measurement began when the window first held
  double mean = 0;    // the window's mean (IOPS or MB/s, per the rule's metric)
  double spread_pct = 0;  // largest deviation in the window, % of its mean
};

// Whether a direction did (or, for an imported run, reported) any I/O. Imported figures
// may come without byte or I/O counts (CrystalDiskMark prints only MB/s, IOPS, latency).
inline bool DidIo(const std::optional<DirectionResult>& d) {
  return d && (d->ios > 0 || d->bytes > 0 || d->mb_per_s > 0);
}

struct CpuUsage {
  double user_pct = 0;  // of one core, over the measured time
  double sys_pct = 0;
};

struct Sample {
  double t_s = 0;  // end of the interval, seconds after measurement began
  double read_mb_per_s = 0;
  double write_mb_per_s = 0;
};

// One repeat of a repeated run: the figures kept so that the median, the spread and the
// confidence interval can be recomputed from the store.
struct RepeatFigures {
  double read_mb_per_s = 0, write_mb_per_s = 0;
  double read_iops = 0, write_iops = 0;
  double read_lat_mean_us = 0, write_lat_mean_us = 0;
  double read_lat_p99_us = 0, write_lat_p99_us = 0;
  double seconds = 0;
  uint64_t seed = 0;  // the seed this repeat ran with (--seed N --repeat 1 reruns it); 0: not known
  double total_mb_per_s() const { return read_mb_per_s + write_mb_per_s; }
};

// How a protocol target was reached (src/proto/), so that `results compare` can label runs
// "SMB 3.1.1 vs NFSv3 vs iSCSI" like seed 002's table. Never holds credentials.
struct ProtocolFacts {
  std::string protocol;  // "SMB", "NFS", "iSCSI"
  std::string version;   // negotiated: "3.1.1" (SMB dialect), "3" (NFS); empty when not known
  std::string server;    // host[:port] as the user named it
  std::string share;     // SMB share, NFS export, "IQN/LUN"
  // Mount-like facts in the order they should be shown: ("signing", "off"),
  // ("encryption", "off"), ("max read", "8 MiB"), ("capacity", "512 MiB") ...
  std::vector<std::pair<std::string, std::string>> options;
  // "SMB 3.1.1", "NFSv3", "iSCSI": what a table column or chart legend says. How each
  // protocol joins its version is data of the scheme table (src/contract/protocol_label.h).
  std::string label() const;
};

// What a run's writes carried, as measured before its clock started.
struct DataFacts {
  std::string pattern;         // "random", "zero", "compressible:50"; "verify" for --verify's check data
  bool unique_blocks = false;  // every 4 KiB unique in the run (stamped, or --verify's data)
  double compress_ratio = 0;   // bytes in / bytes out of zstd (default level) on sample_bytes of written data
  uint64_t sample_bytes = 0;   // how much was compressed: one written block (at most 1 MiB)
};

// What the table and the JSON say when a run wrote the zero pattern, which is left
// unstamped: zeros were asked for, and a stamped block would no longer be zero.
inline constexpr const char* kZeroDataNote = "zeros: dedupe, compression and zero detection can serve these";

// Many clients (mpirun -n N, src/cluster/): one rank's own figures.
// The network interface one rank reached its target through: the interface holding the
// kernel's route to a URL target's host or a network mount's server (sysinfo's NIC facts,
// as `info` shows them). Unknown speed or MTU is nullopt (a link down, a virtio NIC).
struct RankNic {
  std::string name;
  std::optional<int64_t> speed_mbps;
  std::optional<int64_t> mtu;
  bool operator==(const RankNic&) const = default;
};

// The part of one shared file or block device (a LUN) that one rank of many used.
struct RankRegion {
  uint64_t offset_bytes = 0;
  uint64_t bytes = 0;
  bool operator==(const RankRegion&) const = default;
};

struct RankResult {
  int rank = 0;
  std::string host;
  // nullopt: no NIC in the path (a local target) or its route unknown.
  std::optional<RankNic> nic;
  // Ranks sharing one file or device (a LUN): the region this rank used (target/rank_region.h).
  // nullopt when each rank had files of its own (a directory).
  std::optional<RankRegion> region;
  double start_offset_s = 0;  // its clock's start after the earliest rank's, CLOCK_REALTIME
  double seconds = 0;         // its own measured time
  std::optional<DirectionResult> read, write;  // its own figures (histograms not kept)
  // An app run that keeps no read or write figures (office, photo-album): its payload MB/s.
  std::optional<double> app_mb_per_s;
  bool reported = true;  // false: no result came from it (killed, lost); figures are 0
  bool partial = false;
  std::string error;  // why it ended early
  // Its own seed (--seed with it reruns this rank's offsets and data), and what its own
  // cold-read check found: `cached` as RunResult::cached, `cold_read` the check's note
  // (suite/cold_reads.h). nullopt / empty when it had none.
  std::optional<uint64_t> seed;
  std::optional<bool> cached;
  std::string cold_read;
  double total_mb_per_s() const {
    if (!read && !write && app_mb_per_s) return *app_mb_per_s;
    return (read ? read->mb_per_s : 0) + (write ? write->mb_per_s : 0);
  }
};

// What the ranks measured together. The run's read/write are the merged figures: bytes,
// I/Os and errors summed, MB/s and IOPS the sum of every rank's own rate, latency from the
// merged histograms (buckets summed, never percentiles averaged).
struct ClusterFacts {
  int ranks = 0;            // launched (mpirun -n)
  bool stonewall = true;    // every rank was stopped when the first one finished
  double start_skew_us = 0;  // latest start - earliest start, on CLOCK_REALTIME
  double window_s = 0;       // latest start to earliest end: the time every rank ran
  double first_done_s = 0;   // earliest end, seconds after the earliest start
  double last_done_s = 0;    // latest end, seconds after the earliest start
  double last_done_mb_per_s = 0;  // every byte over [earliest start, latest end]
  double spread_pct = 0;     // fastest rank's MB/s over the slowest's, % above it
  bool spread_flagged = false;  // spread_pct > 10
  std::vector<RankResult> each;  // by rank
};

struct RunResult {
  int64_t id = 0;          // the results database's id; 0 until stored
  int64_t invocation_id = 0;  // the stored command that made it (quick's eight tests share one)
  std::string started_at;  // UTC, ISO 8601 ("2026-11-30T09:16:22Z")
  std::string command_line;  // as typed, passwords redacted
  std::string source_tool = "nasperf";  // or the tool an imported run came from: fio, iozone, crystaldiskmark
  std::string source_file;              // the imported file, empty for native runs
  std::string name;
  std::string test;     // the suite's label for this run ("SEQ1M Q8T1"), empty for `run`
  std::string target;
  JobSpec job;
  std::string engine;   // the engine that actually ran (auto resolved)
  // I/Os in flight per thread that the engine ran: job.qd, or 1 when the engine is
  // synchronous (EngineCaps::asynchronous false). 0 when not known (imports, runs stored
  // before it was kept); labels then fall back to job.qd. JSON and store: job.qd_run.
  uint32_t qd_run = 0;
  bool partial = false;  // interrupted or failed before the job's end
  std::optional<DirectionResult> read;
  std::optional<DirectionResult> write;
  CpuUsage cpu;
  std::vector<Sample> samples;
  std::map<std::string, std::string> tags;
  std::string error;               // why the run stopped early, empty when it did not
  std::vector<std::string> notes;  // facts the reader needs (fallbacks, caching)
  // --verify: bytes read back after the run and found exactly as written; nullopt
  // without --verify.
  std::optional<uint64_t> verified_bytes;
  // Runs that wrote: what the data was and how well it compressed. nullopt otherwise.
  std::optional<DataFacts> data;
  // Every repeat when the job was repeated (the run's own figures are the median
  // repeat's); empty for a single run.
  std::vector<RepeatFigures> repeats;
  // Sweep points: whether the page cache could serve this point (buffered, and the file
  // fits in the RAM that can cache it, and no verified cache drop preceded a read).
  // Buffered reads of run and quick: what the cold-read check found (cli/cold_reads.h),
  // true on tmpfs. nullopt otherwise, and when nothing was checked.
  std::optional<bool> cached;
  // What the run ran on (sysinfo/inventory.h): CPU, RAM, OS, file system, devices.
  // Unknown fields are null; an empty object when not gathered (imports).
  nlohmann::ordered_json inventory = nlohmann::ordered_json::object();
  // Where the job ran: "client" (this machine) or "nas" (an agent ran it on its own
  // disks, `--on`); the inventory then describes the NAS.
  std::string measured_on = "client";
  // What an agent sampled at 1 Hz on the NAS while the run went on (telemetry/): the
  // series and its summary. null when no agent was asked.
  nlohmann::ordered_json telemetry;
  // Protocol targets: how the server was reached. nullopt for local targets and imports.
  std::optional<ProtocolFacts> protocol;
  // Application workloads (`nasperf app ...`): what the workload measured beyond bytes.
  std::optional<AppFigures> app;
  // Mixed block sizes: one entry per size of the mix, in the mix's order; empty otherwise.
  std::vector<SizeResult> per_size;
  std::optional<PacingFacts> pacing;
  std::optional<SteadyFacts> steady;
  // --repeat-until: whether the interval got under the asked width, and after how many
  // repeats (repeats.size()). nullopt when not asked.
  std::optional<bool> repeat_until_met;
  // --repeat-until: the fewest repeats its rule could stop at (stats/confidence.h); 0 for
  // a run stored before nasperf recorded it.
  uint32_t repeat_until_min_repeats = 0;
  // Job files (--job, --fio-job, --iometer): the job's name in its file and the group it
  // ran with (jobs of one group run at the same time; empty when not from a file).
  std::string job_name, job_group;
  // Many clients (mpirun): the ranks and their merged facts; nullopt for one process.
  std::optional<ClusterFacts> cluster;
};

// What a nasperf job's writes (run, quick, sweep) were left as when its clock stopped:
// kWriteFlushInClock with --fsync (each thread's file fsynced before the write clock
// stops), kWriteFlushNone without (in a page cache: this machine's when buffered, the
// device's or the server's otherwise). "" for a run that wrote nothing, an application
// run (it says its own, app.write_flush), a network test and an imported run.
inline std::string JobWriteFlush(const RunResult& run) {
  if (run.app || run.engine == "net" || run.source_tool != "nasperf" || !DidIo(run.write)) return "";
  return run.job.fsync ? kWriteFlushInClock : kWriteFlushNone;
}

// The queue depth a run's labels show: the one it ran, else (not known) the one asked.
inline uint32_t QueueDepthRun(const RunResult& run) { return run.qd_run ? run.qd_run : run.job.qd; }

// "8 requested, 1 run (engine synchronous)" when the run's queue depth was not the one
// asked, else the queue depth ("8"): how compare lists it as a job fact.
inline std::string QueueDepthText(const RunResult& run) {
  const uint32_t ran = QueueDepthRun(run);
  if (ran == run.job.qd) return std::to_string(ran);
  return std::to_string(run.job.qd) + " requested, " + std::to_string(ran) + " run" +
         (ran == 1 ? " (engine synchronous)" : "");
}

// Total MB/s (read + write) of every repeat, in the order they ran.
inline std::vector<double> RepeatTotals(const RunResult& run) {
  std::vector<double> totals;
  for (const RepeatFigures& r : run.repeats) totals.push_back(r.total_mb_per_s());
  return totals;
}

}  // namespace nasperf
