// Finds a row of a comparison by its label, as the compare tests read them.
#pragma once

#include <string>
#include <vector>

#include "report/compare.h"

namespace nasperf::testing {

// The row labelled `label`, or nullptr when the comparison has none.
inline const CompareRow* FindRow(const std::vector<CompareRow>& rows, const std::string& label) {
  for (const CompareRow& row : rows)
    if (row.label == label) return &row;
  return nullptr;
}

inline const CompareRow* FindRow(const Comparison& cmp, const std::string& label) { return FindRow(cmp.rows, label); }

}  // namespace nasperf::testing
