// One libiscsi context logged in to a LUN, shared by the iSCSI target (capacity, checks)
// and the iSCSI engine (one per worker thread).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "nasperf/status.h"

struct iscsi_context;

namespace nasperf {

class IscsiSession {
 public:
  // Logs in to `iqn` on `server`:`port` (0: 3260) and reads LUN `lun`'s capacity, within
  // `timeout_ms`; every later command times out after that too. Unreachable portal:
  // Unavailable; unknown target, LUN or refused login: BadInput. A non-empty
  // `chap_user` logs in with CHAP (the target authenticates the initiator).
  static Result<IscsiSession> Connect(const std::string& server, uint16_t port, const std::string& iqn, int lun,
                                      uint32_t timeout_ms, const std::string& chap_user = "",
                                      const std::string& chap_password = "");
  iscsi_context* get() const { return context_.get(); }
  int lun() const { return lun_; }
  uint32_t block_bytes() const { return block_bytes_; }
  uint64_t size_bytes() const { return size_bytes_; }
  std::string LastError() const;

 private:
  struct Destroy {
    void operator()(iscsi_context* c) const;
  };
  std::unique_ptr<iscsi_context, Destroy> context_;
  int lun_ = 0;
  uint32_t block_bytes_ = 512;
  uint64_t size_bytes_ = 0;
};

}  // namespace nasperf
