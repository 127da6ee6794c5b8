// UnicodeBar.
#include "report/bars.h"

#include <algorithm>
#include <cmath>

namespace nasperf {

std::string UnicodeBar(double fraction, int width) {
  static const char* const kEighths[] = {"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"};
  if (width <= 0) return "";
  if (!(fraction > 0)) return std::string(width, ' ');  // also NaN
  fraction = std::min(fraction, 1.0);
  int eighths = std::max(1, static_cast<int>(std::lround(fraction * width * 8)));
  std::string out;
  for (int i = 0; i < eighths / 8; ++i) out += "█";
  out += kEighths[eighths % 8];
  int cells = eighths / 8 + (eighths % 8 ? 1 : 0);
  out.append(width - cells, ' ');
  return out;
}

}  // namespace nasperf
