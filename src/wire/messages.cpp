// Decoding message bodies: a type and size check for every field, then the typed value.
#include "wire/messages.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "model/run_json.h"
#include "model/job_validate.h"

namespace nasperf {
namespace {

using json = nlohmann::json;

// Reads fields of one message's payload, remembering the first fault in one line.
class Fields {
 public:
  Fields(const json& payload, std::string what) : p_(payload), what_(std::move(what)) {}

  bool Has(const char* key) const { return p_.find(key) != p_.end(); }

  // A string of at most `max_bytes`; `fallback` when absent and not `required`.
  std::string String(const char* key, size_t max_bytes, bool required, std::string fallback = "") {
    auto it = p_.find(key);
    if (it == p_.end()) {
      if (required) Fail(fmt::format("\"{}\" is missing", key));
      return fallback;
    }
    if (!it->is_string() || it->get_ref<const std::string&>().size() > max_bytes) {
      Fail(fmt::format("\"{}\" must be a string of at most {} bytes", key, max_bytes));
      return fallback;
    }
    return it->get<std::string>();
  }

  bool Bool(const char* key, bool fallback) {
    auto it = p_.find(key);
    if (it == p_.end()) return fallback;
    if (!it->is_boolean()) {
      Fail(fmt::format("\"{}\" must be true or false", key));
      return fallback;
    }
    return it->get<bool>();
  }

  // A whole number in [low, high]. Parsed JSON holds non-negative integers as unsigned,
  // a value built in code may hold them as signed: both count, a negative one never.
  uint64_t Unsigned(const char* key, uint64_t low, uint64_t high, bool required, uint64_t fallback = 0) {
    auto it = p_.find(key);
    if (it == p_.end()) {
      if (required) Fail(fmt::format("\"{}\" is missing", key));
      return fallback;
    }
    const bool whole = it->is_number_unsigned() || (it->is_number_integer() && it->get<int64_t>() >= 0);
    if (!whole || it->get<uint64_t>() < low || it->get<uint64_t>() > high) {
      Fail(fmt::format("\"{}\" must be a whole number {}..{}", key, low, high));
      return fallback;
    }
    return it->get<uint64_t>();
  }

  // A finite number in [0, high].
  void NonNegativeNumber(const char* key, double high) {
    auto it = p_.find(key);
    if (it == p_.end()) return;
    if (!it->is_number() || !std::isfinite(it->get<double>()) || it->get<double>() < 0 || it->get<double>() > high)
      Fail(fmt::format("\"{}\" must be a number 0..{}", key, high));
  }

  Status status() const { return status_; }
  bool ok() const { return status_.ok(); }

 private:
  void Fail(const std::string& why) {
    if (status_.ok()) status_ = Status::BadInput(what_ + ": " + why);
  }
  const json& p_;
  std::string what_;
  Status status_;
};

constexpr uint64_t kU32 = std::numeric_limits<uint32_t>::max();

// The job object: every field JobFromJson reads, checked for type and range first
// (JobFromJson converts a negative or oversized number silently), then JobSpec::Validate.
Result<JobSpec> DecodeJob(const json& j) {
  if (!j.is_object()) return Status::BadInput("JobStart: \"job\" must be an object");
  Fields f(j, "JobStart: job");
  f.String("rw", kMaxWordBytes, true);
  f.Unsigned("bs", 1, UINT64_MAX, true);
  f.Unsigned("qd", 1, kU32, true);
  f.Unsigned("threads", 1, kU32, true);
  f.Unsigned("size", 0, UINT64_MAX, true);
  f.NonNegativeNumber("time_s", 1e9);
  f.NonNegativeNumber("ramp_s", 1e9);
  f.Bool("time_based", false);
  f.Bool("direct", false);
  f.Bool("fsync", false);
  f.Bool("verify", false);
  f.String("engine", kMaxWordBytes, false);
  f.String("pattern", kMaxWordBytes, false);
  f.Unsigned("repeat", 1, 1000, false);
  f.Unsigned("mix_read_pct", 0, 100, false);
  if (!f.ok()) return f.status();
  Result<JobSpec> job = JobFromJson(j);
  if (!job.ok()) return Status::BadInput("JobStart: " + job.status().message());
  return job;
}

// Whole numbers in [low, high], at most `max_count` of them, at least one.
Result<std::vector<uint64_t>> WholeNumbers(const json& a, const char* what, uint64_t low, size_t max_count) {
  if (!a.is_array() || a.empty() || a.size() > max_count)
    return Status::BadInput(fmt::format("JobStart: sweep: \"{}\" must be an array of 1..{} numbers", what, max_count));
  std::vector<uint64_t> out;
  for (const json& v : a) {
    const bool whole = v.is_number_unsigned() || (v.is_number_integer() && v.get<int64_t>() >= 0);
    if (!whole || v.get<uint64_t>() < low)
      return Status::BadInput(fmt::format("JobStart: sweep: \"{}\" must hold whole numbers of at least {}", what, low));
    out.push_back(v.get<uint64_t>());
  }
  return out;
}

Result<SweepStartMsg> DecodeSweepStart(const json& j) {
  if (!j.is_object()) return Status::BadInput("JobStart: suite \"sweep\" needs a \"sweep\" object");
  Fields f(j, "JobStart: sweep");
  SweepStartMsg m;
  m.min_bytes = f.Unsigned("min_bytes", 1, UINT64_MAX, true);
  if (f.Has("max_bytes")) m.max_bytes = f.Unsigned("max_bytes", 1, UINT64_MAX, true);
  if (f.Has("nas_ram_bytes")) m.nas_ram_bytes = f.Unsigned("nas_ram_bytes", 1, UINT64_MAX, true);
  m.drop_caches = f.Bool("drop_caches", false);
  if (!f.ok()) return f.status();
  if (!f.Has("records") || !f.Has("tests")) return Status::BadInput("JobStart: sweep: \"records\" and \"tests\" are required");
  Result<std::vector<uint64_t>> records = WholeNumbers(j.at("records"), "records", 1, kMaxSweepRecords);
  if (!records.ok()) return records.status();
  m.records = records.value();
  const json& tests = j.at("tests");
  if (!tests.is_array() || tests.empty() || tests.size() > 6)
    return Status::BadInput("JobStart: sweep: \"tests\" must be an array of 1..6 test names");
  for (const json& t : tests) {
    if (!t.is_string() || t.get_ref<const std::string&>().size() > kMaxWordBytes)
      return Status::BadInput(fmt::format("JobStart: sweep: \"tests\" must hold strings of at most {} bytes", kMaxWordBytes));
    m.tests.push_back(t.get<std::string>());
  }
  return m;
}

Result<AppStartMsg> DecodeAppStart(const json& j) {
  if (!j.is_object()) return Status::BadInput("JobStart: suite \"app\" needs an \"app\" object");
  Fields f(j, "JobStart: app");
  AppStartMsg m;
  m.workload = f.String("workload", kMaxWordBytes, true);
  if (!f.ok()) return f.status();
  const auto options = j.find("options");
  if (options == j.end()) return m;
  if (!options->is_array() || options->size() > kMaxAppOptions)
    return Status::BadInput(fmt::format("JobStart: app: \"options\" must be an array of at most {} pairs", kMaxAppOptions));
  for (const json& pair : *options) {
    if (!pair.is_array() || pair.size() != 2 || !pair[0].is_string() || !pair[1].is_string() ||
        pair[0].get_ref<const std::string&>().size() > kMaxWordBytes ||
        pair[1].get_ref<const std::string&>().size() > kMaxDirBytes)
      return Status::BadInput(fmt::format(
          "JobStart: app: each option must be [name, value]: strings of at most {} and {} bytes", kMaxWordBytes,
          kMaxDirBytes));
    m.options.emplace_back(pair[0].get<std::string>(), pair[1].get<std::string>());
  }
  return m;
}

Result<JobStartMsg> DecodeJobStart(const json& p) {
  Fields f(p, "JobStart");
  JobStartMsg m;
  const bool app = p.value("suite", json()) == "app";
  if (!f.Has("job") && !app) return Status::BadInput("JobStart: missing \"job\" object");
  m.dir = f.String("dir", kMaxDirBytes, false, ".");
  m.name = f.String("name", kMaxNameBytes, false);
  std::string suite = f.String("suite", kMaxWordBytes, false, "run");
  uint64_t repeat = f.Unsigned("repeat", 1, 1000, false);
  m.direct_fallback = f.Bool("direct_fallback", false);
  m.check = f.Bool("check", false);
  if (!f.ok()) return f.status();
  if (suite != "run" && suite != "sweep" && suite != "app")
    return Status::BadInput("JobStart: suite \"" + suite + "\" is not supported (only \"run\", \"sweep\" and \"app\")");
  m.suite = suite;
  if (app) {
    Result<AppStartMsg> start = DecodeAppStart(p.contains("app") ? p.at("app") : json());
    if (!start.ok()) return start.status();
    m.app = std::move(start).value();
    if (!f.Has("job")) return m;  // the workload's own options say what it does
  }
  if (suite == "sweep") {
    Result<SweepStartMsg> sweep = DecodeSweepStart(p.contains("sweep") ? p.at("sweep") : json());
    if (!sweep.ok()) return sweep.status();
    m.sweep = std::move(sweep).value();
  }
  Result<JobSpec> job = DecodeJob(p.at("job"));
  if (!job.ok()) return job.status();
  m.job = job.value();
  if (repeat != 0) m.job.repeat = static_cast<uint32_t>(repeat);
  if (Status s = ValidateJob(m.job); !s.ok()) return Status::BadInput("JobStart: " + s.message());
  return m;
}

template <typename Msg>
Result<MessageBody> Checked(Msg m, const Fields& f) {
  if (!f.ok()) return f.status();
  return MessageBody(std::move(m));
}

}  // namespace

Result<AgentMessage> DecodeMessage(const Frame& frame) {
  const json& p = frame.payload;
  const std::string what = MessageTypeName(frame.type);
  if (!p.is_object()) return Status::BadInput(what + ": payload is not a JSON object");
  Fields f(p, what);
  Result<MessageBody> body = MessageBody(EmptyMsg{});
  switch (frame.type) {
    case MessageType::kHello: {
      HelloMsg m{f.String("role", kMaxWordBytes, true), f.String("client_nonce", kMaxWordBytes * 2, true)};
      body = Checked(std::move(m), f);
      break;
    }
    case MessageType::kAuth:
      body = Checked(AuthMsg{f.String("mac", kMaxWordBytes * 2, true)}, f);
      break;
    case MessageType::kChallenge: {
      ChallengeMsg m{f.String("server_nonce", kMaxWordBytes * 2, true), f.String("agent", kMaxNameBytes, false)};
      body = Checked(std::move(m), f);
      break;
    }
    case MessageType::kAuthOk:
      body = Checked(AuthOkMsg{f.String("mac", kMaxWordBytes * 2, true)}, f);
      break;
    case MessageType::kError: {
      ErrorMsg m{f.String("code", kMaxWordBytes, true), f.String("message", kMaxMessageBytes, false)};
      body = Checked(std::move(m), f);
      break;
    }
    case MessageType::kJobStart: {
      Result<JobStartMsg> m = DecodeJobStart(p);
      if (!m.ok()) return m.status();
      body = MessageBody(std::move(m).value());
      break;
    }
    case MessageType::kPing:
    case MessageType::kPong:
    case MessageType::kInventoryGet:
    case MessageType::kJobCancel:
    case MessageType::kTelemetryStart:
    case MessageType::kTelemetryStop:
      break;
    default:
      body = MessageBody(ObjectMsg{p});
      break;
  }
  if (!body.ok()) return body.status();
  return AgentMessage{frame.type, std::move(body).value()};
}

Result<std::vector<AgentMessage>> DecodeAgentFrames(std::string_view bytes) {
  FrameDecoder decoder;
  decoder.Feed(bytes);
  std::vector<AgentMessage> out;
  while (true) {
    Result<std::optional<Frame>> next = decoder.Next();
    if (!next.ok()) return next.status();
    if (!next.value()) return out;
    Result<AgentMessage> m = DecodeMessage(*next.value());
    if (!m.ok()) return m.status();
    out.push_back(std::move(m).value());
  }
}

}  // namespace nasperf
