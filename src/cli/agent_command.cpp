// `nasperf agent`: serves jobs, telemetry and network tests on this machine (the NAS).
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>

#include <nlohmann/json.hpp>

#include "agent/agent_server.h"
#include "wire/auth.h"
#include "cli/commands.h"
#include "base/signals.h"

namespace nasperf {

int AgentCommand(const AgentCommandOptions& options) {
  AgentServerOptions server_options;
  server_options.listen = options.listen;
  server_options.root = options.root;
  server_options.insecure = options.insecure;
  server_options.allow_devices = options.allow_devices;
  server_options.allow_volume_members = options.allow_volume_members;
  // A test hook (tests/diagnose_e2e_test.cpp): NASPERF_TEST_AGENT_IDLE_MS=N closes a
  // control connection idle for N ms instead of 60 s, so that a test can outlast it.
  if (const char* idle = std::getenv("NASPERF_TEST_AGENT_IDLE_MS"); idle && std::atoi(idle) > 0)
    server_options.idle_timeout = std::chrono::milliseconds(std::atoi(idle));
  // Either a token is enforced or there is none: both would print "INSECURE" while the
  // token is still checked.
  if (options.insecure && !options.token_file.empty())
    return ReportFailure(Status::BadInput("agent: --insecure (no token) and --token-file contradict each other; "
                                          "give one of them"));
  if (!options.token_file.empty()) {
    Result<std::string> token = LoadTokenFile(options.token_file);
    if (!token.ok()) return ReportFailure(token.status());
    server_options.token = token.value();
  } else if (!options.insecure) {
    return ReportFailure(Status::BadInput("agent: no token: give --token-file FILE (mode 0600, 16 bytes or more), "
                                          "or --insecure on a loopback address"));
  }
  Result<std::unique_ptr<AgentServer>> server = AgentServer::Listen(server_options);
  if (!server.ok()) return ReportFailure(server.status());
  // A peer that vanishes mid-send must be an error value, never a fatal SIGPIPE.
  std::signal(SIGPIPE, SIG_IGN);

  // The one start line; tests and scripts read the address actually bound from it.
  const AgentServer& s = *server.value();
  const std::vector<std::string> devices = s.allowed_devices();
  std::string device_text;
  for (const std::string& d : devices) device_text += (device_text.empty() ? ", devices read-only: " : " ") + d;
  if (options.json)
    std::printf("%s\n", nlohmann::json({{"agent", {{"listen", s.bound_address()}, {"port", s.bound_port()},
                                                   {"root", s.root()}, {"insecure", options.insecure},
                                                   {"allowed_devices", devices}}}})
                            .dump()
                            .c_str());
  else
    std::printf("nasperf agent: listening on %s, root %s%s%s\n", s.bound_address().c_str(), s.root().c_str(),
                device_text.c_str(), options.insecure ? " (INSECURE: no token)" : "");
  std::fflush(stdout);

  std::atomic<bool> never{false};
  Status served = server.value()->Serve(never, true);
  if (!served.ok()) return ReportFailure(served);
  std::fprintf(stderr, "nasperf agent: stopped (signal %d); jobs cancelled and their files removed\n", InterruptSignal());
  return 0;
}

}  // namespace nasperf
