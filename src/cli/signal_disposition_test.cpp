// Which commands take over SIGTERM and SIGINT: only those that run I/O jobs (and poll the
// flag the handler sets). Any other command must keep the default disposition, so a
// signal ends it wherever it waits; a handler nobody polled left `results import` of a
// FIFO or of /dev/zero running after SIGTERM.
#include <signal.h>

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/cli.h"
#include "testing/test_support.h"

namespace nasperf {
namespace {

bool DefaultDisposition(int sig) {
  struct sigaction now {};
  sigaction(sig, nullptr, &now);
  return now.sa_handler == SIG_DFL;
}

int RunCli(std::vector<std::string> args) {
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  return CliMain(static_cast<int>(args.size()), argv.data());
}

TEST(SignalDisposition, CommandsWithoutIoJobsLeaveSigtermAndSigintToTheKernel) {
  testing::TempDir dir;
  const std::string db = dir.path() + "/none.db";  // never created: nothing is stored
  for (std::vector<std::string> args : {std::vector<std::string>{"nasperf", "results", "list", "--db", db},
                                        std::vector<std::string>{"nasperf", "info", "null:"},
                                        std::vector<std::string>{"nasperf", "report", "-o", dir.path() + "/r.html",
                                                                 "--last", "1", "--db", db}}) {
    SCOPED_TRACE(args[1]);
    signal(SIGTERM, SIG_DFL);
    signal(SIGINT, SIG_DFL);
    RunCli(args);
    EXPECT_TRUE(DefaultDisposition(SIGTERM)) << "SIGTERM would be caught and ignored";
    EXPECT_TRUE(DefaultDisposition(SIGINT)) << "Ctrl-C would be caught and ignored";
  }
  EXPECT_TRUE(dir.Entries().empty());
}

}  // namespace
}  // namespace nasperf
