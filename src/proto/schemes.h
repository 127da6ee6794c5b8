// The scheme table: every protocol scheme nasperf knows (smb://, nfs://, iscsi:// ...),
// what it is called and what it can do, and — once its code is in this process — how
// its targets and engines are made. Every place that would otherwise switch on a scheme
// reads this table; a new protocol adds one row (schemes.cpp) and its own folder.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "nasperf/engine.h"
#include "nasperf/status.h"
#include "core/target.h"
#include "proto/url.h"

namespace nasperf {

// A protocol's code: what its folder registers (built in, or from its plugin).
struct SchemeCode {
  Result<std::unique_ptr<Target>> (*make_target)(const ProtocolUrl& url, const TargetOptions& options) = nullptr;
  Result<std::unique_ptr<Engine>> (*make_engine)() = nullptr;
  // The protocol's hidden command (Scheme::hidden_command), or nullptr; returns the exit status.
  int (*run_hidden_command)() = nullptr;
  // File-level access for application workloads (core/app_fs.h): a fresh workspace in the
  // URL's directory. nullptr: this protocol serves no files (a LUN).
  Result<std::unique_ptr<AppFileSystem>> (*make_app_fs)(const ProtocolUrl& url, const TargetOptions& options) = nullptr;
};

// One row: plain data, known whether or not the protocol was built.
struct Scheme {
  std::string name;      // the URL scheme, and the name of its engine: "smb"
  std::string protocol;  // what output calls it (ProtocolFacts::protocol): "SMB"
  // How a label writes the negotiated version: "SMB 3.1.1" (" "), "NFSv3" ("v").
  std::string version_joiner = " ";
  std::string noun;      // what the server serves: "share", "export", "LUN"
  std::string library;   // the client library that does the I/O: "libsmbclient"
  std::string url_form;  // "smb://[DOMAIN;]USER@HOST[:PORT]/SHARE/DIR", for help text
  bool takes_login = false;  // --user / --password-file mean something
  bool sweepable = false;    // a sweep can work in it (a file system, not a LUN)
  // A command only nasperf itself runs (the SMB helper process), hidden from --help; "".
  std::string hidden_command;
  // false: this nasperf was built without it (NASPERF_WITH_<NAME>=OFF).
  bool built = true;
};

// The table, in the order messages list the schemes.
const std::vector<Scheme>& Schemes();
// The row for scheme `name` ("smb"), or nullptr.
const Scheme* FindScheme(std::string_view name);
// The row whose "name://" starts `text`, or nullptr.
const Scheme* SchemeOfUrl(std::string_view text);
// The row whose protocol is `protocol` ("NFS"), or nullptr.
const Scheme* SchemeOfProtocol(std::string_view protocol);
// The schemes with `pick`, as "smb:// and iscsi://" (or "a, b or c" with `last` "or").
std::string ListSchemes(bool (*pick)(const Scheme&), const char* last);

// Adds a row (a protocol outside the built-in list: a test's fake). A name already in the
// table is refused.
Status RegisterScheme(Scheme scheme);
// Removes a row RegisterScheme added, and its code (a test's fake, when the test ends).
void RemoveScheme(std::string_view name);
// Makes `name`'s code available in this process: called by the protocol's folder (its
// plugin's entry point, or the built-in list of a statically linked test binary).
void ProvideSchemeCode(std::string_view name, const SchemeCode& code);

// The code of `scheme`: provided already, else its plugin loaded now. BadInput when this
// nasperf was built without it or the plugin is missing: one line naming which.
Result<const SchemeCode*> LoadScheme(const Scheme& scheme);

}  // namespace nasperf
