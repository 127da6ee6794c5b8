// The SMB helper's side of its socket, driven in this process: frames that are not
// nasperf's end it with exit status 2 and one line; a server it cannot reach is reported
// to the parent in the ready frame (loopback port 1, where nothing listens).
#include "proto/smb/smb_io_helper.h"

#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <string>
#include <thread>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace nasperf {
namespace {

struct HelperUnderTest {
  int parent = -1;
  ScopedFd memory{::memfd_create("test-buffers", MFD_CLOEXEC)};
  int exit_status = -1;
  std::thread thread;

  HelperUnderTest() {
    int pair[2];
    EXPECT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair), 0);
    parent = pair[0];
    EXPECT_EQ(::ftruncate(memory.get(), 1 << 20), 0);
    thread = std::thread([this, helper = pair[1]] {
      exit_status = RunSmbIoHelper(helper, memory.get());
      ::close(helper);
    });
  }
  void Send(const void* data, size_t bytes) const { ASSERT_EQ(::send(parent, data, bytes, MSG_NOSIGNAL), ssize_t(bytes)); }
  void SendSetup(const std::string& text) const {
    uint32_t length = static_cast<uint32_t>(text.size());
    Send(&length, sizeof length);
    Send(text.data(), text.size());
  }
  int Finish() {
    ::shutdown(parent, SHUT_WR);
    thread.join();
    ::close(parent);
    return exit_status;
  }
};

nlohmann::json GoodSetup() {
  return {{"server", "127.0.0.1"}, {"port", 1},      {"share", "bench"},    {"path", "/.nasperf-1-0.dat"},
          {"user", "u"},           {"domain", ""},   {"password", "secret"}, {"timeout_ms", 2000},
          {"slots", 1},            {"buffer_bytes", 65536}};
}

TEST(SmbIoHelper, NoSetupFrameIsExit2) {
  HelperUnderTest h;
  EXPECT_EQ(h.Finish(), 2);
}

TEST(SmbIoHelper, OversizedSetupFrameIsExit2) {
  HelperUnderTest h;
  uint32_t length = 1u << 30;
  h.Send(&length, sizeof length);
  EXPECT_EQ(h.Finish(), 2);
}

TEST(SmbIoHelper, SetupThatIsNotJsonIsExit2) {
  HelperUnderTest h;
  h.SendSetup("{not json");
  EXPECT_EQ(h.Finish(), 2);
}

TEST(SmbIoHelper, SetupMissingAFieldIsExit2) {
  HelperUnderTest h;
  nlohmann::json setup = GoodSetup();
  setup.erase("path");
  h.SendSetup(setup.dump());
  EXPECT_EQ(h.Finish(), 2);
}

TEST(SmbIoHelper, SetupAskingForImpossibleBuffersIsExit2) {
  for (auto [slots, bytes] : {std::pair<int, uint64_t>{0, 65536}, {1, 0}, {5000, 65536}, {1, uint64_t{1} << 40}}) {
    HelperUnderTest h;
    nlohmann::json setup = GoodSetup();
    setup["slots"] = slots;
    setup["buffer_bytes"] = bytes;
    h.SendSetup(setup.dump());
    EXPECT_EQ(h.Finish(), 2) << slots << " x " << bytes;
  }
}

TEST(SmbIoHelper, SharedBuffersSmallerThanTheSetupSaysIsExit2) {
  HelperUnderTest h;  // 1 MiB of shared memory
  nlohmann::json setup = GoodSetup();
  setup["slots"] = 32;
  setup["buffer_bytes"] = 1 << 20;
  h.SendSetup(setup.dump());
  EXPECT_EQ(h.Finish(), 2);
}

TEST(SmbIoHelper, UnreachableServerIsReportedInTheReadyFrame) {
  HelperUnderTest h;
  h.SendSetup(GoodSetup().dump());
  int32_t kind = 0;
  uint32_t length = 0;
  ASSERT_EQ(::recv(h.parent, &kind, sizeof kind, MSG_WAITALL), ssize_t(sizeof kind));
  ASSERT_EQ(::recv(h.parent, &length, sizeof length, MSG_WAITALL), ssize_t(sizeof length));
  ASSERT_LT(length, 4096u);
  std::string message(length, '\0');
  ASSERT_EQ(::recv(h.parent, message.data(), length, MSG_WAITALL), ssize_t(length));
  EXPECT_NE(kind, 0);
  EXPECT_NE(message.find("127.0.0.1"), std::string::npos) << message;
  EXPECT_EQ(message.find("secret"), std::string::npos) << message;
  EXPECT_EQ(h.Finish(), 0);
}

}  // namespace
}  // namespace nasperf
