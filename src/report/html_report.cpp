// RenderHtmlReport.
#include "report/html_report.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "report/html/assets.h"

namespace nasperf {

std::string EscapeForScript(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 64);
  for (size_t i = 0; i < text.size(); ++i) {
    out += text[i];
    if (text[i] == '<' && i + 1 < text.size() && text[i + 1] == '/') out += '\\';
  }
  return out;
}

std::string EscapeJsonForScript(std::string_view json) {
  std::string out;
  out.reserve(json.size() + json.size() / 64);
  for (char c : json) {
    if (c == '<') out += "\\u003c";
    else out += c;
  }
  return out;
}

Result<std::string> RenderHtmlReport(const nlohmann::ordered_json& data) {
  std::string html(ReportTemplateHtml());
  const std::pair<const char*, std::string> fills[] = {
      {"/*@NASPERF_CSS@*/", std::string(ReportCss())},
      {"/*@NASPERF_ECHARTS@*/", EscapeForScript(EchartsJs())},
      {"/*@NASPERF_REPORT_JS@*/", EscapeForScript(ReportJs())},
      {"/*@NASPERF_DATA@*/", EscapeJsonForScript(data.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace))},
  };
  // Each placeholder is found before anything is filled in, so no filled-in text (the
  // data may contain anything) can be mistaken for a later placeholder.
  std::vector<std::pair<size_t, const std::pair<const char*, std::string>*>> at;
  for (const auto& fill : fills) {
    size_t pos = html.find(fill.first);
    if (pos == std::string::npos)
      return Status::Io(std::string("report template: placeholder ") + fill.first + " missing (a build problem)");
    at.emplace_back(pos, &fill);
  }
  std::sort(at.begin(), at.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (const auto& [pos, fill] : at) html.replace(pos, std::strlen(fill->first), fill->second);
  return html;
}

}  // namespace nasperf
