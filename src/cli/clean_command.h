// `nasperf clean DIR [--yes]`, and the note every run gives about left-overs in its directory.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace nasperf {

struct CleanCommandOptions {
  std::string directory = ".";
  bool yes = false;  // remove; without it clean only lists
};

void AddCleanCommand(CLI::App& app, CleanCommandOptions& options);
int CleanCommand(const CleanCommandOptions& options);

// When `target` is a local directory holding `.nasperf-*` files no running nasperf holds
// (left by a run killed with SIGKILL, a crash, a power cut), names them on stderr as
// notes, with their size and whether `nasperf clean` would remove them. Prints nothing
// otherwise; never fails.
void NoteStaleFiles(const std::string& target);

}  // namespace nasperf
