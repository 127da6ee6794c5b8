// The names and parsers include/nasperf declares, tested in the contract's own binary: it
// links src/contract/ alone, so each call here also proves the definition lives there.
#include <gtest/gtest.h>

#include "contract/protocol_label.h"
#include "nasperf/job.h"
#include "nasperf/result.h"

namespace nasperf {
namespace {

TEST(ContractNames, EveryAccessPatternRoundTripsThroughItsName) {
  for (AccessPattern rw : {AccessPattern::kRead, AccessPattern::kWrite, AccessPattern::kRandRead,
                           AccessPattern::kRandWrite, AccessPattern::kReadWrite, AccessPattern::kRandReadWrite}) {
    std::optional<AccessPattern> back = ParseAccessPattern(ToString(rw));
    ASSERT_TRUE(back.has_value()) << ToString(rw);
    EXPECT_EQ(*back, rw);
  }
  EXPECT_FALSE(ParseAccessPattern("randomread").has_value());
  EXPECT_FALSE(ParseAccessPattern("").has_value());
}

TEST(ContractNames, DirectionsAndRandomness) {
  EXPECT_TRUE(DoesReads(AccessPattern::kRandRead));
  EXPECT_FALSE(DoesWrites(AccessPattern::kRandRead));
  EXPECT_TRUE(DoesWrites(AccessPattern::kWrite));
  EXPECT_FALSE(DoesReads(AccessPattern::kWrite));
  EXPECT_TRUE(DoesReads(AccessPattern::kReadWrite) && DoesWrites(AccessPattern::kReadWrite));
  EXPECT_TRUE(IsRandom(AccessPattern::kRandReadWrite));
  EXPECT_FALSE(IsRandom(AccessPattern::kRead));
}

TEST(ContractNames, BufferPatternsParseAndRefuseWithOneLine) {
  Result<BufferPattern> half = ParseBufferPattern("compressible:50");
  ASSERT_TRUE(half.ok());
  EXPECT_EQ(half.value().kind, BufferPattern::Kind::kCompressible);
  EXPECT_EQ(ToString(half.value()), "compressible:50");
  EXPECT_EQ(ToString(ParseBufferPattern("zero").value()), "zero");
  Result<BufferPattern> over = ParseBufferPattern("compressible:101");
  ASSERT_FALSE(over.ok());
  EXPECT_EQ(over.status().kind(), ErrorKind::kBadInput);
  EXPECT_NE(over.status().message().find("--pattern"), std::string::npos);
  EXPECT_FALSE(ParseBufferPattern("ones").ok());
}

TEST(ContractNames, CrystalDiskMarkLabels) {
  EXPECT_EQ(SuiteTestLabel(false, 1 << 20, 8, 1), "SEQ1M Q8T1");
  EXPECT_EQ(SuiteTestLabel(true, 4096, 32, 16), "RND4K Q32T16");
}

TEST(ContractNames, ProtocolLabelsJoinAsRegistered) {
  SetProtocolVersionJoiner("CONTRACTFS", "v");
  EXPECT_EQ((ProtocolFacts{"CONTRACTFS", "3"}).label(), "CONTRACTFSv3");
  EXPECT_EQ((ProtocolFacts{"OTHERFS", "2.1"}).label(), "OTHERFS 2.1");
  EXPECT_EQ((ProtocolFacts{"OTHERFS", ""}).label(), "OTHERFS");
}

}  // namespace
}  // namespace nasperf
