// Building the block-size plan of a job and each direction's draw table.
#include "workload/block_size_mix.h"

#include <algorithm>

#include "base/units.h"

namespace nasperf {

uint64_t BlockSizePlan::largest() const { return sizes.empty() ? 0 : *std::max_element(sizes.begin(), sizes.end()); }
uint64_t BlockSizePlan::smallest() const { return sizes.empty() ? 0 : *std::min_element(sizes.begin(), sizes.end()); }

size_t BlockSizePlan::IndexOf(uint64_t bytes) const {
  return static_cast<size_t>(std::find(sizes.begin(), sizes.end(), bytes) - sizes.begin());
}

BlockSizePlan PlanBlockSizes(const JobSpec& job) {
  BlockSizePlan plan;
  const std::vector<BlockSizeShare> all =
      job.bs_split.empty() ? std::vector<BlockSizeShare>{{job.bs, 100}} : job.bs_split;
  plan.read = job.bs_read.empty() ? all : job.bs_read;
  plan.write = job.bs_write.empty() ? all : job.bs_write;
  auto add = [&plan](const std::vector<BlockSizeShare>& mix) {
    for (const BlockSizeShare& share : mix)
      if (plan.IndexOf(share.bytes) == plan.sizes.size()) plan.sizes.push_back(share.bytes);
  };
  // The order a reader of the mix expects: the shared mix first, then each direction's own.
  if (!job.bs_split.empty()) add(job.bs_split);
  if (DoesReads(job.rw)) add(plan.read);
  if (DoesWrites(job.rw)) add(plan.write);
  return plan;
}

void SettleBlockSizes(JobSpec& job) {
  if (!HasBlockSizeMix(job)) return;
  const bool reads_plain = DoesReads(job.rw) && job.bs_read.empty();
  const bool writes_plain = DoesWrites(job.rw) && job.bs_write.empty();
  if (job.bs_split.empty() && (reads_plain || writes_plain)) job.bs_split = {{job.bs, 100}};
  job.bs = LargestBlockBytes(job);
}

uint64_t LargestBlockBytes(const JobSpec& job) { return PlanBlockSizes(job).largest(); }

uint64_t AlignmentBytes(const JobSpec& job) { return job.align ? job.align : PlanBlockSizes(job).smallest(); }

Result<std::vector<BlockSizeShare>> ParseBlockSizeMix(const std::string& text, const std::string& option) {
  std::vector<BlockSizeShare> shares;
  if (text.find('/') == std::string::npos && text.find(':') == std::string::npos) return shares;  // a plain size
  const std::string quoted = option + ": '" + text.substr(0, 80) + "'";
  size_t begin = 0;
  while (begin <= text.size()) {
    size_t end = text.find(':', begin);
    if (end == std::string::npos) end = text.size();
    const std::string entry = text.substr(begin, end - begin);
    const size_t slash = entry.find('/');
    if (slash == std::string::npos || slash == 0 || slash + 1 == entry.size())
      return Status::BadInput(quoted + ": each entry of a mix is SIZE/PERCENT, as in 4k/30:64k/20:1m/50");
    Result<uint64_t> bytes = ParseSize(entry.substr(0, slash));
    if (!bytes.ok()) return Status::BadInput(quoted + ": " + bytes.status().message());
    const std::string weight = entry.substr(slash + 1);
    if (weight.size() > 3 || weight.find_first_not_of("0123456789") != std::string::npos)
      return Status::BadInput(quoted + ": the weight '" + weight + "' is not a whole percentage 0..100");
    if (shares.size() == kMaxBlockSizeShares)
      return Status::BadInput(quoted + ": more than " + std::to_string(kMaxBlockSizeShares) + " sizes in one mix");
    shares.push_back({bytes.value(), static_cast<uint32_t>(std::stoul(weight))});
    begin = end + 1;
  }
  return shares;
}

std::string BlockSizeMixText(std::span<const BlockSizeShare> shares) {
  std::string out;
  for (const BlockSizeShare& share : shares) {
    if (!out.empty()) out += ':';
    const uint64_t b = share.bytes;
    if (b && b % (1ull << 30) == 0)
      out += std::to_string(b >> 30) + "g";
    else if (b && b % (1ull << 20) == 0)
      out += std::to_string(b >> 20) + "m";
    else if (b && b % (1ull << 10) == 0)
      out += std::to_string(b >> 10) + "k";
    else
      out += std::to_string(b);
    out += "/" + std::to_string(share.weight_pct);
  }
  return out;
}

Status CheckBlockSizeMix(std::span<const BlockSizeShare> shares, const std::string& option) {
  if (shares.size() > kMaxBlockSizeShares)
    return Status::BadInput(option + ": more than " + std::to_string(kMaxBlockSizeShares) + " sizes in one mix");
  uint64_t sum = 0;
  for (size_t i = 0; i < shares.size(); ++i) {
    const BlockSizeShare& share = shares[i];
    if (share.bytes == 0) return Status::BadInput(option + ": a block size of a mix must be at least 1 byte");
    if (share.bytes > (1ull << 30))
      return Status::BadInput(option + ": " + FormatSize(share.bytes) + " is larger than the 1 GiB limit");
    if (share.weight_pct == 0 || share.weight_pct > 100)
      return Status::BadInput(option + ": the weight of " + FormatSize(share.bytes) +
                              " must be 1..100 % (a size that never runs has no place in the mix)");
    for (size_t j = 0; j < i; ++j)
      if (shares[j].bytes == share.bytes)
        return Status::BadInput(option + ": " + FormatSize(share.bytes) +
                                " is given twice; give it once, with the sum of its weights");
    sum += share.weight_pct;
  }
  if (!shares.empty() && sum != 100)
    return Status::BadInput(option + ": the weights of " + BlockSizeMixText(shares) + " sum to " + std::to_string(sum) +
                            " %, not 100 %");
  return Status::Ok();
}

BlockSizeMix::BlockSizeMix(std::span<const BlockSizeShare> shares, const BlockSizePlan& plan) {
  size_t at = 0;
  for (const BlockSizeShare& share : shares) {
    const Pick pick{static_cast<uint32_t>(share.bytes), static_cast<uint8_t>(plan.IndexOf(share.bytes))};
    for (uint32_t i = 0; i < share.weight_pct && at < by_pct_.size(); ++i) by_pct_[at++] = pick;
  }
  // Weights are validated to sum to 100; should they not, the last size takes the rest
  // rather than leaving a zero-length pick in the table.
  while (at > 0 && at < by_pct_.size()) {
    by_pct_[at] = by_pct_[at - 1];
    ++at;
  }
}

}  // namespace nasperf
