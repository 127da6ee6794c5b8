// IscsiTarget: URL, capacity, the destructive-write guard and per-thread LUN regions.
#include "proto/iscsi/iscsi_target.h"

#include <algorithm>

#include "target/rank_region.h"
#include "proto/iscsi/iscsi_engine.h"

#include "base/units.h"

namespace nasperf {

Result<std::unique_ptr<Target>> IscsiTarget::Make(const ProtocolUrl& url, const TargetOptions& options) {
  if (url.path.size() != 2)
    return Status::BadInput("TARGET: " + url.display() + " is not iscsi://HOST[:PORT]/IQN/LUN");
  const std::string& lun_text = url.path[1];
  bool digits = !lun_text.empty() && lun_text.size() <= 5;
  for (char c : lun_text) digits = digits && c >= '0' && c <= '9';
  if (!digits || std::stoi(lun_text) > 16383)
    return Status::BadInput("TARGET: LUN '" + lun_text + "' is not a number from 0 to 16383");
  TargetOptions login = options;
  if (login.user.empty()) login.user = url.user;
  if (!login.user.empty() && login.password.empty())
    return Status::BadInput("--password-file: CHAP user " + login.user + " of " + url.display() +
                            " needs a password (--password-file FILE or NASPERF_PASSWORD)");
  return std::unique_ptr<Target>(new IscsiTarget(url, url.path[0], std::stoi(lun_text), login));
}

Status IscsiTarget::Connect() const {
  if (session_) return Status::Ok();
  Result<IscsiSession> s = IscsiSession::Connect(url_.host, url_.port, iqn_, lun_, options_.connect_timeout_ms,
                                                   options_.user, options_.password);
  if (!s.ok()) return s.status();
  session_.emplace(std::move(s).value());
  return Status::Ok();
}

Result<RankRegion> LunRegion(const std::string& lun, uint64_t size_bytes, uint32_t block_bytes, uint32_t rank,
                             uint32_t ranks) {
  if (ranks <= 1) return RankRegion{0, size_bytes};
  // Regions start on whole blocks of at least 4 KiB, as ranks' regions of a local device do.
  const uint64_t block = std::max<uint32_t>(block_bytes, 1);
  const uint64_t align = block * ((4096 + block - 1) / block);
  return RankRegionOf("TARGET: " + lun, size_bytes, rank, ranks, align);
}

Result<RankRegion> IscsiTarget::Region() const {
  return LunRegion(url_.display(), session_->size_bytes(), session_->block_bytes(), options_.rank, options_.ranks);
}

std::optional<RankRegion> IscsiTarget::shared_region() const {
  if (options_.ranks <= 1 || !Connect().ok()) return std::nullopt;
  Result<RankRegion> region = Region();
  if (!region.ok()) return std::nullopt;
  return region.value();
}

std::optional<uint64_t> IscsiTarget::natural_size(uint32_t threads) const {
  if (!Connect().ok() || threads == 0) return std::nullopt;
  Result<RankRegion> region = Region();
  if (!region.ok()) return std::nullopt;
  uint64_t share = region.value().bytes / threads;
  return share - share % session_->block_bytes();
}

Status IscsiTarget::Check(const JobSpec& job) {
  if (job.engine != "auto" && job.engine != "iscsi")
    return Status::BadInput("--engine: iscsi:// targets always use the iscsi engine (libiscsi); drop --engine " +
                            job.engine);
  if (Status s = Connect(); !s.ok()) return s;
  if (DoesWrites(job.rw)) {
    bool named = false;
    for (const std::string& allowed : options_.allow_destructive) {
      Result<ProtocolUrl> a = ParseProtocolUrl(allowed);
      named = named || (a.ok() && a.value().display() == url_.display());
    }
    if (!named)
      return Status::BadInput("refusing to write to " + url_.display() +
                              ": writes destroy the LUN's data; read-only jobs only unless --allow-destructive " +
                              url_.display() + " names it");
  }
  const uint32_t block = session_->block_bytes();
  if (job.bs % block != 0)
    return Status::BadInput("--bs: " + std::to_string(job.bs) + " B is not a multiple of the LUN's " +
                            std::to_string(block) + " B block");
  if (job.size % block != 0)
    return Status::BadInput("--size: not a multiple of the LUN's " + std::to_string(block) + " B block");
  Result<RankRegion> region = Region();
  if (!region.ok()) return region.status();
  if (options_.ranks > 1 && job.size * job.threads > region.value().bytes)
    return Status::BadInput("--size: " + std::to_string(job.threads) + " x " + FormatSize(job.size) +
                            " is more than the " + FormatSize(region.value().bytes) + " each of " +
                            std::to_string(options_.ranks) + " ranks has of the " +
                            FormatSize(session_->size_bytes()) + " LUN");
  if (job.size * job.threads > session_->size_bytes())
    return Status::BadInput("--size: " + std::to_string(job.threads) + " x " + FormatSize(job.size) +
                            " goes past the end of the " + FormatSize(session_->size_bytes()) + " LUN");
  return Status::Ok();
}

std::optional<ProtocolFacts> IscsiTarget::protocol_facts() const {
  if (!session_) return std::nullopt;
  ProtocolFacts facts;
  facts.protocol = "iSCSI";  // RFC 7143 has one version; nothing to negotiate worth a label
  facts.server = url_.host.find(':') != std::string::npos ? "[" + url_.host + "]" : url_.host;
  if (url_.port) facts.server += ":" + std::to_string(url_.port);
  facts.share = iqn_ + "/" + std::to_string(lun_);
  facts.options.emplace_back("capacity", FormatSize(session_->size_bytes()));
  facts.options.emplace_back("block size", std::to_string(session_->block_bytes()) + " B");
  facts.options.emplace_back("authentication", options_.user.empty() ? "none" : "CHAP (user " + options_.user + ")");
  facts.options.emplace_back("client cache", "none (libiscsi)");
  return facts;
}

Result<std::vector<WorkerFile>> IscsiTarget::Open(const JobSpec& job) {
  if (Status s = Connect(); !s.ok()) return s;
  Result<RankRegion> region = Region();
  if (!region.ok()) return region.status();
  std::vector<WorkerFile> out;
  for (uint32_t t = 0; t < job.threads; ++t) {
    auto remote = std::make_shared<RemoteFile>();
    remote->server = url_.host;
    remote->port = url_.port;
    remote->share = iqn_;
    remote->path = std::to_string(lun_);
    remote->connect_timeout_ms = options_.connect_timeout_ms;
    remote->user = options_.user;
    remote->password = options_.password;
    // Each thread its own region of this rank's, like threads on a local device.
    out.push_back(WorkerFile{ScopedFd(), region.value().offset_bytes + t * job.size, job.size, std::move(remote)});
  }
  return out;
}

TargetCaps IscsiTarget::caps() const {
  return {.client_cache = false, .sweepable = false, .asynchronous = true, .shared_file = false};
}

Result<std::unique_ptr<Engine>> IscsiTarget::MakeEngine(const JobSpec&) {
  return std::unique_ptr<Engine>(new IscsiEngine());
}

}  // namespace nasperf
