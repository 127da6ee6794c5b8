// ProtocolOptions -> TargetOptions: credentials and the connect timeout.
#include "cli/protocol_options.h"

#include <sys/stat.h>

#include <cstdlib>

#include "base/units.h"
#include "base/secret_file.h"
#include "proto/schemes.h"
#include "proto/url.h"

namespace nasperf {

void AddProtocolOptions(CLI::App& app, ProtocolOptions& options) {
  app.add_option("--user", options.user,
                 "smb://: the user to log in as (else the URL's, else guest); iscsi://: the CHAP user");
  app.add_option("--password-file", options.password_file,
                 "smb://, iscsi:// (CHAP): a file (mode 0600) holding the password (else env NASPERF_PASSWORD)");
  app.add_option("--connect-timeout", options.connect_timeout,
                 "protocol targets: the longest wait to connect and for any one reply (default 10s)");
}

Result<TargetOptions> BuildTargetOptions(const ProtocolOptions& options, const std::string& target,
                                         std::vector<std::string> allow_destructive) {
  TargetOptions out;
  out.allow_destructive = std::move(allow_destructive);
  Result<double> timeout = ParseDuration(options.connect_timeout);
  if (!timeout.ok()) return Status::BadInput("--connect-timeout: " + timeout.status().message());
  if (timeout.value() < 0.1 || timeout.value() > 600)
    return Status::BadInput("--connect-timeout: " + options.connect_timeout + " is outside 100ms..10m");
  out.connect_timeout_ms = static_cast<uint32_t>(timeout.value() * 1000 + 0.5);

  // --allow-destructive names the block device (or iscsi:// LUN) being written; beside a
  // directory or file target it allows nothing, and accepting it silently would suggest
  // it did.
  if (!out.allow_destructive.empty() && target.find("://") == std::string::npos && target != "null:") {
    struct stat st {};
    const std::string& path = target.empty() ? std::string(".") : target;
    if (::stat(path.c_str(), &st) == 0 && !S_ISBLK(st.st_mode))
      return Status::BadInput("--allow-destructive: names a block device to write, but TARGET " + path + " is " +
                              (S_ISDIR(st.st_mode) ? "a directory" : "not a block device") +
                              "; drop --allow-destructive");
  }
  // SMB logs in as a user; iSCSI may ask for CHAP; libnfs's NFSv3 has AUTH_SYS only.
  const Scheme* scheme = SchemeOfUrl(target);
  const bool takes_login = scheme && scheme->takes_login;
  auto with_login = [](const Scheme& s) { return s.takes_login; };
  if (!takes_login && !options.user.empty())
    return Status::BadInput("--user: only " + ListSchemes(with_login, "and") + " targets take a user (" + target +
                            " does not)");
  if (!takes_login && !options.password_file.empty())
    return Status::BadInput("--password-file: only " + ListSchemes(with_login, "and") + " targets take a password (" +
                            target + " does not)");
  if (!takes_login) return out;
  out.user = options.user;
  if (!options.password_file.empty()) {
    Result<std::string> password = ReadSecretFile(options.password_file, "--password-file");
    if (!password.ok()) return password.status();
    out.password = std::move(password).value();
  } else if (const char* env = std::getenv("NASPERF_PASSWORD")) {
    out.password = env;
  }
  return out;
}

std::string IoModeText(const std::string& target, bool direct) {
  const Scheme* scheme = SchemeOfUrl(target);
  if (!scheme) return direct ? "direct (O_DIRECT) I/O" : "buffered I/O";
  return "I/O straight to the server (" + scheme->library + " keeps no client cache)";
}

}  // namespace nasperf
