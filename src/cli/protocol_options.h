// The options of protocol targets (smb://, nfs://, iscsi://), shared by run, quick and
// sweep: who to log in as, where the password comes from, and how long to wait; and what
// a heading says about their I/O.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "nasperf/status.h"
#include "core/target.h"

namespace nasperf {

struct ProtocolOptions {
  std::string user;           // overrides the URL's user
  std::string password_file;  // else env NASPERF_PASSWORD, else no password (guest)
  std::string connect_timeout = "10s";
};
void AddProtocolOptions(CLI::App& app, ProtocolOptions& options);

// Checks the options against the target the user named and reads the password.
// --user or --password-file with a target that takes no credentials is refused, so a
// typo cannot send a password somewhere unexpected.
Result<TargetOptions> BuildTargetOptions(const ProtocolOptions& options, const std::string& target,
                                         std::vector<std::string> allow_destructive = {});

// The I/O a heading states for `target`: "direct (O_DIRECT) I/O" or "buffered I/O"; for a
// protocol target neither, since its client library (libsmbclient, libnfs, libiscsi) keeps
// no cache and reads and writes straight to the server.
std::string IoModeText(const std::string& target, bool direct);

}  // namespace nasperf
