// `nasperf app photo-album TARGET [--photos N]`: the photo-album workload
// (suite/app/photo_album.h) around cli/app_workload's steps; this file parses.
#include <memory>

#include "cli/app_command.h"
#include "cli/app_workload.h"
#include "cli/commands.h"
#include "suite/app/photo_album.h"
#include "suite/app/staging.h"

namespace nasperf {
namespace {

struct PhotoCommandOptions {
  AppWorkloadOptions app;
  int64_t photos = 200;
};

int PhotoAlbumCommand(const PhotoCommandOptions& options) {
  if (options.photos < 1)
    return ReportFailure(
        Status::BadInput("--photos " + std::to_string(options.photos) + ": the album needs at least one photo"));
  Result<uint64_t> seed = AppSeed(options.app.seed);
  if (!seed.ok()) return ReportFailure(seed.status());
  PhotoAlbumOptions album;
  album.photos = static_cast<uint32_t>(std::min<int64_t>(options.photos, 1'000'000));
  album.seed = seed.value();
  Result<PhotoAlbumPlan> plan = PlanPhotoAlbum(album);
  if (!plan.ok()) return ReportFailure(plan.status());
  AppWorkload w;
  w.name = "photo-album";
  w.dataset_bytes = plan.value().total_bytes;
  w.dataset = StagedDataset("nasperf-photo-album 1", album.seed, plan.value().sizes, 1);
  w.stage = [&](AppFileSystem& fs) { return StagePhotoAlbum(fs, plan.value()); };
  w.timed = [&](AppFileSystem& fs, AppFigures* out, std::vector<std::string>*, OpHistograms* histograms) {
    return RunPhotoAlbum(fs, plan.value(), MonotonicClock(), out, histograms);
  };
  return RunAppWorkload(options.app, w);
}

}  // namespace

void AddPhotoAlbumCommand(CLI::App& app, AppCommands& commands) {
  auto options = std::make_shared<PhotoCommandOptions>();
  CLI::App* cmd = app.add_subcommand(
      "photo-album",
      "NASPT's photo album: ~200 phone photos (2-6 MB) staged, then the folder listed and each read whole");
  AddAppWorkloadOptions(*cmd, options->app);
  cmd->add_option("--photos", options->photos, "photos in the album (default 200)");
  commands.subcommands.push_back({cmd, [options](const AppCommands& c) {
                                     options->app.common.command_line = c.command_line;
                                     options->app.ranks = c.ranks;
                                     return PhotoAlbumCommand(*options);
                                   }});
}

}  // namespace nasperf
