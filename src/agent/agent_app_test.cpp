// What a client may ask of an app workload on the agent, and how its directories reach the child.
#include "agent/agent_app.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testing/test_support.h"

namespace nasperf {
namespace {

using nlohmann::json;

class AgentAppTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = dir_.path() + "/root";
    ASSERT_EQ(::mkdir(root_.c_str(), 0700), 0);
    ASSERT_EQ(::mkdir((root_ + "/bench").c_str(), 0700), 0);
    ASSERT_EQ(::mkdir((root_ + "/tree").c_str(), 0700), 0);
    ASSERT_EQ(::mkdir((dir_.path() + "/outside").c_str(), 0700), 0);
    ASSERT_EQ(::symlink((dir_.path() + "/outside").c_str(), (root_ + "/link").c_str()), 0);
  }

  // A JobStart of suite "app" as the wire decodes it.
  Result<AgentAppRequest> Prepare(const std::string& workload, const std::string& dir, json options,
                                  bool* path_error = nullptr) {
    Frame frame{MessageType::kJobStart,
                {{"suite", "app"}, {"dir", dir}, {"app", {{"workload", workload}, {"options", options}}}}};
    Result<AgentMessage> m = DecodeMessage(frame);
    if (!m.ok()) return m.status();
    Result<RootDir> root = RootDir::Open(root_);
    if (!root.ok()) return root.status();
    bool ignored = false;
    return PrepareApp(std::get<JobStartMsg>(m.value().body), root.value(), path_error ? path_error : &ignored);
  }

  testing::TempDir dir_;
  std::string root_;
};

TEST_F(AgentAppTest, DirectoriesGoAsDescriptorsAndValuesAsOneTokenEach) {
  Result<AgentAppRequest> r = Prepare("restore", "bench", json::array({json::array({"scale", "0.01"}),
                                                                       json::array({"scratch", "tree"})}));
  ASSERT_TRUE(r.ok()) << r.status().message();
  // --scratch is the first directory, TARGET the second: each a descriptor, never a name.
  EXPECT_EQ(r.value().args, (std::vector<std::string>{"--scale=0.01", "--scratch=/dev/fd/10", "/dev/fd/11"}));
  ASSERT_EQ(r.value().dirs.size(), 2u);
  struct stat by_fd {}, by_path {};
  ASSERT_EQ(::fstat(r.value().dirs[0].fd.get(), &by_fd), 0);
  ASSERT_EQ(::stat((root_ + "/tree").c_str(), &by_path), 0);
  EXPECT_EQ(by_fd.st_ino, by_path.st_ino);
  // A value that looks like an option stays the value of the one before it.
  Result<AgentAppRequest> tricky = Prepare("video", "bench", json::array({json::array({"seed", "--db=/etc/x"})}));
  ASSERT_TRUE(tricky.ok()) << tricky.status().message();
  EXPECT_EQ(tricky.value().args.front(), "--seed=--db=/etc/x");
}

TEST_F(AgentAppTest, FileCopyWritesToTheJobStartsDirectoryUnlessToIsGiven) {
  Result<AgentAppRequest> r = Prepare("file-copy", "bench", json::array({json::array({"size", "1m"})}));
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r.value().args, (std::vector<std::string>{"--size=1m", "--to=/dev/fd/10"}));
  Result<AgentAppRequest> to_null = Prepare("file-copy", ".", json::array({json::array({"to", "null:"}),
                                                                           json::array({"from", "tree"})}));
  ASSERT_TRUE(to_null.ok()) << to_null.status().message();
  EXPECT_EQ(to_null.value().args, (std::vector<std::string>{"--to=null:", "--from=/dev/fd/10"}));
}

TEST_F(AgentAppTest, AnythingButTheWorkloadsOwnOptionsIsRefusedByName) {
  struct Case {
    const char* workload;
    json option;
    const char* says;
  } cases[] = {
      {"video", json::array({"db", "/tmp/x.sqlite"}), "--db is not an option"},
      {"video", json::array({"json", ""}), "--json is not an option"},
      {"office", json::array({"password-file", "/etc/shadow"}), "--password-file is not an option"},
      {"dir-copy", json::array({"user", "root"}), "--user is not an option"},
      {"video", json::array({"play", "yes"}), "--play is a flag"},
      {"video", json::array({"streams", ""}), "--streams needs a value"},
      {"video", json::array({"streams", "4\n--db"}), "--streams needs a value"},
      {"format-disk", json::array({"seed", "1"}), "no workload 'format-disk'"},
  };
  for (const Case& c : cases) {
    Result<AgentAppRequest> r = Prepare(c.workload, "bench", json::array({c.option}));
    ASSERT_FALSE(r.ok()) << c.option.dump();
    EXPECT_EQ(r.status().kind(), ErrorKind::kBadInput);
    EXPECT_NE(r.status().message().find(c.says), std::string::npos) << r.status().message();
  }
}

TEST_F(AgentAppTest, EveryDirectoryStaysBeneathTheRoot) {
  for (const char* path : {"..", "../outside", "/etc", "link", "bench/../.."}) {
    bool path_error = false;
    Result<AgentAppRequest> as_target = Prepare("video", path, json::array(), &path_error);
    EXPECT_FALSE(as_target.ok()) << path;
    EXPECT_TRUE(path_error) << path;
    path_error = false;
    Result<AgentAppRequest> as_source =
        Prepare("dir-copy", ".", json::array({json::array({"to", "bench"}), json::array({"source", path})}),
                &path_error);
    EXPECT_FALSE(as_source.ok()) << path;
    EXPECT_TRUE(path_error) << path;
    EXPECT_NE(as_source.status().message().find("--source"), std::string::npos) << as_source.status().message();
  }
}

TEST_F(AgentAppTest, TheDocumentNamesTheRealDirectoriesNotTheDescriptors) {
  Result<AgentAppRequest> r =
      Prepare("dir-copy", ".", json::array({json::array({"to", "bench"}), json::array({"source", "tree"})}));
  ASSERT_TRUE(r.ok()) << r.status().message();
  json doc = {{"runs", json::array({{{"target", "/dev/fd/10"},
                                      {"notes", json::array({"cache drop on /dev/fd/11/a and /dev/fd/10: done"})},
                                      {"figures", 3}}})}};
  ShowRealPaths(doc, r.value());
  const std::string bench = r.value().dirs[0].real_path, tree = r.value().dirs[1].real_path;
  EXPECT_EQ(doc["runs"][0]["target"], bench);
  EXPECT_EQ(doc["runs"][0]["notes"][0], "cache drop on " + tree + "/a and " + bench + ": done");
  EXPECT_EQ(doc["runs"][0]["figures"], 3);
}

TEST(AgentAppWire, AnAppJobStartIsCheckedAsItIsDecoded) {
  auto decode = [](json app) {
    return DecodeMessage(Frame{MessageType::kJobStart, {{"suite", "app"}, {"app", app}}}).status();
  };
  EXPECT_TRUE(decode({{"workload", "video"}}).ok());
  EXPECT_NE(decode(json()).message().find("needs an \"app\" object"), std::string::npos);
  EXPECT_NE(decode({{"options", json::array()}}).message().find("\"workload\" is missing"), std::string::npos);
  EXPECT_NE(decode({{"workload", "video"}, {"options", json::array({"seed"})}}).message().find("[name, value]"),
            std::string::npos);
  EXPECT_NE(decode({{"workload", "video"}, {"options", json::array({json::array({"seed", 1})})}})
                .message()
                .find("[name, value]"),
            std::string::npos);
  json many = json::array();
  for (size_t i = 0; i <= kMaxAppOptions; ++i) many.push_back(json::array({"seed", "1"}));
  EXPECT_NE(decode({{"workload", "video"}, {"options", many}}).message().find("at most"), std::string::npos);
  // Other suites still need their job.
  EXPECT_FALSE(DecodeMessage(Frame{MessageType::kJobStart, {{"suite", "run"}}}).ok());
}

}  // namespace
}  // namespace nasperf
