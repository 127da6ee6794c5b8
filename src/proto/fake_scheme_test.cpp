// A protocol that exists only in this file (fake://): registered into the scheme table,
// it is reached by MakeTarget, the engine registry and the CLI's option helpers without
// any other file naming it. And a scheme this build lacks says so in one line.
#include <gtest/gtest.h>

#include "cli/protocol_options.h"
#include "engine/null/null_engine.h"
#include "proto/make_target.h"
#include "proto/schemes.h"
#include "proto/engine_registry.h"

namespace nasperf {
namespace {

class FakeTarget final : public Target {
 public:
  explicit FakeTarget(ProtocolUrl url) : url_(std::move(url)) {}
  std::string description() const override { return "fake target " + url_.display(); }
  const char* required_engine() const override { return "fake"; }
  Status Check(const JobSpec&) override { return Status::Ok(); }
  Result<std::vector<WorkerFile>> Open(const JobSpec&) override { return std::vector<WorkerFile>(); }
  TargetCaps caps() const override { return {.client_cache = false}; }
  Result<std::unique_ptr<Engine>> MakeEngine(const JobSpec&) override { return std::unique_ptr<Engine>(new NullEngine()); }

 private:
  ProtocolUrl url_;
};

class FakeScheme : public ::testing::Test {
 protected:
  void SetUp() override {
    Scheme fake;
    fake.name = "fake";
    fake.protocol = "FAKE";
    fake.version_joiner = "-";
    fake.noun = "pond";
    fake.library = "libfake";
    fake.takes_login = true;
    ASSERT_TRUE(RegisterScheme(fake).ok());
    ProvideSchemeCode("fake", {[](const ProtocolUrl& url, const TargetOptions&) -> Result<std::unique_ptr<Target>> {
                                 return std::unique_ptr<Target>(new FakeTarget(url));
                               },
                               [] { return Result<std::unique_ptr<Engine>>(std::unique_ptr<Engine>(new NullEngine())); },
                               nullptr});
    Scheme absent;
    absent.name = "absent";
    absent.protocol = "ABSENT";
    absent.built = false;
    ASSERT_TRUE(RegisterScheme(absent).ok());
  }
  void TearDown() override {
    RemoveScheme("fake");
    RemoveScheme("absent");
  }
};

TEST_F(FakeScheme, MakeTargetReachesItsFactory) {
  ASSERT_TRUE(IsProtocolUrl("fake://host/pond/dir"));
  Result<std::unique_ptr<Target>> target = MakeTarget("fake://host/pond/dir", TargetOptions{});
  ASSERT_TRUE(target.ok()) << target.status().message();
  EXPECT_EQ(target.value()->description(), "fake target fake://host/pond/dir");
  Result<std::unique_ptr<Engine>> engine = target.value()->MakeEngine(JobSpec{});
  ASSERT_TRUE(engine.ok());
  EXPECT_STREQ(engine.value()->name(), "null");
}

TEST_F(FakeScheme, EngineRegistryKnowsItsEngine) {
  Result<std::unique_ptr<Engine>> engine = MakeEngine("fake");
  ASSERT_TRUE(engine.ok()) << engine.status().message();
  const std::vector<std::string> names = EngineNames();
  EXPECT_NE(std::find(names.begin(), names.end(), "fake"), names.end());
  EXPECT_EQ(std::find(names.begin(), names.end(), "absent"), names.end());
}

TEST_F(FakeScheme, CliHelpersReadItsRow) {
  ProtocolOptions options;
  options.user = "alice";
  Result<TargetOptions> built = BuildTargetOptions(options, "fake://host/pond");
  ASSERT_TRUE(built.ok()) << built.status().message();
  EXPECT_EQ(built.value().user, "alice");
  EXPECT_EQ(IoModeText("fake://host/pond", false), "I/O straight to the server (libfake keeps no client cache)");
  Result<TargetOptions> refused = BuildTargetOptions(options, "null:");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("fake://"), std::string::npos) << refused.status().message();
}

TEST_F(FakeScheme, LabelJoinsItsVersionAsItsRowSays) {
  ProtocolFacts facts;
  facts.protocol = "FAKE";
  facts.version = "2";
  EXPECT_EQ(facts.label(), "FAKE-2");
}

TEST_F(FakeScheme, ASchemeBuiltWithoutSaysSoInOneLine) {
  ASSERT_TRUE(IsProtocolUrl("absent://host/x"));
  Result<std::unique_ptr<Target>> target = MakeTarget("absent://host/x", TargetOptions{});
  ASSERT_FALSE(target.ok());
  EXPECT_EQ(target.status().kind(), ErrorKind::kBadInput);
  EXPECT_EQ(target.status().message(), "absent://: this nasperf was built without ABSENT");
  EXPECT_FALSE(MakeEngine("absent").ok());
}

TEST(SchemeTable, EveryBuiltInRowIsComplete) {
  for (const char* name : {"smb", "nfs", "iscsi"}) {
    const Scheme* scheme = FindScheme(name);
    ASSERT_NE(scheme, nullptr) << name;
    EXPECT_FALSE(scheme->protocol.empty() || scheme->noun.empty() || scheme->library.empty()) << name;
  }
  EXPECT_EQ(SchemeOfProtocol("NFS")->noun, "export");
  EXPECT_EQ(SchemeOfProtocol("iSCSI")->noun, "LUN");
  EXPECT_EQ(SchemeOfUrl("smb:/x"), nullptr);
  EXPECT_EQ(SchemeOfUrl("smb://"), FindScheme("smb"));
}

}  // namespace
}  // namespace nasperf
