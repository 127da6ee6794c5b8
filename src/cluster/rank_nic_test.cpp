// RankNicOf: a rank's NIC is its target's network path's interface, or none at all.
#include "cluster/rank_nic.h"

#include <gtest/gtest.h>

namespace nasperf {
namespace {

TEST(RankNic, IsTheInterfaceOfTheTargetsRoute) {
  TargetInventory nfs;
  nfs.kind = "url";
  nfs.network = NetworkPath{};
  nfs.network->nic = NicFacts{};
  nfs.network->nic->name = "enp2s0";
  nfs.network->nic->speed_mbps = 1000;
  nfs.network->nic->mtu = 9000;
  nfs.network->nic->driver = "igb";
  EXPECT_EQ(RankNicOf(nfs), (RankNic{"enp2s0", 1000, 9000}));
  nfs.network->nic->speed_mbps.reset();  // link down, or a virtio NIC
  EXPECT_EQ(RankNicOf(nfs), (RankNic{"enp2s0", std::nullopt, 9000}));
}

TEST(RankNic, NoneForALocalTargetOrAnUnknownRoute) {
  TargetInventory local;
  local.kind = "directory";
  EXPECT_FALSE(RankNicOf(local));
  TargetInventory unroutable;
  unroutable.kind = "url";
  unroutable.network = NetworkPath{};  // the server did not resolve: no route, no NIC
  EXPECT_FALSE(RankNicOf(unroutable));
  EXPECT_FALSE(RankNicTowards("/")) << "a local directory has no NIC in its path";
}

}  // namespace
}  // namespace nasperf
