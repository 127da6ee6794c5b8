// nasperf's main(): everything lives in the library so tests can reach it.
#include "cli/cli.h"

int main(int argc, char** argv) { return nasperf::CliMain(argc, argv); }
