// `nasperf tree gen`: the realistic directory tree of a preset (workload/tree_model.h),
// its statistics as generated, and with --to written to a workspace, read back and removed.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "cli/protocol_options.h"

namespace nasperf {

struct TreeCommandOptions {
  std::string preset;
  std::string scale = "1";  // strings, so a bad value gets nasperf's own one line
  std::string seed;         // empty: a fresh seed, printed so that --seed reproduces the tree
  std::string to;           // empty: a dry run, nothing written
  bool digest = false;      // a dry run also hashes the contents it would write
  bool keep = false;        // --to: leave the tree (checked) for other tools to copy
  bool json = false;
  ProtocolOptions protocol;  // --user, --password-file, --connect-timeout for smb:// and nfs://
};

// Adds `tree` and its `gen`; returns `tree` (set when the user ran it).
CLI::App* AddTreeCommand(CLI::App& app, TreeCommandOptions& options);
int TreeCommand(const TreeCommandOptions& options);

}  // namespace nasperf
