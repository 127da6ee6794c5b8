// EncodeRankRun / DecodeRankRun.
#include "cluster/rank_payload.h"

#include <cstring>

#include "model/cluster_json.h"
#include "model/run_json.h"
#include "stats/histogram.h"

namespace nasperf {
namespace {

void PutPart(std::string& out, const std::string& part) {
  const uint64_t n = part.size();
  out.append(reinterpret_cast<const char*>(&n), sizeof n);
  out += part;
}

bool TakePart(const std::string& in, size_t& at, std::string* part) {
  uint64_t n = 0;
  if (in.size() - at < sizeof n) return false;
  std::memcpy(&n, in.data() + at, sizeof n);
  at += sizeof n;
  if (n > in.size() - at) return false;
  part->assign(in, at, n);
  at += n;
  return true;
}

std::string HistogramBytes(const std::optional<DirectionResult>& d) {
  return d && d->histogram ? d->histogram->Serialize() : std::string();
}

std::string HistogramBytes(const std::shared_ptr<const LatencyHistogram>& h) {
  return h ? h->Serialize() : std::string();
}

// A histogram part as EncodeRankRun wrote it: null when empty, BadInput naming `which`
// when malformed.
Result<std::shared_ptr<const LatencyHistogram>> HistogramOf(const std::string& bytes, const std::string& which) {
  if (bytes.empty()) return std::shared_ptr<const LatencyHistogram>();
  auto h = std::make_shared<LatencyHistogram>();
  if (!LatencyHistogram::Deserialize(bytes, h.get()))
    return Status::BadInput("rank result: malformed " + which + " histogram");
  return std::shared_ptr<const LatencyHistogram>(std::move(h));
}

// After the directions' histograms: the pacing service times' (read, write), the count of
// per-size rows, then each row's read and write histograms.
void PutExtraHistograms(std::string& out, const RunResult& run) {
  PutPart(out, HistogramBytes(run.pacing ? run.pacing->read_service_histogram : nullptr));
  PutPart(out, HistogramBytes(run.pacing ? run.pacing->write_service_histogram : nullptr));
  PutPart(out, std::to_string(run.per_size.size()));
  for (const SizeResult& size : run.per_size) {
    PutPart(out, HistogramBytes(size.read));
    PutPart(out, HistogramBytes(size.write));
  }
}

Status TakeExtraHistograms(const std::string& in, size_t& at, RunResult& run) {
  // A mix has at most 64 sizes (run_json's per_size limit).
  constexpr size_t kMaxSizes = 64;
  std::string read_service, write_service, count_text;
  if (!TakePart(in, at, &read_service) || !TakePart(in, at, &write_service) || !TakePart(in, at, &count_text))
    return Status::BadInput("rank result: truncated service or per-size histograms");
  Result<std::shared_ptr<const LatencyHistogram>> read = HistogramOf(read_service, "read service");
  if (!read.ok()) return read.status();
  Result<std::shared_ptr<const LatencyHistogram>> write = HistogramOf(write_service, "write service");
  if (!write.ok()) return write.status();
  if (run.pacing) {
    run.pacing->read_service_histogram = read.value();
    run.pacing->write_service_histogram = write.value();
  }
  if (count_text.empty() || count_text.size() > 2 || count_text.find_first_not_of("0123456789") != std::string::npos ||
      std::stoul(count_text) > kMaxSizes || std::stoul(count_text) != run.per_size.size())
    return Status::BadInput("rank result: per-size histogram count does not match its per_size rows");
  for (SizeResult& size : run.per_size) {
    std::string read_part, write_part;
    if (!TakePart(in, at, &read_part) || !TakePart(in, at, &write_part))
      return Status::BadInput("rank result: truncated per-size histograms");
    for (auto [bytes, d] : {std::pair{&read_part, &size.read}, std::pair{&write_part, &size.write}}) {
      Result<std::shared_ptr<const LatencyHistogram>> h = HistogramOf(*bytes, "per-size");
      if (!h.ok()) return h.status();
      if (*d) (*d)->histogram = h.value();
    }
  }
  return Status::Ok();
}

Status AttachHistogram(const std::string& bytes, std::optional<DirectionResult>& d, const char* which) {
  if (bytes.empty()) return Status::Ok();
  auto h = std::make_shared<LatencyHistogram>();
  if (!LatencyHistogram::Deserialize(bytes, h.get()))
    return Status::BadInput(std::string("rank result: malformed ") + which + " histogram");
  if (d) d->histogram = std::move(h);
  return Status::Ok();
}

}  // namespace

std::string EncodeRankRun(const RankRun& r) {
  nlohmann::ordered_json head = {{"rank", r.rank}, {"host", r.host}, {"start_realtime_ns", r.start_realtime_ns}};
  if (r.nic) head["nic"] = RankNicToJson(*r.nic);
  if (r.region) head["region"] = RankRegionToJson(*r.region);
  if (!r.cold_read.empty()) head["cold_read"] = r.cold_read;
  std::string out;
  PutPart(out, head.dump());
  PutPart(out, RunToJson(r.run).dump());
  PutPart(out, HistogramBytes(r.run.read));
  PutPart(out, HistogramBytes(r.run.write));
  PutExtraHistograms(out, r.run);
  return out;
}

Result<RankRun> DecodeRankRun(const std::string& bytes) {
  std::string head_text, run_text, read_hist, write_hist;
  size_t at = 0;
  if (!TakePart(bytes, at, &head_text) || !TakePart(bytes, at, &run_text) || !TakePart(bytes, at, &read_hist) ||
      !TakePart(bytes, at, &write_hist))
    return Status::BadInput("rank result: truncated or oversized parts");
  nlohmann::json head = nlohmann::json::parse(head_text, nullptr, false);
  nlohmann::json run = nlohmann::json::parse(run_text, nullptr, false);
  if (!head.is_object() || !run.is_object()) return Status::BadInput("rank result: not JSON objects");
  if (!head.contains("rank") || !head["rank"].is_number_integer() || !head.contains("host") ||
      !head["host"].is_string() || !head.contains("start_realtime_ns") ||
      !head["start_realtime_ns"].is_number_integer())
    return Status::BadInput("rank result: rank, host or start_realtime_ns missing or of the wrong type");
  RankRun out;
  out.reported = true;
  out.rank = head.value("rank", -1);
  out.host = head.value("host", std::string());
  out.start_realtime_ns = head.value("start_realtime_ns", int64_t{0});
  if (head.contains("nic")) {
    Result<RankNic> nic = RankNicFromJson(head["nic"], "rank result: nic");
    if (!nic.ok()) return nic.status();
    out.nic = std::move(nic.value());
  }
  if (head.contains("region")) {
    Result<RankRegion> region = RankRegionFromJson(head["region"], "rank result: region");
    if (!region.ok()) return region.status();
    out.region = region.value();
  }
  if (head.contains("cold_read")) {
    if (!head["cold_read"].is_string()) return Status::BadInput("rank result: cold_read: expected text");
    out.cold_read = head["cold_read"].get<std::string>();
  }
  Result<RunResult> decoded = RunFromJson(run);
  if (!decoded.ok()) return decoded.status();
  out.run = std::move(decoded.value());
  if (Status s = AttachHistogram(read_hist, out.run.read, "read"); !s.ok()) return s;
  if (Status s = AttachHistogram(write_hist, out.run.write, "write"); !s.ok()) return s;
  if (Status s = TakeExtraHistograms(bytes, at, out.run); !s.ok()) return s;
  if (at != bytes.size()) return Status::BadInput("rank result: truncated or oversized parts");
  return out;
}

std::string EncodeAppRankRun(const RankRun& run, const OpHistograms* op_times) {
  std::string out;
  PutPart(out, EncodeRankRun(run));
  PutPart(out, op_times ? std::to_string(op_times->size()) : "-");
  if (op_times)
    for (const OpHistogram& op : *op_times) {
      PutPart(out, op.op);
      PutPart(out, op.h.Serialize());
    }
  return out;
}

Result<RankRun> DecodeAppRankRun(const std::string& bytes, std::optional<OpHistograms>* op_times) {
  // A run names at most a dozen kinds of operation (app_result.h); more is not ours.
  constexpr size_t kMaxOps = 64;
  std::string run_bytes, count_text;
  size_t at = 0;
  if (!TakePart(bytes, at, &run_bytes) || !TakePart(bytes, at, &count_text))
    return Status::BadInput("app rank result: truncated or malformed parts");
  size_t count = 0;
  const bool has_ops = count_text != "-";
  if (has_ops) {
    if (count_text.empty() || count_text.size() > 2 ||
        count_text.find_first_not_of("0123456789") != std::string::npos || (count = std::stoul(count_text)) > kMaxOps)
      return Status::BadInput("app rank result: malformed operation count");
  }
  Result<RankRun> run = DecodeRankRun(run_bytes);
  if (!run.ok()) return run.status();
  op_times->reset();
  if (has_ops) {
    OpHistograms times(count);
    for (OpHistogram& op : times) {
      std::string part;
      if (!TakePart(bytes, at, &op.op) || op.op.empty() || !TakePart(bytes, at, &part) ||
          !LatencyHistogram::Deserialize(part, &op.h))
        return Status::BadInput("app rank result: malformed operation histogram");
    }
    *op_times = std::move(times);
  }
  if (at != bytes.size()) return Status::BadInput("app rank result: bytes after the last part");
  return run;
}

}  // namespace nasperf
