// CheckAppPath: the one check of a workspace-relative path every AppFileSystem makes.
#include "core/app_fs.h"

#include <cstddef>
#include <string_view>

namespace nasperf {

Status CheckAppPath(const std::string& rel) {
  auto refuse = [&](const std::string& why) {
    std::string shown = rel;
    for (char& c : shown)
      if (c == '\0') c = '?';
    return Status::BadInput("path '" + shown + "' inside the workspace " + why);
  };
  if (rel.empty()) return refuse("is empty");
  if (rel.find('\0') != std::string::npos) return refuse("contains a NUL byte");
  if (rel.front() == '/') return refuse("is absolute (it must be relative to the workspace)");
  std::string_view rest = rel;
  while (true) {
    size_t slash = rest.find('/');
    std::string_view part = rest.substr(0, slash);
    if (part.empty()) return refuse("has an empty component");
    if (part == ".") return refuse("has a '.' component");
    if (part == "..") return refuse("has a '..' component (it may not leave the workspace)");
    if (slash == std::string_view::npos) break;
    rest = rest.substr(slash + 1);
  }
  return Status::Ok();
}

Status WriteAll(AppFile& file, const void* data, size_t bytes) {
  const auto* at = static_cast<const std::byte*>(data);
  for (size_t done = 0; done < bytes;) {
    Result<size_t> n = file.Write(at + done, bytes - done);
    if (!n.ok()) return n.status();
    if (n.value() == 0) return Status::Io("write made no progress");
    done += n.value();
  }
  return Status::Ok();
}

}  // namespace nasperf
