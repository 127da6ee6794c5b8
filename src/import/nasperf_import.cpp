// ImportNasperfDocument: a nasperf result document read with the JSON code that wrote it.
#include "import/nasperf_import.h"

#include <nlohmann/json.hpp>
#include <string_view>

#include "import/bounded_read.h"
#include "import/run_checks.h"
#include "base/bounded_json.h"
#include "model/run_json.h"

namespace nasperf {

// nasperf's own result document (`--json` output, `results export --json`) holds
// RunResults already: read here with the JSON code that wrote it; every other tool's file
// goes through import/. With --format auto, a file is nasperf's when it is a JSON object
// with a "nasperf" member; nullopt: not nasperf's, let import/ say what it is.
std::optional<Result<std::vector<RunResult>>> ImportNasperfDocument(const std::string& path, bool named) {
  Result<std::string> text = ReadBoundedFile(path);  // only a regular file, at most 256 MiB
  if (!text.ok()) {
    if (!named) return std::nullopt;  // import/ words the error
    return Result<std::vector<RunResult>>(Status::BadInput(path + ": " + text.status().message()));
  }
  const size_t first = text.value().find_first_not_of(" \t\r\n");
  if (!named && (first == std::string::npos || text.value()[first] != '{')) return std::nullopt;  // not JSON
  // Before parsing: a value nested 100,000 deep parses, then overflows the stack when
  // copied or dumped.
  if (size_t deep = FindJsonTooDeep(text.value(), kDefaultMaxJsonDepth); deep != std::string_view::npos)
    return Result<std::vector<RunResult>>(Status::BadInput(path + ": JSON nested more than " +
                                                           std::to_string(kDefaultMaxJsonDepth) +
                                                           " levels deep (at byte " + std::to_string(deep) + ")"));
  nlohmann::ordered_json doc = nlohmann::ordered_json::parse(text.value(), nullptr, false);
  const bool ours = !doc.is_discarded() && doc.is_object() && doc.contains("nasperf");
  if (!ours && !named) return std::nullopt;
  if (doc.is_discarded())
    return Result<std::vector<RunResult>>(Status::BadInput(path + ": not JSON (expected nasperf's result document)"));
  Result<std::vector<RunResult>> runs = DocumentFromJson(doc);
  if (!runs.ok()) return Result<std::vector<RunResult>>(Status::BadInput(path + ": " + runs.status().message()));
  for (size_t i = 0; i < runs.value().size(); ++i)  // what `run` would refuse is not stored either
    if (Status s = CheckImportedRun(runs.value()[i]); !s.ok())
      return Result<std::vector<RunResult>>(
          Status::BadInput(path + ": runs[" + std::to_string(i) + "]: " + s.message()));
  for (RunResult& r : runs.value()) {
    r.id = 0;  // a new id in this database
    r.invocation_id = 0;
  }
  return runs;
}

}  // namespace nasperf
