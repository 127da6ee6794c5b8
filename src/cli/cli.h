// The command line: parses argv, dispatches to one command, maps failures to exit codes
// (0 ok, 1 runtime failure, 2 bad input, 130 interrupted).
#pragma once

namespace nasperf {

int CliMain(int argc, char** argv);

}  // namespace nasperf
