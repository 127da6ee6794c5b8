// The scheme table's rows, and the one #if about which protocols this nasperf was built with.
#include "proto/schemes.h"

#include "contract/protocol_label.h"

#include <map>
#include <mutex>

namespace nasperf {

// Defined by the build's protocol loader: src/proto/plugin_loader.cpp (the binary: dlopen
// of the protocol's plugin) or src/proto/builtin_schemes.cpp (test binaries, linked with
// every protocol). Provides `scheme`'s code (ProvideSchemeCode) or says why it cannot.
Status LoadSchemeCode(const Scheme& scheme);

namespace {

#ifndef NASPERF_WITH_SMB
#define NASPERF_WITH_SMB 0
#endif
#ifndef NASPERF_WITH_NFS
#define NASPERF_WITH_NFS 0
#endif
#ifndef NASPERF_WITH_ISCSI
#define NASPERF_WITH_ISCSI 0
#endif

std::vector<Scheme> BuiltInRows() {
  std::vector<Scheme> rows(3);
  Scheme& smb = rows[0];
  smb.name = "smb";
  smb.protocol = "SMB";
  smb.noun = "share";
  smb.library = "libsmbclient";
  smb.url_form = "smb://[DOMAIN;]USER@HOST[:PORT]/SHARE/DIR";
  smb.takes_login = true;
  smb.sweepable = true;
  smb.hidden_command = "smb-io-helper";
  smb.built = NASPERF_WITH_SMB;
  Scheme& nfs = rows[1];
  nfs.name = "nfs";
  nfs.protocol = "NFS";
  nfs.version_joiner = "v";
  nfs.noun = "export";
  nfs.library = "libnfs";
  nfs.url_form = "nfs://HOST[:PORT]/EXPORT/DIR";
  nfs.sweepable = true;
  nfs.built = NASPERF_WITH_NFS;
  Scheme& iscsi = rows[2];
  iscsi.name = "iscsi";
  iscsi.protocol = "iSCSI";
  iscsi.noun = "LUN";
  iscsi.library = "libiscsi";
  iscsi.url_form = "iscsi://HOST[:PORT]/IQN/LUN";
  iscsi.takes_login = true;  // CHAP
  iscsi.built = NASPERF_WITH_ISCSI;
  return rows;
}

// Rows are only ever added, before or between jobs; lookups hand out stable pointers
// because the vector is reserved for far more rows than any build registers.
struct Table {
  std::mutex mutex;
  std::vector<Scheme> rows;
  std::map<std::string, SchemeCode, std::less<>> code;
  Table() : rows(BuiltInRows()) { rows.reserve(64); }
};

Table& TheTable() {
  static Table table;
  return table;
}

void RegisterJoiner(const Scheme& s) {
  if (s.version_joiner != " ") SetProtocolVersionJoiner(s.protocol, s.version_joiner);
}

// Labels ("NFSv3") are right from the start, whichever code asks first.
const bool kJoinersRegistered = [] {
  for (const Scheme& s : TheTable().rows) RegisterJoiner(s);
  return true;
}();

}  // namespace

const std::vector<Scheme>& Schemes() { return TheTable().rows; }

const Scheme* FindScheme(std::string_view name) {
  for (const Scheme& s : Schemes())
    if (s.name == name) return &s;
  return nullptr;
}

const Scheme* SchemeOfUrl(std::string_view text) {
  for (const Scheme& s : Schemes())
    if (text.size() > s.name.size() + 3 - 1 && text.substr(0, s.name.size()) == s.name &&
        text.substr(s.name.size(), 3) == "://")
      return &s;
  return nullptr;
}

const Scheme* SchemeOfProtocol(std::string_view protocol) {
  for (const Scheme& s : Schemes())
    if (s.protocol == protocol) return &s;
  return nullptr;
}

std::string ListSchemes(bool (*pick)(const Scheme&), const char* last) {
  std::vector<std::string> names;
  for (const Scheme& s : Schemes())
    if (!pick || pick(s)) names.push_back(s.name + "://");
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += i + 1 == names.size() ? std::string(" ") + last + " " : ", ";
    out += names[i];
  }
  return out;
}

Status RegisterScheme(Scheme scheme) {
  Table& table = TheTable();
  std::lock_guard<std::mutex> lock(table.mutex);
  if (scheme.name.empty() || FindScheme(scheme.name))
    return Status::BadInput("scheme '" + scheme.name + "' is empty or already registered");
  if (table.rows.size() == table.rows.capacity()) return Status::BadInput("scheme table full");
  RegisterJoiner(scheme);
  table.rows.push_back(std::move(scheme));
  return Status::Ok();
}

void RemoveScheme(std::string_view name) {
  Table& table = TheTable();
  std::lock_guard<std::mutex> lock(table.mutex);
  std::erase_if(table.rows, [&](const Scheme& s) { return s.name == name; });
  if (auto it = table.code.find(name); it != table.code.end()) table.code.erase(it);
}

void ProvideSchemeCode(std::string_view name, const SchemeCode& code) {
  Table& table = TheTable();
  std::lock_guard<std::mutex> lock(table.mutex);
  table.code.insert_or_assign(std::string(name), code);
}

Result<const SchemeCode*> LoadScheme(const Scheme& scheme) {
  Table& table = TheTable();
  auto provided = [&]() -> const SchemeCode* {
    std::lock_guard<std::mutex> lock(table.mutex);
    auto it = table.code.find(scheme.name);
    return it == table.code.end() ? nullptr : &it->second;
  };
  if (const SchemeCode* code = provided()) return code;
  if (!scheme.built)
    return Status::BadInput(scheme.name + "://: this nasperf was built without " + scheme.protocol);
  if (Status s = LoadSchemeCode(scheme); !s.ok()) return s;
  if (const SchemeCode* code = provided()) return code;
  return Status::BadInput(scheme.name + "://: " + scheme.protocol + " support did not register itself");
}

}  // namespace nasperf
