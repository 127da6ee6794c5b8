// Protocol target URL parsing.
#include "proto/url.h"

#include <cctype>

#include "proto/schemes.h"

namespace nasperf {
namespace {

bool ValidHostChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_';
}

// "domain;user@" off the front of `authority`, into `url`.
Status TakeUserInfo(std::string* authority, ProtocolUrl* url) {
  if (size_t at = authority->rfind('@'); at != std::string::npos) {
    std::string userinfo = authority->substr(0, at);
    *authority = authority->substr(at + 1);
    if (userinfo.find(':') != std::string::npos)
      return Status::BadInput("TARGET: a password in the URL is refused (it would be shown and stored); "
                              "use --password-file FILE or NASPERF_PASSWORD");
    if (size_t semi = userinfo.find(';'); semi != std::string::npos) {
      url->domain = userinfo.substr(0, semi);
      userinfo = userinfo.substr(semi + 1);
    }
    url->user = userinfo;
    if (url->user.empty()) return Status::BadInput("TARGET: empty user name before '@' in " + url->scheme + "://");
  }
  return Status::Ok();
}

// The host ("[v6]" or a name) into `url`, and the text after its ':' into `port_text`.
Status TakeHost(const std::string& authority, ProtocolUrl* url, std::string* port_text) {
  if (!authority.empty() && authority[0] == '[') {
    size_t close = authority.find(']');
    if (close == std::string::npos) return Status::BadInput("TARGET: unclosed '[' in the host of " + url->scheme + "://");
    url->host = authority.substr(1, close - 1);
    std::string after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after[0] != ':') return Status::BadInput("TARGET: unexpected '" + after + "' after the host");
      *port_text = after.substr(1);
    }
  } else {
    size_t colon = authority.find(':');
    url->host = authority.substr(0, colon);
    if (colon != std::string::npos) *port_text = authority.substr(colon + 1);
    for (char c : url->host)
      if (!ValidHostChar(c)) return Status::BadInput("TARGET: '" + url->host + "' is not a host name or address");
  }
  if (url->host.empty()) return Status::BadInput("TARGET: no host in " + url->scheme + "://");
  return Status::Ok();
}

// A port given (even an empty one after "host:") must be 1..65535; "[v6]" alone has none.
Status TakePort(const std::string& authority, const std::string& port_text, ProtocolUrl* url) {
  if (!port_text.empty() || authority.find(':') != std::string::npos) {
    if (url->host.find(':') == std::string::npos || !port_text.empty()) {
      bool digits = !port_text.empty() && port_text.size() <= 5;
      for (char c : port_text) digits = digits && std::isdigit(static_cast<unsigned char>(c));
      unsigned long port = digits ? std::stoul(port_text) : 0;
      if (!digits || port == 0 || port > 65535)
        return Status::BadInput("TARGET: port '" + port_text + "' is not a number from 1 to 65535");
      url->port = static_cast<uint16_t>(port);
    }
  }
  return Status::Ok();
}

// The path's components, without empty ones and "."; ".." is refused.
Status TakePath(const std::string& path, ProtocolUrl* url) {
  for (size_t start = 0; start <= path.size();) {
    size_t end = path.find('/', start);
    if (end == std::string::npos) end = path.size();
    std::string part = path.substr(start, end - start);
    if (part == "..") return Status::BadInput("TARGET: '..' in the path of " + url->display());
    if (!part.empty() && part != ".") url->path.push_back(part);
    start = end + 1;
  }
  return Status::Ok();
}

}  // namespace

std::string ProtocolUrl::display() const {
  std::string out = scheme + "://";
  if (!user.empty()) out += (domain.empty() ? "" : domain + ";") + user + "@";
  out += host.find(':') != std::string::npos ? "[" + host + "]" : host;
  if (port) out += ":" + std::to_string(port);
  for (const std::string& p : path) out += "/" + p;
  return out;
}

bool IsProtocolUrl(const std::string& text) { return SchemeOfUrl(text) != nullptr; }

Result<ProtocolUrl> ParseProtocolUrl(const std::string& text) {
  ProtocolUrl url;
  size_t sep = text.find("://");
  if (sep == std::string::npos || !IsProtocolUrl(text))
    return Status::BadInput("TARGET: '" + text.substr(0, text.find(':')) + "' is not " + ListSchemes(nullptr, "or"));
  url.scheme = text.substr(0, sep);
  std::string rest = text.substr(sep + 3);
  size_t slash = rest.find('/');
  std::string authority = rest.substr(0, slash);
  std::string path = slash == std::string::npos ? "" : rest.substr(slash + 1);
  if (size_t q = path.find_first_of("?#"); q != std::string::npos)
    return Status::BadInput("TARGET: " + url.scheme + ":// URLs take no ?query or #fragment");
  std::string port_text;
  if (Status s = TakeUserInfo(&authority, &url); !s.ok()) return s;
  if (Status s = TakeHost(authority, &url, &port_text); !s.ok()) return s;
  if (Status s = TakePort(authority, port_text, &url); !s.ok()) return s;
  if (Status s = TakePath(path, &url); !s.ok()) return s;
  return url;
}

}  // namespace nasperf
