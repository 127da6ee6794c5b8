// Tests of the diagnosis's JSON codec: a full round trip, tolerant reading of missing keys,
// and wrong types refused with the key named.
#include "model/diagnosis_json.h"

#include <gtest/gtest.h>

#include "testing/diagnosis_fixture.h"

namespace nasperf {
namespace {

using nlohmann::json;

TEST(DiagnosisJson, FullDiagnosisRoundTrips) {
  Diagnosis d = testing::FullDiagnosisFixture();
  nlohmann::ordered_json j = DiagnosisToJson(d);
  Result<Diagnosis> back = DiagnosisFromJson(json::parse(j.dump()));
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back.value(), d);
  // Through text and back again: the same document.
  EXPECT_EQ(DiagnosisToJson(back.value()).dump(), j.dump());
}

TEST(DiagnosisJson, NegotiatedKeepsItsOrder) {
  Diagnosis d;
  d.evidence.negotiated = {{"zeta", "1"}, {"alpha", "2"}};
  Result<Diagnosis> back = DiagnosisFromJson(json::parse(DiagnosisToJson(d).dump()));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back.value().evidence.negotiated, d.evidence.negotiated);
}

TEST(DiagnosisJson, MissingAndNullKeysAreUnknown) {
  Result<Diagnosis> empty = DiagnosisFromJson(json::object());
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty.value(), Diagnosis{});

  json j = json::parse(DiagnosisToJson(testing::FullDiagnosisFixture()).dump());
  j["evidence"]["nas"].erase("nic");
  j["evidence"]["net"]["up_1_mb_per_s"] = nullptr;
  j["waterfall"][0].erase("mb_per_s");
  j.erase("causes");
  Result<Diagnosis> partial = DiagnosisFromJson(j);
  ASSERT_TRUE(partial.ok()) << partial.status().message();
  EXPECT_FALSE(partial.value().evidence.nas.nic.has_value());
  EXPECT_FALSE(partial.value().evidence.net.up_1_mb_per_s.has_value());
  EXPECT_FALSE(partial.value().waterfall[0].mb_per_s.has_value());
  EXPECT_TRUE(partial.value().causes.empty());
  EXPECT_EQ(partial.value().evidence.net.down_4_mb_per_s, 116);
}

// Each case: a change to the full document, and the key the error line must name.
struct WrongType {
  const char* pointer;  // JSON pointer into the document
  json value;
  const char* message;
};

TEST(DiagnosisJson, WrongTypesAreBadInputNamingTheKey) {
  const WrongType cases[] = {
      {"/id", "7", "diagnosis: id: expected an integer, got \"7\""},
      {"/partial", 1, "diagnosis: partial: expected true or false, got 1"},
      {"/line_rate_mbps", 1000.5, "diagnosis: line_rate_mbps: expected an integer, got 1000.5"},
      {"/waterfall", json::object(), "diagnosis: waterfall: expected a list, got {}"},
      {"/waterfall/1/pct_of_line_rate", "93", "diagnosis: waterfall[1].pct_of_line_rate: expected a number"},
      {"/causes/0/evidence/1", 5, "diagnosis: causes[0].evidence[1]: expected a string, got 5"},
      {"/evidence", json::array(), "diagnosis: evidence: expected an object, got []"},
      {"/evidence/nas/irqs/0/count", -3, "diagnosis: evidence.nas.irqs[0].count: expected a count"},
      {"/evidence/nas/nic/mtu", "9000", "diagnosis: evidence.nas.nic.mtu: expected an integer"},
      {"/evidence/client/cpu_top/busy_pct", true, "diagnosis: evidence.client.cpu_top.busy_pct: expected a number"},
      {"/evidence/raid/members/0", 3, "diagnosis: evidence.raid.members[0]: expected a string"},
      {"/evidence/members/1/seq/run_ids/0", 1.5, "diagnosis: evidence.members[1].seq.run_ids[0]: expected an integer"},
      {"/evidence/net/retransmits", 1.5, "diagnosis: evidence.net.retransmits: expected a count"},
      {"/evidence/negotiated/0", "dialect", "diagnosis: evidence.negotiated[0]: expected an object"},
      {"/evidence/negotiated/0/value", 3, "diagnosis: evidence.negotiated[0].value: expected a string"},
      {"/evidence/raid", "md", "diagnosis: evidence.raid: expected an object or null"},
      {"/evidence/nas/cgroup_throttled_pct", "79", "diagnosis: evidence.nas.cgroup_throttled_pct: expected a number"},
      {"/evidence/nas/cgroup_path", 1, "diagnosis: evidence.nas.cgroup_path: expected a string"},
  };
  const json full = json::parse(DiagnosisToJson(testing::FullDiagnosisFixture()).dump());
  for (const WrongType& c : cases) {
    json j = full;
    j[json::json_pointer(c.pointer)] = c.value;
    Result<Diagnosis> d = DiagnosisFromJson(j);
    ASSERT_FALSE(d.ok()) << c.pointer;
    EXPECT_EQ(d.status().kind(), ErrorKind::kBadInput) << c.pointer;
    EXPECT_EQ(d.status().message().rfind(c.message, 0), 0u) << c.pointer << ": " << d.status().message();
  }
}

TEST(DiagnosisJson, NotAnObjectIsBadInput) {
  Result<Diagnosis> d = DiagnosisFromJson(json::array({1, 2}));
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.status().message(), "diagnosis: expected an object, got [1,2]");
}

TEST(DiagnosisJson, LongValuesAreQuotedShort) {
  json j = json::object();
  j["error"] = std::string(500, 'x');
  j["started_at"] = json::array({std::string(500, 'y')});
  Result<Diagnosis> d = DiagnosisFromJson(j);
  ASSERT_FALSE(d.ok());
  EXPECT_LT(d.status().message().size(), 120u);
}

}  // namespace
}  // namespace nasperf
