// ExpectFromMembers: each RAID level's read expectation from its members' rates.
#include "diagnose/raid_expectation.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

namespace nasperf::diagnose {
namespace {

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace

std::optional<RaidExpectation> ExpectFromMembers(const Evidence& e) {
  std::vector<double> rates;
  for (const MemberEvidence& m : e.members) {
    if (!m.seq.read_mb_per_s) return std::nullopt;
    rates.push_back(*m.seq.read_mb_per_s);
  }
  if (rates.empty()) return std::nullopt;
  RaidExpectation x;
  x.members = rates.size();
  x.median_member_mb_per_s = Median(rates);
  x.slowest_member_mb_per_s = *std::min_element(rates.begin(), rates.end());
  double sum = 0;
  for (double r : rates) sum += r;
  const double n = static_cast<double>(rates.size());
  const double median = x.median_member_mb_per_s;
  const std::string level = e.raid && e.raid->kind && e.raid->level ? *e.raid->level : "";
  const std::string slowest = fmt::format("{:.0f} MB/s", x.slowest_member_mb_per_s);
  if (level.empty()) {
    if (rates.size() != 1) return std::nullopt;
    x.level = "single disk";
    x.one_reader_mb_per_s = x.parallel_mb_per_s = sum;
    x.how = "the one member's rate";
  } else if (level == "raid0") {
    x.level = level;
    x.one_reader_mb_per_s = x.parallel_mb_per_s = sum;
    x.how = fmt::format("sum of {} members", rates.size());
    x.write_note = fmt::format("writes: up to the sum too, if each member writes as fast as it reads");
  } else if (level == "raid1" || level == "raid1c3" || level == "raid1c4") {
    x.level = level;
    x.one_reader_mb_per_s = median;
    x.parallel_mb_per_s = sum;
    x.how = fmt::format("one member's rate with one reader (up to the sum of {} with parallel readers)", rates.size());
    x.write_note = "writes: the slowest member, " + slowest + " read (member writes not measured)";
  } else if (level == "raid10") {
    x.level = level;
    x.one_reader_mb_per_s = median * n / 2;
    x.parallel_mb_per_s = sum;
    x.how = fmt::format("half of {} members striped", rates.size());
    x.write_note = "writes: half the members' sum";
  } else if ((level == "raid5" && rates.size() >= 3) || (level == "raid6" && rates.size() >= 4)) {
    const double data = n - (level == "raid5" ? 1 : 2);
    x.level = level;
    x.one_reader_mb_per_s = x.parallel_mb_per_s = median * data;
    x.how = fmt::format("{:g} data members of {} (parity excluded)", data, rates.size());
    x.write_note = "writes: below the reads (parity is computed and written)";
  } else if (level == "linear" || level == "single" || level == "dup") {
    x.level = level;
    x.one_reader_mb_per_s = median;
    x.parallel_mb_per_s = level == "dup" ? median : sum;
    x.how = "one member's rate (data not striped)";
    if (level == "dup") x.write_note = "writes: half one member's rate (each block twice)";
  } else {
    return std::nullopt;
  }
  return x;
}

}  // namespace nasperf::diagnose
