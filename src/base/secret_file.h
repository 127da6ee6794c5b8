// Secrets kept in files (the agent's token, a share's password): read only from a regular
// file that nobody but its owner can read or write, like ssh's private keys.
#pragma once

#include <string>

#include "nasperf/status.h"

namespace nasperf {

// The file's bytes without one trailing newline ("\n" or "\r\n"). `what` names the file
// in errors ("token file", "--password-file"); every failure is BadInput, one line, and
// never shows the secret.
Result<std::string> ReadSecretFile(const std::string& path, const std::string& what);

}  // namespace nasperf
