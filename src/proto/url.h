// Protocol target URLs: smb://[DOMAIN;]USER@HOST[:PORT]/SHARE/DIR, nfs://HOST[:PORT]/EXPORT/DIR,
// iscsi://HOST[:PORT]/IQN/LUN. Parsing only; each protocol decides what the path means.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "nasperf/status.h"

namespace nasperf {

struct ProtocolUrl {
  std::string scheme;  // a name in the scheme table (proto/schemes.h): "smb", "nfs", "iscsi"
  std::string domain, user;
  std::string host;    // without brackets for IPv6
  uint16_t port = 0;   // 0: not given
  std::vector<std::string> path;  // the non-empty components after the host
  // The URL as shown in output and stored runs: never a password.
  std::string display() const;
};

// Whether `text` starts with a scheme of the scheme table ("smb://", ...), built or not.
bool IsProtocolUrl(const std::string& text);

// Parses; a password in the URL ("user:secret@") is refused, since URLs end up in
// shell history, output and the results database: credentials come from --password-file
// or NASPERF_PASSWORD. Errors are BadInput, one line, without the URL's secrets.
Result<ProtocolUrl> ParseProtocolUrl(const std::string& text);

}  // namespace nasperf
