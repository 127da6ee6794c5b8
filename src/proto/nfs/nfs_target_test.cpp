// NfsTarget's protocol facts exist only once Check has mounted the export; the facts of a
// mounted export need a server, so only a lab test (tests/lab/) can check them.
#include "proto/nfs/nfs_target.h"

#include <gtest/gtest.h>

namespace nasperf {
namespace {

TEST(NfsTargetFacts, NoneBeforeTheExportIsMounted) {
  Result<ProtocolUrl> url = ParseProtocolUrl("nfs://127.0.0.1:1/bench");
  ASSERT_TRUE(url.ok()) << url.status().message();
  NfsTarget target(url.value(), 100);
  EXPECT_FALSE(target.protocol_facts().has_value());
}

}  // namespace
}  // namespace nasperf
