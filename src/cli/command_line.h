// The command line as stored with a run: quoted where needed, secrets redacted.
#pragma once

#include <string>

namespace nasperf {

// Values of --password, --token and similar options, "password=..." and the password
// in "scheme://user:password@host" all become "***".
std::string RedactedCommandLine(int argc, const char* const* argv);

}  // namespace nasperf
