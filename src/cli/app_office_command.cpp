// `nasperf app office TARGET [--users N] [--time S] [--think MS]`: the office workload
// (suite/app/office.h) around cli/app_workload's steps; this file parses.
#include <memory>

#include "base/units.h"
#include "cli/app_command.h"
#include "cli/app_workload.h"
#include "cli/commands.h"
#include "suite/app/office.h"
#include "suite/app/staging.h"

namespace nasperf {
namespace {

struct OfficeCommandOptions {
  AppWorkloadOptions app;
  int64_t users = 4;
  std::string time = "30s";
  int64_t think_ms = 500;
};

int OfficeCommand(const OfficeCommandOptions& options) {
  if (options.users < 1)
    return ReportFailure(
        Status::BadInput("--users " + std::to_string(options.users) + ": the office needs at least one user"));
  if (options.users > 1000)
    return ReportFailure(Status::BadInput("--users " + std::to_string(options.users) + ": at most 1000"));
  if (options.think_ms < 0)
    return ReportFailure(Status::BadInput("--think " + std::to_string(options.think_ms) + ": must be 0 or more ms"));
  Result<double> time_s = ParseDuration(options.time);
  if (!time_s.ok()) return ReportFailure(Status::BadInput("--time: " + time_s.status().message()));
  Result<uint64_t> seed = AppSeed(options.app.seed);
  if (!seed.ok()) return ReportFailure(seed.status());
  OfficeOptions office;
  office.users = static_cast<uint32_t>(options.users);
  office.time_s = time_s.value();
  office.think_ms = static_cast<uint32_t>(std::min<int64_t>(options.think_ms, 3'600'000));
  office.seed = seed.value();
  Result<OfficePlan> plan = PlanOffice(office);
  if (!plan.ok()) return ReportFailure(plan.status());
  std::vector<uint64_t> all_sizes;
  for (const auto& user : plan.value().sizes) all_sizes.insert(all_sizes.end(), user.begin(), user.end());
  AppWorkload w;
  w.name = "office";
  // A save holds a document twice until its rename: room for each user's largest once more.
  w.dataset_bytes = plan.value().total_bytes + office.max_bytes * office.users;
  w.dataset = StagedDataset("nasperf-office 1", office.seed, all_sizes, office.users);
  w.stage = [&](AppFileSystem& fs) { return StageOffice(fs, plan.value()); };
  w.timed = [&](AppFileSystem& fs, AppFigures* out, std::vector<std::string>* notes, OpHistograms* histograms) {
    return RunOffice(fs, plan.value(), MonotonicClock(), out, notes, histograms);
  };
  return RunAppWorkload(options.app, w);
}

}  // namespace

void AddOfficeCommand(CLI::App& app, AppCommands& commands) {
  auto options = std::make_shared<OfficeCommandOptions>();
  CLI::App* cmd = app.add_subcommand(
      "office", "NASPT's office: N users opening, safe-saving (temp, fsync, rename) and browsing small documents");
  AddAppWorkloadOptions(*cmd, options->app);
  cmd->add_option("--users", options->users, "simulated users, each with its own folder of documents (default 4)");
  cmd->add_option("--time", options->time, "how long the users work, timed (default 30s)");
  cmd->add_option("--think", options->think_ms, "each user's pause between operations, in ms (default 500)");
  commands.subcommands.push_back({cmd, [options](const AppCommands& c) {
                                     options->app.common.command_line = c.command_line;
                                     options->app.ranks = c.ranks;
                                     return OfficeCommand(*options);
                                   }});
}

}  // namespace nasperf
