// ParseDiskSpec: the disk spec file (TOML, read with toml++) and the interface table.
#include "report/disk_spec.h"

#include <fmt/format.h>

#include <cmath>

// toml++ header-only and without exceptions in this one file: parse errors come back as
// values (nasperf catches exceptions only in main), and the header-only build keeps this
// file's toml++ apart from the shared library's ABI.
#define TOML_HEADER_ONLY 1
#define TOML_EXCEPTIONS 0
// toml++ 3.3.0 (Debian 12) asserts a precondition on malformed table headers ("[\\a]",
// "[[[1]]]") that its parser then reports as a parse error anyway (marzer/tomlplusplus#301,
// found here by the fuzz target): with assertions on it aborts, and with NDEBUG under clang
// the assertion becomes __builtin_assume, undefined behaviour. So its assertions are no-ops
// in every build (TOML_ASSERT_ASSUME follows TOML_ASSERT only without NDEBUG).
#pragma push_macro("NDEBUG")
#undef NDEBUG
#define TOML_ASSERT(expr) static_cast<void>(0)
#include <toml++/toml.h>
#pragma pop_macro("NDEBUG")

#include "base/ascii_text.h"

namespace nasperf {

namespace {

struct FixedInterface {
  const char* name;
  const char* label;
  double mb_per_s;
  double line_mb_per_s;
};

constexpr FixedInterface kFixed[] = {
    {"sata-1.5g", "SATA 1.5 Gbit/s", 150, 187.5},  // 8b/10b: 1.5 Gbit/s carries 150 MB/s
    {"sata-3g", "SATA 3 Gbit/s", 300, 375},
    {"sata-6g", "SATA 6 Gbit/s", 600, 750},
    {"usb2", "USB 2.0", 40, 60},                 // 480 Mbit/s line; bulk transfers ~35-40 MB/s
    {"usb3.0", "USB 3.0 (5 Gbit/s)", 500, 625},  // 8b/10b
    {"usb3.2-gen1", "USB 3.0 (5 Gbit/s)", 500, 625},
    {"usb3.1", "USB 3.1 (10 Gbit/s)", 1212, 1250},  // 128b/132b
    {"usb3.2-gen2", "USB 3.1 (10 Gbit/s)", 1212, 1250},
};

// MB/s one PCIe lane carries, by generation: 2.5 and 5 GT/s with 8b/10b, then 128b/130b.
constexpr double kPcieLaneMbPerS[] = {250, 500, 984.6, 1969.2, 3938.5};
constexpr double kPcieLaneLineMbPerS[] = {312.5, 625, 1000, 2000, 4000};

std::optional<InterfaceCeiling> FindPcie(std::string_view name) {
  // pcie<gen>x<lanes>
  if (name.size() < 7 || name.substr(0, 4) != "pcie" || name[5] != 'x') return std::nullopt;
  int gen = name[4] - '0';
  if (gen < 1 || gen > 5) return std::nullopt;
  std::string_view lanes_text = name.substr(6);
  int lanes = 0;
  for (int candidate : {1, 2, 4, 8, 16})
    if (lanes_text == std::to_string(candidate)) lanes = candidate;
  if (lanes == 0) return std::nullopt;
  return InterfaceCeiling{std::string(name), fmt::format("PCIe {}.0 x{}", gen, lanes), kPcieLaneMbPerS[gen - 1] * lanes,
                          kPcieLaneLineMbPerS[gen - 1] * lanes};
}

// A name or value from the file as it may appear in the one-line message: control
// characters (a quoted key may hold a newline) and non-ASCII bytes as \xNN.
std::string Printable(std::string_view text) {
  std::string out;
  for (unsigned char c : text) {
    if (c < 0x20 || c >= 0x7f)
      out += fmt::format("\\x{:02x}", c);
    else
      out += static_cast<char>(c);
  }
  return out;
}

const char* const kKeys = "price, capacity_gb, idle_watts, active_watts, interface";

Status Bad(const std::string& file, int64_t line, const std::string& what) {
  return Status::BadInput(fmt::format("{}:{}: {}", Printable(file), line, what));
}

int64_t LineOf(const toml::node& node) { return static_cast<int64_t>(node.source().begin.line); }

// A number key: an integer or a float, finite, >= 0 (> 0 when `positive`).
Result<double> Number(const std::string& file, const std::string& table, std::string_view key, const toml::node& value,
                      bool positive) {
  std::optional<double> number;
  if (const auto* i = value.as_integer()) number = static_cast<double>(i->get());
  if (const auto* f = value.as_floating_point()) number = f->get();
  std::string where = fmt::format("{} in [disk.\"{}\"]", key, Printable(table));
  if (!number) return Bad(file, LineOf(value), where + " must be a number");
  if (!std::isfinite(*number)) return Bad(file, LineOf(value), where + " must be a finite number");
  if (*number < 0 || (positive && *number == 0))
    return Bad(file, LineOf(value), fmt::format("{} must be {}, not {}", where, positive ? "> 0" : ">= 0", *number));
  return *number;
}

Result<DiskSpec> ReadDisk(const std::string& file, std::string_view model, const toml::node& node) {
  const toml::table* table = node.as_table();
  if (table == nullptr)
    return Bad(file, LineOf(node),
               fmt::format("disk.\"{}\" must be a table ([disk.\"{}\"])", Printable(model), Printable(model)));
  DiskSpec disk;
  disk.model = std::string(model);
  disk.line = static_cast<int>(LineOf(node));
  if (disk.model.empty()) return Bad(file, disk.line, "a disk's model (its table name) is empty");
  for (auto&& [key, value] : *table) {
    std::string_view name = key.str();
    const toml::node& item = value;  // clang 14 cannot capture a structured binding
    auto number = [&](bool positive, std::optional<double>* out) -> Status {
      Result<double> n = Number(file, disk.model, name, item, positive);
      if (!n.ok()) return n.status();
      *out = n.value();
      return Status::Ok();
    };
    Status status = Status::Ok();
    if (name == "price") {
      status = number(false, &disk.price);
    } else if (name == "capacity_gb") {
      status = number(true, &disk.capacity_gb);
    } else if (name == "idle_watts") {
      status = number(false, &disk.idle_watts);
    } else if (name == "active_watts") {
      status = number(true, &disk.active_watts);
    } else if (name == "interface") {
      const auto* text = value.as_string();
      if (text == nullptr)
        return Bad(file, LineOf(value),
                   fmt::format("interface in [disk.\"{}\"] must be a string", Printable(disk.model)));
      disk.interface = FindInterface(text->get());
      if (!disk.interface)
        return Bad(file, LineOf(value),
                   fmt::format("interface in [disk.\"{}\"]: unknown interface \"{}\" (one of {})",
                               Printable(disk.model), Printable(text->get()), InterfaceNames()));
    } else {
      return Bad(
          file, LineOf(value),
          fmt::format("unknown key \"{}\" in [disk.\"{}\"] (keys: {})", Printable(name), Printable(disk.model), kKeys));
    }
    if (!status.ok()) return status;
  }
  return disk;
}

}  // namespace

std::optional<InterfaceCeiling> FindInterface(std::string_view name) {
  for (const FixedInterface& i : kFixed)
    if (name == i.name) return InterfaceCeiling{i.name, i.label, i.mb_per_s, i.line_mb_per_s};
  return FindPcie(name);
}

std::string InterfaceNames() {
  std::string names;
  for (const FixedInterface& i : kFixed) names += std::string(names.empty() ? "" : ", ") + i.name;
  return names + ", pcie<gen 1-5>x<lanes 1|2|4|8|16>";
}

Result<std::vector<DiskSpec>> ParseDiskSpec(std::string_view text, const std::string& file) {
  // toml++ 3.3.0 reaches __builtin_unreachable on some non-ASCII characters outside a
  // string (the fuzzer found "[sa]\xcb\x97re = zR": U+02D7 where a key may start), which is
  // undefined behaviour, not an error. A spec names models, interfaces and numbers: ASCII.
  if (std::optional<int64_t> line = LineOfFirstNonAscii(text))
    return Bad(file, *line, "a non-ASCII character: a disk spec is ASCII (model names, interfaces, numbers)");
  toml::parse_result parsed = toml::parse(text, file);
  if (!parsed) {
    const toml::parse_error& error = parsed.error();
    return Bad(file, static_cast<int64_t>(error.source().begin.line), Printable(error.description()));
  }
  const toml::table& root = parsed.table();
  std::vector<DiskSpec> disks;
  for (auto&& [key, value] : root) {
    if (key.str() != "disk")
      return Bad(file, LineOf(value),
                 fmt::format("unknown table or key \"{}\" (only [disk.\"MODEL\"] tables)", Printable(key.str())));
    const toml::table* models = value.as_table();
    if (models == nullptr) return Bad(file, LineOf(value), "disk must hold tables: [disk.\"MODEL\"]");
    for (auto&& [model, spec] : *models) {
      Result<DiskSpec> disk = ReadDisk(file, model.str(), spec);
      if (!disk.ok()) return disk.status();
      disks.push_back(std::move(disk).value());
    }
  }
  return disks;
}

}  // namespace nasperf
