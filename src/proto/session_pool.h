// SessionPool: protocol sessions for a thread-safe AppFileSystem whose client library
// (libsmbclient, libnfs's sync API) must not be used from two threads at once. A call
// borrows an idle session (a new one when none is idle) and returns it when done, so N
// threads use N sessions side by side.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "nasperf/status.h"

namespace nasperf {

template <typename Session>
class SessionPool {
 public:
  using Maker = std::function<Result<std::unique_ptr<Session>>()>;
  explicit SessionPool(Maker make) : make_(std::move(make)) {}

  // A borrowed session, returned to the pool when the lease dies.
  class Lease {
   public:
    Lease(SessionPool* pool, std::unique_ptr<Session> session) : pool_(pool), session_(std::move(session)) {}
    Lease(Lease&&) noexcept = default;
    Lease& operator=(Lease&&) noexcept = default;
    ~Lease() {
      if (session_) pool_->Return(std::move(session_));
    }
    Session& operator*() const { return *session_; }
    Session* operator->() const { return session_.get(); }

   private:
    SessionPool* pool_ = nullptr;
    std::unique_ptr<Session> session_;
  };

  // Adds a session made already (the one that checked the target).
  void Add(std::unique_ptr<Session> session) { Return(std::move(session)); }

  Result<Lease> Borrow() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!idle_.empty()) {
        std::unique_ptr<Session> s = std::move(idle_.back());
        idle_.pop_back();
        return Lease(this, std::move(s));
      }
    }
    Result<std::unique_ptr<Session>> made = make_();
    if (!made.ok()) return made.status();
    return Lease(this, std::move(made).value());
  }

 private:
  void Return(std::unique_ptr<Session> session) {
    std::lock_guard<std::mutex> lock(mutex_);
    idle_.push_back(std::move(session));
  }
  Maker make_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<Session>> idle_;
};

}  // namespace nasperf
