// Internals of the iozone importer: the report's preamble and its measured cells, read
// from either the -a table or the -R Excel section.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "import/import_util.h"

namespace nasperf::import_detail {

enum class IozoneUnit { kKBps, kOpsPerSec, kUsPerOp };  // default, -O, -N

struct IozoneHeader {
  IozoneUnit unit = IozoneUnit::kKBps;
  bool unit_known = false;  // an "Output is in ..." line was found
  bool direct = false;      // "O_DIRECT feature enabled" (-I)
  bool fsync = false;       // "Include fsync in write timing" (-e)
  std::string command_line, began, version;
};

// One measured cell: a test at one file size and record size.
struct IozonePoint {
  std::string test;  // snake name: write, rewrite, read, reread, random_read, ...
  uint64_t file_kb = 0;
  uint64_t rec_kb = 0;
  double value = 0;  // in the report's unit
};

// The -a table. No points and Ok when the file has no table; BadInput for a broken one.
Status ParseIozoneTable(const SourceText& src, std::vector<IozonePoint>* points, std::vector<std::string>* notes);
// The -R "Excel output" blocks. No points and Ok when there are none.
Status ParseIozoneExcel(const SourceText& src, std::vector<IozonePoint>* points, std::vector<std::string>* notes);

}  // namespace nasperf::import_detail
