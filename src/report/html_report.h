// The self-contained HTML report: nasperf's template with its style, ECharts, its
// script and the report data filled in, so the file opens offline anywhere.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "nasperf/status.h"

namespace nasperf {

// `data` is the report data (report/report_data.h). Io when the embedded template lacks
// a placeholder (a build error, never the user's).
Result<std::string> RenderHtmlReport(const nlohmann::ordered_json& data);

// Code safe inside a <script> element: every "</" becomes "<\/", which JavaScript reads
// as the same two characters.
std::string EscapeForScript(std::string_view text);
// JSON safe inside a <script> element: every '<' becomes \u003c, so no text in the data
// ("</script>", "<!--") can end the element or change how the page parses it. In
// JSON '<' occurs only inside strings, where the escape means the same character.
std::string EscapeJsonForScript(std::string_view json);

}  // namespace nasperf
