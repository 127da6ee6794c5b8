// FakeComm: one rank of `size` for the rank protocol's tests (cluster/). Barriers are met
// at once (and counted); a message the test queued in `inbox` arrives on the first poll of
// its tag; whatever the rank sends is kept in `sent`, by tag.
#pragma once

#include <cstdlib>
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "cluster/comm.h"

namespace nasperf::testing {

class FakeComm final : public Comm {
 public:
  FakeComm(int rank, int size) : rank_(rank), size_(size) {}
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  Status Barrier(const std::function<bool()>&) override {
    ++barriers;
    return Status::Ok();
  }
  void Send(int to, int tag, std::string bytes) override { sent[tag].push_back({to, std::move(bytes)}); }
  std::optional<RankMessage> Poll(int tag) override {
    std::deque<RankMessage>& q = inbox[tag];
    if (q.empty()) return std::nullopt;
    RankMessage m = std::move(q.front());
    q.pop_front();
    return m;
  }
  bool Flush(int64_t) override { return true; }
  [[noreturn]] void Abort(int) override { std::abort(); }

  int barriers = 0;
  std::map<int, std::deque<RankMessage>> inbox;
  std::map<int, std::vector<RankMessage>> sent;  // RankMessage.from holds the receiver here

 private:
  int rank_, size_;
};

}  // namespace nasperf::testing
