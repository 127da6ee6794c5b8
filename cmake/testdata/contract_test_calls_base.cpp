// A test of src/contract/ that calls into base/ (FormatSize): the contract's test binary
// links only the contract, so this must fail to link (ctest layers.real_build_refuses).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

namespace nasperf {
std::string FormatSize(uint64_t bytes);
}

TEST(ContractProbe, CallsUpIntoBase) { EXPECT_EQ(nasperf::FormatSize(4096), "4 KiB"); }
