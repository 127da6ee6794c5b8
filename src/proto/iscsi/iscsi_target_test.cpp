// IscsiTarget's protocol facts exist only once it has logged in; the facts of a logged-in
// LUN need a target, so only a lab test (tests/lab/) can check them.
#include "proto/iscsi/iscsi_target.h"

#include <gtest/gtest.h>

namespace nasperf {
namespace {

TEST(IscsiTargetFacts, NoneBeforeLogin) {
  Result<ProtocolUrl> url = ParseProtocolUrl("iscsi://127.0.0.1:1/iqn.2026-11.lab.nasperf:bench/0");
  ASSERT_TRUE(url.ok()) << url.status().message();
  Result<std::unique_ptr<Target>> target = IscsiTarget::Make(url.value(), TargetOptions{});
  ASSERT_TRUE(target.ok()) << target.status().message();
  EXPECT_FALSE(target.value()->protocol_facts().has_value());
}

}  // namespace
}  // namespace nasperf
