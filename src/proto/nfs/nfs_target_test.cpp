// NfsTarget's protocol facts exist only once Check has mounted the export; the facts of a
// mounted export need a server, so only a lab test (tests/lab/) can check them.
#include "proto/nfs/nfs_target.h"

#include <gtest/gtest.h>

#include <cerrno>

#include "proto/nfs/nfs_session.h"

namespace nasperf {
namespace {

TEST(NfsTargetFacts, NoneBeforeTheExportIsMounted) {
  Result<ProtocolUrl> url = ParseProtocolUrl("nfs://127.0.0.1:1/bench");
  ASSERT_TRUE(url.ok()) << url.status().message();
  NfsTarget target(url.value(), 100);
  EXPECT_FALSE(target.protocol_facts().has_value());
}

// A full export: libnfs 4.0 printed ENOSPC's code as its text ("...failed with \"\x1C\""),
// and that byte reached the user's one line. It is shown escaped, with the errno's words.
TEST(NfsErrorDetail, GarbageFromLibnfsIsEscapedAndTheErrnoNamed) {
  EXPECT_EQ(NfsErrorDetail("pwrite call failed with \"\x1C\"", ENOSPC),
            "pwrite call failed with \"\\x1C\" (No space left on device)");
  EXPECT_EQ(NfsErrorDetail("NFS3ERR_NOENT", 0), "NFS3ERR_NOENT");
}

}  // namespace
}  // namespace nasperf
