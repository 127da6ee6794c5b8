// Horizontal bars from Unicode block characters, so that a terminal shows the shape of
// a comparison at a glance: eight steps per character cell.
#pragma once

#include <string>

namespace nasperf {

// `fraction` (clamped to 0..1) of `width` character cells, in UTF-8, padded with spaces
// to exactly `width` cells. A non-zero fraction always shows at least an eighth.
std::string UnicodeBar(double fraction, int width);

}  // namespace nasperf
