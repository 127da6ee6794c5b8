// `nasperf net`: options → net test → a stored run (up = write, down = read) with the
// TCP facts and the fraction of the line rate in its notes.
#include "cli/net_command.h"

#include <algorithm>
#include <cstdio>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/progress.h"
#include "cli/run_recorder.h"
#include "core/runner.h"
#include "base/units.h"
#include "model/inventory_json.h"
#include "net/net_client.h"
#include "base/clock.h"
#include "model/run_json.h"
#include "report/table_report.h"
#include "sysinfo/inventory.h"

namespace nasperf {
namespace {

constexpr uint32_t kMaxStreams = 128;

std::string FactsNote(const net::NetTestResult& r) {
  const net::TcpFacts& f = r.facts;
  std::string note = "tcp: ";
  if (r.up && r.up_segments > 0)
    note += fmt::format("{} retransmits of {} segments ({:.3f} %, client's up streams), ", r.up_retrans,
                        r.up_segments, 100.0 * static_cast<double>(r.up_retrans) / static_cast<double>(r.up_segments));
  else if (r.up)
    note += fmt::format("{} retransmits (client's up streams), ", r.up_retrans);
  if (f.rtt_us) note += fmt::format("rtt {:.0f} us ± {:.0f} us, ", *f.rtt_us, f.rttvar_us.value_or(0));
  note += f.mss_bytes ? fmt::format("MSS {} B, ", *f.mss_bytes) : "MSS unknown, ";
  note += f.path_mtu_bytes ? fmt::format("path MTU {} B", *f.path_mtu_bytes) : "path MTU unknown";
  note += fmt::format(", local {} on {}", f.local_address.empty() ? "?" : f.local_address,
                      f.interface.empty() ? "?" : f.interface);
  return note;
}

// "window: 1.0 .. 11.0 s after the 4 streams started together (omit 1.0 s); ..."
std::string WindowNote(const net::NetTestResult& r) {
  std::string note = fmt::format("window: {:.3f} .. {:.3f} s after all {} streams started together; every stream "
                                 "counted by its receiver inside it (up: the agent, down: this client)",
                                 r.window_start_s, r.window_end_s, r.streams.size());
  if (r.window_end_s <= r.window_start_s) note += "; the test stopped before the window opened: nothing counted";
  return note;
}

// "per stream in the window, MB/s: up 0 88.0, up 1 81.1, ...".
std::string StreamsNote(const net::NetTestResult& r) {
  const double seconds = std::max(0.0, r.window_end_s - r.window_start_s);
  std::string note = "per stream in the window, MB/s:";
  for (size_t i = 0; i < r.streams.size(); ++i) {
    const net::NetStreamFigure& f = r.streams[i];
    note += fmt::format("{} {} {} {:.1f}", i ? "," : "", f.up ? "up" : "down", f.index,
                        seconds > 0 ? static_cast<double>(f.bytes) / seconds / 1e6 : 0.0);
  }
  return note;
}

// The run's "net" member: the common window and every stream's count inside it.
nlohmann::ordered_json NetJson(const net::NetTestResult& r, double omit_s) {
  nlohmann::ordered_json streams = nlohmann::ordered_json::array();
  const double seconds = std::max(0.0, r.window_end_s - r.window_start_s);
  for (const net::NetStreamFigure& f : r.streams) {
    streams.push_back({{"dir", f.up ? "up" : "down"},
                       {"stream", f.index},
                       {"bytes", f.bytes},
                       {"seconds", seconds},
                       {"mb_per_s", seconds > 0 ? static_cast<double>(f.bytes) / seconds / 1e6 : 0.0},
                       {"counted_by", f.receiver_counted ? (f.up ? "agent" : "client") : "client (sender)"},
                       {"end", f.end}});
  }
  return {{"omit_s", omit_s},
          {"window", {{"start_s", r.window_start_s}, {"end_s", r.window_end_s}, {"seconds", seconds}}},
          {"counted_by", "receiver"},
          {"streams", streams}};
}

}  // namespace

CLI::App* AddNetCommand(CLI::App& app, NetCommandOptions& o) {
  CLI::App* cmd = app.add_subcommand("net", "TCP throughput between this client and a nasperf agent at HOST[:PORT]");
  AddCommonOptions(*cmd, o.common);
  cmd->add_option("HOST", o.address, "the agent: HOST, HOST:PORT or [V6]:PORT (default port 7070)")->required();
  cmd->add_option("--dir", o.dir, "up (client → agent, reported as write), down (read) or both at once (default up)");
  cmd->add_option("--streams", o.streams, "parallel TCP connections per direction (default 1)");
  cmd->add_option("--time", o.time, "seconds counted, after the omit interval (default 10)");
  cmd->add_option("--omit", o.omit,
                  "seconds after all streams start together that are not counted: slow start, like iperf3 -O "
                  "(default 1)");
  cmd->add_option("--bs", o.bs, "bytes per send call (default 128k)");
  cmd->add_option("--token-file", o.token_file, "the agent's shared token (else $NASPERF_TOKEN)");
  cmd->add_flag("--no-zerocopy", o.no_zerocopy, "send with plain send() instead of sendfile");
  return cmd;
}

Result<NetRequest> ParseNetRequest(const NetCommandOptions& o) {
  NetRequest q;
  net::NetTestOptions& t = q.test;
  t.dir = o.dir;
  t.zerocopy = !o.no_zerocopy;
  if (o.dir != "up" && o.dir != "down" && o.dir != "both")
    return Status::BadInput(fmt::format("--dir must be up, down or both, not '{}'", o.dir));
  Result<uint64_t> streams = ParseCount(o.streams, "--streams");
  if (!streams.ok()) return streams.status();
  if (streams.value() < 1 || streams.value() > kMaxStreams)
    return Status::BadInput(fmt::format("--streams must be 1..{}, not {}", kMaxStreams, o.streams));
  t.streams = static_cast<uint32_t>(streams.value());
  Result<double> seconds = ParseDuration(o.time);
  if (!seconds.ok()) return Status::BadInput("--time: " + seconds.status().message());
  if (!(seconds.value() > 0) || seconds.value() > 3600)
    return Status::BadInput(fmt::format("--time must be more than 0 and at most 1h, not '{}'", o.time));
  t.seconds = seconds.value();
  Result<double> omit = ParseDuration(o.omit);
  if (!omit.ok()) return Status::BadInput(fmt::format("--omit: {}", omit.status().message()));
  if (!(omit.value() >= 0) || omit.value() > 60)
    return Status::BadInput(fmt::format("--omit must be 0 .. 60 s, not '{}'", o.omit));
  t.omit_s = omit.value();
  Result<uint64_t> bs = ParseSize(o.bs);
  if (!bs.ok()) return Status::BadInput("--bs: " + bs.status().message());
  if (bs.value() < 1 || bs.value() > (64ull << 20))
    return Status::BadInput(fmt::format("--bs must be 1 B .. 64 MiB, not '{}'", o.bs));
  t.bs = bs.value();
  Result<AgentAddress> address = ParseAgentAddress(o.address);
  if (!address.ok()) return address.status();
  t.address = address.value();
  Result<std::string> token = LoadClientToken(o.token_file);
  if (!token.ok()) return token.status();
  t.token = token.value();
  Result<std::map<std::string, std::string>> tags = ParseTags(o.common.tags);
  if (!tags.ok()) return tags.status();
  q.tags = tags.value();
  return q;
}

// The run a network test is stored as: the streams are its threads, the omit interval
// its ramp.
RunResult NetRunRecord(const NetCommandOptions& o, const NetRequest& q) {
  RunResult run;
  run.name = o.common.name;
  run.tags = q.tags;
  const net::NetTestOptions& t = q.test;
  run.target = "net://" + t.address.text();
  run.engine = "net";
  run.job.rw = o.dir == "up" ? AccessPattern::kWrite : o.dir == "down" ? AccessPattern::kRead : AccessPattern::kReadWrite;
  run.job.threads = t.streams;
  run.job.bs = t.bs;
  run.job.qd = 1;
  run.job.size = 0;
  run.job.time_s = t.seconds;
  run.job.ramp_s = t.omit_s;  // the omit interval is a ramp: run, not counted
  run.job.time_based = true;
  run.job.engine = "net";
  return run;
}

// What the test measured, into the run: the figures and the notes that say what they are.
void AddNetFigures(const NetCommandOptions& o, const net::NetTestOutcome& outcome, RunResult& run) {
  const net::NetTestResult& r = outcome.result;
  auto direction = [](const net::NetDirection& d) {
    return SummariseDirection(d.bytes, 0, d.seconds, 0, nullptr);
  };
  if (r.up && r.up->bytes > 0) run.write = direction(*r.up);
  if (r.down && r.down->bytes > 0) run.read = direction(*r.down);
  run.samples = r.samples;
  run.telemetry = r.telemetry;
  run.partial = !outcome.status.ok();
  if (run.partial) run.error = outcome.status.kind() == ErrorKind::kInterrupted ? "interrupted" : outcome.status.message();

  const std::optional<int64_t> speed = r.link_speed_mbps;
  if (run.write) run.notes.push_back("up (write): " + net::LineRateText(run.write->mb_per_s, r.facts.interface, speed));
  if (run.read) run.notes.push_back("down (read): " + net::LineRateText(run.read->mb_per_s, r.facts.interface, speed));
  run.notes.push_back(WindowNote(r));
  if (r.streams.size() > 1) run.notes.push_back(StreamsNote(r));
  run.notes.push_back(FactsNote(r));
  std::string zc = "zerocopy:";
  if (r.up) zc += fmt::format(" up {} (client)", r.client_send_mode);
  if (r.down) zc += fmt::format("{} down {} (agent)", r.up ? "," : "", r.agent_send_mode);
  if (!o.no_zerocopy && r.facts.interface == "lo")
    zc += "; plain send() on loopback, where it is faster than sendfile (docs/performance.md)";
  run.notes.push_back(zc);
  if (r.up && !r.up->receiver_counted)
    run.notes.push_back("up figure is what the client sent: the agent's count was lost");
  else if (r.up)
    run.notes.push_back("up figure is what the agent received; per-second samples are what the client sent");
  if (!r.agent_report_note.empty()) run.notes.push_back(r.agent_report_note);
}

int NetCommand(const NetCommandOptions& o) {
  Result<NetRequest> request = ParseNetRequest(o);
  if (!request.ok()) return ReportFailure(request.status());
  const NetRequest& q = request.value();
  Result<RunRecorder> recorder = RunRecorder::Open(o.common, "net");
  if (!recorder.ok()) return ReportFailure(recorder.status());
  RunResult run = NetRunRecord(o, q);
  const std::string started_at = UtcTimestamp();

  net::NetTestOptions options = q.test;
  ProgressLine progress(!o.common.json);
  progress.SetLabel("net " + o.dir);
  options.on_sample = [&](const Sample& s) { progress.Show(s); };
  net::NetTestOutcome outcome = net::RunNetTest(options);
  progress.Clear();
  // Nothing moved (no agent, refused token, bad session): nothing to store.
  if (!outcome.result.measured) return ReportFailure(outcome.status);

  run.inventory = InventoryToJson(GatherInventory("."));
  if (Status s = recorder.value().Begin(run); !s.ok()) return ReportFailure(s);
  RunResult begun = run;
  run.started_at = begun.started_at = started_at;
  AddNetFigures(o, outcome, run);
  Status stored = recorder.value().Finish(run, begun);

  if (o.common.json) {
    nlohmann::ordered_json doc = DocumentToJson({run});
    doc["runs"][0]["net"] = NetJson(outcome.result, options.omit_s);
    std::printf("%s\n", doc.dump(2).c_str());
  } else {
    std::printf("%s%s", RunTable(run).c_str(), StoredLine(recorder.value(), {run}).c_str());
  }
  std::fflush(stdout);
  if (!outcome.status.ok()) {
    if (outcome.status.kind() != ErrorKind::kInterrupted)
      std::fprintf(stderr, "nasperf: %s (partial run%s)\n", outcome.status.message().c_str(),
                   recorder.value().enabled() ? " stored" : "");
    return ExitCodeFor(outcome.status);
  }
  return ReportFailure(stored);
}

}  // namespace nasperf
