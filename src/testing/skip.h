// The skip rule shared by unit and end-to-end tests: a test that needs something this
// machine lacks (root, a file system, a device, a server) skips on a user's machine but
// fails under CI, where .ci/run provides everything (STYLE.md, habit 9).
#pragma once

#include <gtest/gtest.h>

namespace nasperf::testing {

// True when the tests run under CI (env CI == "true"): skips become failures there.
bool InCi();
bool IsRoot();

}  // namespace nasperf::testing

#define NASPERF_SKIP_OR_FAIL_IN_CI(reason)                                              \
  do {                                                                                  \
    if (::nasperf::testing::InCi()) FAIL() << "CI=true, cannot skip: " << (reason);     \
    GTEST_SKIP() << (reason);                                                           \
  } while (0)
