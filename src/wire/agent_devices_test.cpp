// Tests of the Inventory reply's "allowed_devices": round trip, absent, and hostile shapes.
#include "wire/agent_devices.h"

#include <gtest/gtest.h>

namespace nasperf {
namespace {

using nlohmann::json;

TEST(AgentDevicesTest, RoundTrip) {
  std::vector<AgentDevice> devices = {{"/dev/loop3", "loop3", 64ull << 20, 512, "--allow-device"},
                                      {"/dev/sdb1", "sdb1", 1ull << 40, 4096, "--allow-volume-members"}};
  Result<std::vector<AgentDevice>> back =
      AgentDevicesFromInventory({{"inventory", json::object()}, {"allowed_devices", AgentDevicesToJson(devices)}});
  ASSERT_TRUE(back.ok()) << back.status().message();
  ASSERT_EQ(back.value().size(), 2u);
  EXPECT_EQ(back.value()[1].path, "/dev/sdb1");
  EXPECT_EQ(back.value()[1].name, "sdb1");
  EXPECT_EQ(back.value()[1].size_bytes, 1ull << 40);
  EXPECT_EQ(back.value()[1].logical_block_bytes, 4096u);
  EXPECT_EQ(back.value()[1].allowed_by, "--allow-volume-members");
}

TEST(AgentDevicesTest, AbsentIsNone) {
  Result<std::vector<AgentDevice>> none = AgentDevicesFromInventory({{"inventory", json::object()}});
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none.value().empty());
}

TEST(AgentDevicesTest, BadShapesAreOneLineBadInput) {
  const json good = {{"path", "/dev/loop3"}, {"name", "loop3"}, {"size_bytes", 1}, {"logical_block_bytes", 512}};
  std::vector<json> bad = {json::object(), json(7), json::array({json(1)})};
  for (const char* key : {"path", "name", "size_bytes", "logical_block_bytes"}) {
    json d = good;
    d.erase(key);
    bad.push_back(json::array({d}));
    d[key] = json::object();
    bad.push_back(json::array({d}));
  }
  json relative = good;
  relative["path"] = "dev/loop3";
  bad.push_back(json::array({relative}));
  json negative = good;
  negative["size_bytes"] = -1;
  bad.push_back(json::array({negative}));
  json zero_block = good;
  zero_block["logical_block_bytes"] = 0;
  bad.push_back(json::array({zero_block}));
  json long_path = good;
  long_path["path"] = "/" + std::string(5000, 'x');
  bad.push_back(json::array({long_path}));
  bad.push_back(json(std::vector<json>(kMaxAgentDevices + 1, good)));
  for (const json& list : bad) {
    Result<std::vector<AgentDevice>> got = AgentDevicesFromInventory({{"allowed_devices", list}});
    ASSERT_FALSE(got.ok()) << list.dump().substr(0, 200);
    EXPECT_EQ(got.status().kind(), ErrorKind::kBadInput);
    EXPECT_EQ(got.status().message().find('\n'), std::string::npos);
    EXPECT_NE(got.status().message().find("allowed_devices"), std::string::npos) << got.status().message();
  }
}

}  // namespace
}  // namespace nasperf
