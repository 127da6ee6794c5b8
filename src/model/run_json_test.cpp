// The "protocol" member of a run in the JSON document: written in order, read back equal,
// null for local runs, and a malformed value refused with a message naming the member.
#include "model/run_json.h"

#include <gtest/gtest.h>

namespace nasperf {
namespace {

using ojson = nlohmann::ordered_json;

ProtocolFacts SmbFacts() {
  ProtocolFacts f;
  f.protocol = "SMB";
  f.version = "3.1.1";
  f.server = "198.18.0.2";
  f.share = "bench";
  f.options = {{"signing", "off"}, {"encryption", "off"}, {"max read", "8 MiB"}};
  return f;
}

RunResult SeqRead() {
  RunResult r;
  r.name = "smb read";
  r.target = "smb://bench@198.18.0.2/bench";
  r.engine = "smb";
  r.job.rw = AccessPattern::kRead;
  r.job.bs = 1 << 20;
  r.read = DirectionResult{100'000'000, 96, 0.85, 117.65, 113, {}, 0, nullptr};
  return r;
}

TEST(ProtocolJson, WritesTheFactsWithTheirLabelInOrder) {
  RunResult r = SeqRead();
  r.protocol = SmbFacts();
  ojson j = RunToJson(r)["protocol"];
  ASSERT_TRUE(j.is_object()) << j.dump();
  EXPECT_EQ(j["protocol"], "SMB");
  EXPECT_EQ(j["version"], "3.1.1");
  EXPECT_EQ(j["label"], "SMB 3.1.1");
  EXPECT_EQ(j["server"], "198.18.0.2");
  EXPECT_EQ(j["share"], "bench");
  std::vector<std::string> keys;
  for (const auto& [k, v] : j["options"].items()) keys.push_back(k);
  EXPECT_EQ(keys, (std::vector<std::string>{"signing", "encryption", "max read"}));
  EXPECT_EQ(j.dump().find("password"), std::string::npos);
}

TEST(ProtocolJson, ALocalRunHasNull) {
  ojson j = RunToJson(SeqRead());
  ASSERT_TRUE(j.contains("protocol"));
  EXPECT_TRUE(j["protocol"].is_null());
  Result<RunResult> back = RunFromJson(nlohmann::json(j));
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_FALSE(back.value().protocol.has_value());
  // Documents written before the member existed read the same.
  j.erase("protocol");
  back = RunFromJson(nlohmann::json(j));
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_FALSE(back.value().protocol.has_value());
}

TEST(ProtocolJson, ADocumentReadsBackEqualWithOptionsInOrder) {
  RunResult smb = SeqRead();
  smb.protocol = SmbFacts();
  RunResult local = SeqRead();
  local.name = "local";
  Result<std::vector<RunResult>> back = DocumentFromJson(DocumentToJson({smb, local}));
  ASSERT_TRUE(back.ok()) << back.status().message();
  ASSERT_EQ(back.value().size(), 2u);
  const std::optional<ProtocolFacts>& p = back.value()[0].protocol;
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->protocol, "SMB");
  EXPECT_EQ(p->version, "3.1.1");
  EXPECT_EQ(p->server, "198.18.0.2");
  EXPECT_EQ(p->share, "bench");
  EXPECT_EQ(p->options, SmbFacts().options);  // not sorted by name
  EXPECT_FALSE(back.value()[1].protocol.has_value());
  EXPECT_DOUBLE_EQ(back.value()[0].read->mb_per_s, 117.65);
}

TEST(ProtocolJson, MalformedValuesAreRefusedNamingTheMember) {
  struct Case {
    ojson value;
    std::string words;
  };
  const Case cases[] = {
      {"SMB", "protocol: expected an object or null"},
      {ojson::array(), "protocol: expected an object or null"},
      {{{"version", "3"}}, "protocol.protocol: missing"},
      {{{"protocol", ""}}, "protocol.protocol: empty"},
      {{{"protocol", 3}}, "protocol.protocol: expected a string"},
      {{{"protocol", "NFS"}, {"server", 7}}, "protocol.server: expected a string"},
      {{{"protocol", "NFS"}, {"options", ojson::array({"a", "b"})}}, "protocol.options: expected an object"},
      {{{"protocol", "NFS"}, {"options", {{"max read", 1048576}}}}, "protocol.options.max read: expected a string"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.value.dump());
    Result<std::optional<ProtocolFacts>> facts = ProtocolFromJson(c.value);
    ASSERT_FALSE(facts.ok());
    EXPECT_EQ(facts.status().kind(), ErrorKind::kBadInput);
    EXPECT_NE(facts.status().message().find(c.words), std::string::npos) << facts.status().message();
    EXPECT_EQ(facts.status().message().find('\n'), std::string::npos);

    ojson doc = DocumentToJson({SeqRead(), SeqRead()});
    doc["runs"][1]["protocol"] = c.value;
    Result<std::vector<RunResult>> runs = DocumentFromJson(doc);
    ASSERT_FALSE(runs.ok());
    EXPECT_EQ(runs.status().kind(), ErrorKind::kBadInput);
    EXPECT_EQ(runs.status().message().rfind("runs[1]: protocol", 0), 0u) << runs.status().message();
  }
}

TEST(ProtocolJson, DocumentFromJsonRefusesWhatIsNotADocument) {
  EXPECT_FALSE(DocumentFromJson(ojson::array()).ok());
  EXPECT_FALSE(DocumentFromJson({{"runs", ojson::array()}}).ok());
  EXPECT_FALSE(DocumentFromJson({{"nasperf", {{"version", "0.1.0"}}}, {"runs", 5}}).ok());
  Result<std::vector<RunResult>> empty =
      DocumentFromJson({{"nasperf", {{"version", "0.1.0"}}}, {"runs", ojson::array()}});
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty.value().empty());
}

// The queue depth that ran is kept beside the one asked ("qd_run" in the job object), read
// back, and absent when not known; a value that is no queue depth reads as not known.
TEST(QueueDepthJson, QdRunIsWrittenBesideQdAndReadBack) {
  RunResult run;
  run.engine = "psync";
  run.job.qd = 32;
  run.qd_run = 1;
  nlohmann::ordered_json j = RunToJson(run);
  EXPECT_EQ(j["job"]["qd"], 32);
  EXPECT_EQ(j["job"]["qd_run"], 1);
  Result<RunResult> back = RunFromJson(nlohmann::json(j));
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back.value().qd_run, 1u);
  EXPECT_EQ(back.value().job.qd, 32u);

  run.qd_run = 0;
  j = RunToJson(run);
  EXPECT_FALSE(j["job"].contains("qd_run"));
  j["job"]["qd_run"] = -4;
  back = RunFromJson(nlohmann::json(j));
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back.value().qd_run, 0u);
}

}  // namespace
}  // namespace nasperf

namespace nasperf {
namespace {

// One repeat's figures: the directions asked for are written, and read back equal.
TEST(RepeatJson, WritesTheDirectionsAskedForAndReadsThemBack) {
  RepeatFigures r{1.5, 0.5, 10, 5, 100, 200, 300, 400, 2.5, 42};
  ojson only_read = RepeatToJson(r, true, false);
  EXPECT_EQ(only_read.dump(),
            R"({"read":{"mb_per_s":1.5,"iops":10.0,"lat_mean_us":100.0,"lat_p99_us":300.0},"seconds":2.5,"seed":42})");
  Result<RepeatFigures> both = RepeatFromJson(nlohmann::json(RepeatToJson(r, true, true)));
  ASSERT_TRUE(both.ok()) << both.status().message();
  EXPECT_DOUBLE_EQ(both.value().write_lat_p99_us, 400);
  EXPECT_DOUBLE_EQ(both.value().write_iops, 5);
  EXPECT_EQ(both.value().seed, 42u);
  Result<RepeatFigures> read = RepeatFromJson(nlohmann::json(only_read));
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(read.value().write_mb_per_s, 0);  // a direction not written is 0
}

TEST(RepeatJson, AMalformedFigureIsRefusedNamingIt) {
  Result<RepeatFigures> bad = RepeatFromJson(nlohmann::json::parse(R"({"read": {"iops": "many"}})"));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "read.iops: expected a number");
  EXPECT_FALSE(RepeatFromJson(nlohmann::json(3)).ok());
  nlohmann::json doc = RunToJson(SeqRead());
  doc["repeats"] = nlohmann::json::parse(R"({"each": [{"seconds": 1}, {"write": 7}]})");
  Result<RunResult> run = RunFromJson(doc);
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.status().message(), "run: repeats.each[1]: write: expected an object");
}

}  // namespace
}  // namespace nasperf

namespace nasperf {
namespace {

TEST(PerSizeJson, WrittenOnlyForAMixAndReadBackEqual) {
  RunResult r = SeqRead();
  EXPECT_FALSE(RunToJson(r).contains("per_size"));
  r.job.bs_split = {{4096, 50}, {1 << 20, 50}};
  SizeResult small{4096, DirectionResult{4096 * 10, 10, 0.85, 0.05, 11.8, {1, 2, 3, 4, 5, 6}, 0, nullptr}, std::nullopt};
  SizeResult large{1 << 20, DirectionResult{1 << 20, 1, 0.85, 1.2, 1.2, {}, 0, nullptr}, std::nullopt};
  r.per_size = {small, large};
  ojson j = RunToJson(r);
  ASSERT_TRUE(j.contains("per_size")) << j.dump();
  ASSERT_EQ(j["per_size"].size(), 2u);
  EXPECT_EQ(j["per_size"][0]["bs"], 4096);
  EXPECT_EQ(j["per_size"][0]["read"]["ios"], 10);
  EXPECT_EQ(j["per_size"][0]["read"]["lat_us"]["p99"], 4);
  EXPECT_FALSE(j["per_size"][0].contains("write"));
  Result<RunResult> back = RunFromJson(nlohmann::json(j));
  ASSERT_TRUE(back.ok()) << back.status().message();
  ASSERT_EQ(back.value().per_size.size(), 2u);
  EXPECT_EQ(back.value().per_size[1].bs, 1u << 20);
  ASSERT_TRUE(back.value().per_size[0].read);
  EXPECT_EQ(back.value().per_size[0].read->bytes, 4096u * 10);
  EXPECT_EQ(back.value().per_size[0].read->lat.p999_us, 5);
  EXPECT_FALSE(back.value().per_size[0].write);
  EXPECT_EQ(back.value().job.bs_split, r.job.bs_split);
}

TEST(PerSizeJson, AMalformedEntryIsRefusedNamingTheMember) {
  ojson j = RunToJson(SeqRead());
  for (const char* bad : {R"("x")", R"([{"read": {}}])", R"([{"bs": -1}])", R"([1])"}) {
    j["per_size"] = ojson::parse(bad);
    Result<RunResult> back = RunFromJson(nlohmann::json(j));
    ASSERT_FALSE(back.ok()) << bad;
    EXPECT_NE(back.status().message().find("per_size"), std::string::npos) << back.status().message();
  }
}

}  // namespace
}  // namespace nasperf
