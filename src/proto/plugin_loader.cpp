// The binary's protocol loader: a scheme's code is its plugin, nasperf-<scheme>.so, next
// to the binary (the build tree) or in ../lib/nasperf/ beside its bin/ (installed), found
// through /proc/self/exe and loaded on the scheme's first use.
#include <dlfcn.h>
#include <limits.h>
#include <unistd.h>

#include <mutex>
#include <string>

#include "proto/schemes.h"

namespace nasperf {
namespace {

std::string ExecutableDirectory() {
  char path[PATH_MAX];
  ssize_t n = ::readlink("/proc/self/exe", path, sizeof path - 1);
  if (n <= 0) return ".";
  std::string exe(path, static_cast<size_t>(n));
  size_t slash = exe.rfind('/');
  return slash == std::string::npos ? "." : exe.substr(0, slash);
}

// Where the plugin is: beside the binary when there, else where an install puts it.
std::string PluginPath(const Scheme& scheme) {
  const std::string dir = ExecutableDirectory();
  const std::string file = "nasperf-" + scheme.name + ".so";
  if (::access((dir + "/" + file).c_str(), F_OK) == 0) return dir + "/" + file;
  return dir + "/../lib/nasperf/" + file;
}

}  // namespace

Status LoadSchemeCode(const Scheme& scheme) {
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  const std::string path = PluginPath(scheme);
  // RTLD_NOW: a plugin that does not fit this binary fails here, in one line, not later
  // in the middle of a run.
  void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  // dlerror names the file it tried ("<path>: cannot open shared object file: ...").
  if (!handle) return Status::BadInput(scheme.protocol + " support is not installed: " + ::dlerror());
  const std::string entry = "nasperf_provide_" + scheme.name;
  auto provide = reinterpret_cast<void (*)()>(::dlsym(handle, entry.c_str()));
  if (!provide) return Status::BadInput(scheme.protocol + " support is not installed: " + path + ": no " + entry);
  provide();  // the handle stays open for the rest of the process
  return Status::Ok();
}

}  // namespace nasperf
