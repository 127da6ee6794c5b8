// What an application workload measured (issue 18: file copy, directory copy, backup and
// restore, video streams, photo album, office), beside the byte figures every run has
// (RunResult.read/write). Plain data; model/run_json.h encodes it under "app".
// Units in the names; MB/s = 10^6 B/s of payload.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace nasperf {

// One kind of operation's latency (mkdir, create, write, setattr, close, open, read,
// rename, fsync, list, chunk): how many, and their times in microseconds.
struct AppOpLatency {
  std::string op;
  uint64_t count = 0;
  double mean_us = 0, p50_us = 0, p99_us = 0, max_us = 0;
  bool operator==(const AppOpLatency&) const = default;
};

// One paced stream (video): whether it kept up.
struct AppStream {
  uint32_t index = 0;
  std::string dir;                 // "play" | "record"
  uint64_t chunks = 0;
  uint64_t deadline_misses = 0;    // chunks not done by their deadline
  double stall_s = 0;              // time the player's buffer was empty
  double late_p99_us = 0;          // p99 of latency from each chunk's intended start
  bool operator==(const AppStream&) const = default;
};

// The dataset a workload staged (generated from --seed), as recorded: so the run says
// exactly what it copied and anyone can generate it again.
struct AppDataset {
  std::string generator;           // "nasperf-tree 1"
  std::string preset;              // "win7-system", "" for a single file
  double scale = 1;
  uint64_t seed = 0;
  uint64_t files = 0, dirs = 0, bytes = 0;
  // Achieved file-size statistics (bytes) and the share of bytes in files over 1 MiB.
  double median_bytes = 0, mean_bytes = 0, p90_bytes = 0, p99_bytes = 0, share_over_1mib = 0;
  std::string digest;              // of names, sizes and contents ("sha256:...")
  bool operator==(const AppDataset&) const = default;
};

// AppFigures::write_flush: each file written was fsynced (flushed to stable storage, as
// the target reports it) before the clock stopped ...
inline constexpr const char* kWriteFlushInClock = "fsync_in_clock";
// ... none was: the clock stopped with the data in a page cache (the client's or the server's) ...
inline constexpr const char* kWriteFlushNone = "none";
// ... some were (the target stopped offering a flush part way through).
inline constexpr const char* kWriteFlushSome = "some_files";

// The write_flush of a run that wrote `written_bytes` in `written_files` files inside its
// clock ("" when it wrote nothing) and fsynced `flushed_files` of them there.
inline std::string WriteFlushOf(uint64_t written_bytes, uint64_t written_files, uint64_t flushed_files) {
  if (written_bytes == 0 && written_files == 0) return "";
  if (flushed_files == 0) return kWriteFlushNone;
  return flushed_files >= written_files ? kWriteFlushInClock : kWriteFlushSome;
}

struct AppFigures {
  std::string workload;            // "file-copy", "dir-copy", "backup", "restore", "video", "photo-album", "office"
  std::string from, to;            // what was copied from and to, as named (passwords redacted)
  double elapsed_s = 0;            // first open to last close, flush included
  uint64_t bytes = 0;              // payload moved
  uint64_t files = 0;
  double mb_per_s = 0;             // bytes / elapsed_s / 10^6
  // files / elapsed_s; nullopt where files are not what the workload moves (video: a
  // "file" is a stream, open for the whole run), printed "-" and left out of the JSON.
  std::optional<double> files_per_s;
  std::optional<double> source_mb_per_s;  // backup/restore: source bytes / elapsed (the seed's convention)
  uint32_t threads = 1;
  std::string cache_state;         // "cold" | "warm" | "unknown", as checked (a read-side state)
  // Whether what the run wrote inside its clock was flushed there: kWriteFlushInClock,
  // kWriteFlushNone, kWriteFlushSome, or "" when the run wrote nothing in its clock.
  std::string write_flush;
  std::optional<double> fill_pct;  // the volume's fill level during the run (--fill)
  std::optional<double> small_file_penalty;  // dir-copy: file-copy MB/s of the same bytes / this MB/s
  std::vector<AppOpLatency> ops;
  std::vector<AppStream> streams;
  std::optional<uint32_t> max_streams;  // video --find-max: the most streams sustained
  std::optional<AppDataset> dataset;
  std::optional<double> ops_per_s;  // office: file-system operations timed (every ops[] count) / elapsed_s
  bool operator==(const AppFigures&) const = default;
};

}  // namespace nasperf
