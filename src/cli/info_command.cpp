// `nasperf info`: checks TARGET, gathers the inventory, prints it as text or JSON.
#include "cli/info_command.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>

#include "cli/commands.h"
#include "model/inventory_json.h"
#include "nasperf/status.h"
#include "nasperf/version.h"
#include "proto/url.h"
#include "sysinfo/inventory.h"
#include "report/inventory_text.h"

namespace nasperf {

int InfoCommand(const std::string& target_arg, bool json) {
  std::string target = target_arg.empty() ? "." : target_arg;
  bool is_url = target.find("://") != std::string::npos;
  if (is_url) {  // an unknown scheme (ftp://) or a malformed URL is bad input, as in `run`
    Result<ProtocolUrl> url = ParseProtocolUrl(target);
    if (!url.ok()) return ReportFailure(url.status());
  }
  if (target != "null:" && !is_url) {
    struct stat st;
    if (stat(target.c_str(), &st) != 0) {
      return ReportFailure(ErrnoStatus("TARGET:", target, errno, ErrorKind::kBadInput));
    }
  }
  Inventory inventory = GatherInventory(target);
  std::string out;
  if (json) {
    nlohmann::ordered_json document;
    document["nasperf"]["version"] = NASPERF_VERSION;
    document["inventory"] = InventoryToJson(inventory);
    out = document.dump(2) + "\n";
  } else {
    out = InventoryText(inventory);
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  std::fflush(stdout);
  return 0;
}

}  // namespace nasperf
