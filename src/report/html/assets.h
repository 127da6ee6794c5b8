// The HTML report's assets, embedded at build time: nasperf's own template, script and
// style (web/report/) and the charting library, ECharts, installed from npm with the
// versions pinned in web/package-lock.json (never committed to the repository).
#pragma once

#include <string_view>

namespace nasperf {

std::string_view ReportTemplateHtml();
std::string_view ReportJs();
std::string_view ReportCss();
std::string_view EchartsJs();
const char* EchartsVersion();

}  // namespace nasperf
