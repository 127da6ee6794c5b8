// The SMB helper process and its parent-side handle. The helper runs an in-process
// SmbEngine on the shared buffers; the parent's SmbEngine forwards each request to it.
#include "proto/smb/smb_io_helper.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

#include <nlohmann/json.hpp>

#include "proto/smb/smb_engine.h"

extern char** environ;

namespace nasperf {
namespace {

// The setup frame's JSON is a few hundred bytes; anything near this is not ours.
constexpr uint32_t kMaxSetupBytes = 64 << 10;

bool WriteAll(int fd, const void* data, size_t bytes) {
  const char* p = static_cast<const char*>(data);
  while (bytes > 0) {
    ssize_t n = ::send(fd, p, bytes, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    bytes -= static_cast<size_t>(n);
  }
  return true;
}

// Reads exactly `bytes`. False on EOF, error, or the socket's receive timeout
// (SO_RCVTIMEO, set on the parent's side only: the helper waits for its parent).
bool ReadAll(int fd, void* data, size_t bytes) {
  char* p = static_cast<char*>(data);
  while (bytes > 0) {
    ssize_t n = ::recv(fd, p, bytes, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    bytes -= static_cast<size_t>(n);
  }
  return true;
}

bool SendReady(int fd, const Status& status) {
  int32_t kind = static_cast<int32_t>(status.kind());
  std::string text = status.message();
  uint32_t length = static_cast<uint32_t>(text.size());
  return WriteAll(fd, &kind, sizeof kind) && WriteAll(fd, &length, sizeof length) &&
         WriteAll(fd, text.data(), text.size());
}

Status StatusOfKind(int32_t kind, std::string message) {
  switch (static_cast<ErrorKind>(kind)) {
    case ErrorKind::kNone: return Status::Ok();
    case ErrorKind::kBadInput: return Status::BadInput(std::move(message));
    case ErrorKind::kUnavailable: return Status::Unavailable(std::move(message));
    default: return Status::Io(std::move(message));
  }
}

int Malformed(const std::string& what) {
  std::fprintf(stderr, "nasperf smb-io-helper: %s\n", what.c_str());
  return 2;
}

// What the setup frame says: the file to open and the shared buffers' shape.
struct HelperSetup {
  RemoteFile file;
  uint32_t slots = 0;
  uint64_t buffer_bytes = 0;
};

// Reads and checks the setup frame. 0, or the exit status of a malformed frame.
int ReadSetup(int socket, HelperSetup* setup) {
  uint32_t length = 0;
  if (!ReadAll(socket, &length, sizeof length)) return Malformed("no setup frame on the socket");
  if (length == 0 || length > kMaxSetupBytes) return Malformed("setup frame of " + std::to_string(length) + " bytes");
  std::string text(length, '\0');
  if (!ReadAll(socket, text.data(), length)) return Malformed("setup frame cut short");
  RemoteFile& file = setup->file;
  try {
    nlohmann::json j = nlohmann::json::parse(text);
    file.server = j.at("server").get<std::string>();
    file.port = j.at("port").get<uint16_t>();
    file.share = j.at("share").get<std::string>();
    file.path = j.at("path").get<std::string>();
    file.user = j.at("user").get<std::string>();
    file.domain = j.at("domain").get<std::string>();
    file.password = j.at("password").get<std::string>();
    file.connect_timeout_ms = j.at("timeout_ms").get<uint32_t>();
    setup->slots = j.at("slots").get<uint32_t>();
    setup->buffer_bytes = j.at("buffer_bytes").get<uint64_t>();
  } catch (const nlohmann::json::exception& e) {
    return Malformed(std::string("setup frame is not nasperf's: ") + e.what());
  }
  if (setup->slots == 0 || setup->slots > 1024 || setup->buffer_bytes == 0 || setup->buffer_bytes > (uint64_t{1} << 30))
    return Malformed("setup frame asks for " + std::to_string(setup->slots) + " buffers of " +
                     std::to_string(setup->buffer_bytes) + " bytes");
  return 0;
}

// Maps the parent's buffers, one pointer per slot. 0, or the exit status: 2 when they are
// smaller than the setup says, 1 (told to the parent) when they cannot be mapped.
int MapBuffers(int socket, int shared_memory, const HelperSetup& setup, std::vector<std::byte*>* buffers) {
  const size_t memory_bytes = static_cast<size_t>(setup.slots) * setup.buffer_bytes;
  struct stat shared {};
  if (::fstat(shared_memory, &shared) != 0 || static_cast<uint64_t>(shared.st_size) < memory_bytes)
    return Malformed("the shared buffers (fd " + std::to_string(shared_memory) + ") are smaller than the setup frame says");
  void* memory = ::mmap(nullptr, memory_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, shared_memory, 0);
  if (memory == MAP_FAILED) {
    SendReady(socket, Status::Io(std::string("smb helper: cannot map the shared buffers: ") + std::strerror(errno)));
    return 1;
  }
  buffers->resize(setup.slots);
  for (uint32_t i = 0; i < setup.slots; ++i)
    (*buffers)[i] = static_cast<std::byte*>(memory) + static_cast<size_t>(i) * setup.buffer_bytes;
  return 0;
}

// Answers requests until the parent closes the socket: 0, or 2 for a request out of range.
int ServeRequests(int socket, SmbEngine& engine, const HelperSetup& setup) {
  HelperRequest request;
  while (ReadAll(socket, &request, sizeof request)) {
    int64_t result = 0;
    if (request.op == kHelperSync) {
      Status s = engine.sync();
      result = s.ok() ? 0 : -(s.err() ? s.err() : EIO);
    } else if (request.op > kHelperWrite || request.slot >= setup.slots || request.length > setup.buffer_bytes) {
      return Malformed("request out of range (op " + std::to_string(request.op) + ", slot " +
                       std::to_string(request.slot) + ", " + std::to_string(request.length) + " bytes)");
    } else {
      IoRequest io{request.offset, request.length, request.op == kHelperWrite ? IoDir::kWrite : IoDir::kRead,
                   request.slot};
      IoCompletion done{};
      Result<size_t> submitted = engine.submit(std::span<const IoRequest>(&io, 1));
      Result<size_t> reaped = engine.reap(std::span<IoCompletion>(&done, 1), 1, std::chrono::microseconds(0));
      result = submitted.ok() && reaped.ok() && reaped.value() == 1 ? done.result : -EIO;
    }
    if (!WriteAll(socket, &result, sizeof result)) break;
  }
  return 0;
}

// The helper gets its socket as fd 3 and the buffers as fd 4, and runs this binary's
// hidden command. `pid` is -1 when the spawn fails.
Status SpawnHelper(int socket, int shared_memory, pid_t* pid) {
  // dup2 clears CLOEXEC. The sources move above 4 first, so neither dup2 overwrites the
  // other's source.
  ScopedFd socket_source(::fcntl(socket, F_DUPFD_CLOEXEC, 10));
  ScopedFd memory_source(::fcntl(shared_memory, F_DUPFD_CLOEXEC, 10));
  if (!socket_source.valid() || !memory_source.valid()) return ErrnoStatus("fcntl(F_DUPFD)", "", errno);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, socket_source.get(), 3);
  posix_spawn_file_actions_adddup2(&actions, memory_source.get(), 4);
  char self[] = "/proc/self/exe";
  char verb[] = "smb-io-helper";
  char* argv[] = {self, verb, nullptr};
  int rc = ::posix_spawn(pid, "/proc/self/exe", &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    *pid = -1;
    return ErrnoStatus("starting the SMB helper process", "", rc);
  }
  return Status::Ok();
}

// Sends the setup frame and waits for the ready frame: the helper's connect and open.
Status SendSetup(int socket, const RemoteFile& file, uint32_t slots, uint64_t buffer_bytes) {
  nlohmann::json setup = {{"server", file.server},         {"port", file.port},
                          {"share", file.share},           {"path", file.path},
                          {"user", file.user},             {"domain", file.domain},
                          {"password", file.password},     {"timeout_ms", file.connect_timeout_ms},
                          {"slots", slots},                {"buffer_bytes", buffer_bytes}};
  std::string text = setup.dump();
  uint32_t length = static_cast<uint32_t>(text.size());
  int32_t kind = 0;
  uint32_t message_bytes = 0;
  // Connecting takes up to the connect timeout, plus the helper's own start.
  if (!WriteAll(socket, &length, sizeof length) || !WriteAll(socket, text.data(), text.size()) ||
      !ReadAll(socket, &kind, sizeof kind) || !ReadAll(socket, &message_bytes, sizeof message_bytes) ||
      message_bytes > kMaxSetupBytes)
    return Status::Io("smb: the SMB helper process for " + file.server + " ended before connecting");
  std::string message(message_bytes, '\0');
  if (!ReadAll(socket, message.data(), message_bytes))
    return Status::Io("smb: the SMB helper process for " + file.server + " ended before connecting");
  return StatusOfKind(kind, std::move(message));
}

}  // namespace

int RunSmbIoHelper(int socket, int shared_memory) {
  HelperSetup setup;
  if (int exit_status = ReadSetup(socket, &setup); exit_status != 0) return exit_status;
  std::vector<std::byte*> buffers;
  if (int exit_status = MapBuffers(socket, shared_memory, setup, &buffers); exit_status != 0) return exit_status;

  SmbEngine engine;
  EngineOpenParams params;
  params.remote = &setup.file;
  params.buffers = std::span<std::byte*>(buffers.data(), buffers.size());
  params.buffer_bytes = setup.buffer_bytes;
  params.queue_depth = 1;
  Status opened = engine.open(params);
  if (!SendReady(socket, opened) || !opened.ok()) return opened.ok() ? 1 : 0;
  if (int exit_status = ServeRequests(socket, engine, setup); exit_status != 0) return exit_status;
  engine.close();
  return 0;
}

Status SmbHelperProcess::Start(const RemoteFile& file, uint32_t slots, uint64_t buffer_bytes) {
  buffer_bytes_ = buffer_bytes;
  memory_bytes_ = static_cast<size_t>(slots) * buffer_bytes;
  // Each I/O waits for the library's own timeout; a helper silent well past it is lost.
  timeout_ms_ = static_cast<int>(file.connect_timeout_ms) + 5000;
  ScopedFd shared(::memfd_create("nasperf-smb-buffers", MFD_CLOEXEC));
  if (!shared.valid()) return ErrnoStatus("memfd_create", "", errno);
  if (::ftruncate(shared.get(), static_cast<off_t>(memory_bytes_)) != 0)
    return ErrnoStatus("ftruncate", "shared SMB buffers", errno);
  void* memory = ::mmap(nullptr, memory_bytes_, PROT_READ | PROT_WRITE, MAP_SHARED, shared.get(), 0);
  if (memory == MAP_FAILED) return ErrnoStatus("mmap", "shared SMB buffers", errno);
  memory_ = static_cast<std::byte*>(memory);

  int pair[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) return ErrnoStatus("socketpair", "", errno);
  socket_ = ScopedFd(pair[0]);
  // Each answer is waited for with one recv: the timeout lives on the socket, so an I/O
  // costs a send and a recv, no poll.
  timeval wait{timeout_ms_ / 1000, (timeout_ms_ % 1000) * 1000};
  if (::setsockopt(socket_.get(), SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof wait) != 0)
    return ErrnoStatus("setsockopt(SO_RCVTIMEO)", "SMB helper socket", errno);
  ScopedFd theirs(pair[1]);
  if (Status s = SpawnHelper(theirs.get(), shared.get(), &pid_); !s.ok()) return s;
  theirs.reset();
  return SendSetup(socket_.get(), file, slots, buffer_bytes);
}

int64_t SmbHelperProcess::Call(const HelperRequest& request) {
  int64_t result = 0;
  if (!socket_.valid() || !WriteAll(socket_.get(), &request, sizeof request) ||
      !ReadAll(socket_.get(), &result, sizeof result))
    return -EPIPE;
  return result;
}

void SmbHelperProcess::Stop() {
  socket_.reset();  // the helper sees EOF, closes its file and session, and exits
  if (pid_ > 0) {
    // It finishes the request in flight first, which the library bounds by the timeout;
    // one stuck past that is ended (our own child, by its PID).
    int status = 0;
    for (int waited_ms = 0; ::waitpid(pid_, &status, WNOHANG) == 0; waited_ms += 10) {
      if (waited_ms >= timeout_ms_) {
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, &status, 0);
        break;
      }
      ::usleep(10000);
    }
    pid_ = -1;
  }
  if (memory_) ::munmap(memory_, memory_bytes_);
  memory_ = nullptr;
}

}  // namespace nasperf
