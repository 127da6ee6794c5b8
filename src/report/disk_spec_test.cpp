// Tests of the disk spec file: a full spec, the interfaces' ceilings, and each kind of bad
// file getting one line that names the file, the line and the key.
#include "report/disk_spec.h"

#include <gtest/gtest.h>

namespace nasperf {
namespace {

TEST(DiskSpec, ReadsEveryKeyOfEveryModel) {
  Result<std::vector<DiskSpec>> specs = ParseDiskSpec(R"(# prices in EUR
[disk."WDC WD40EFRX"]
price = 99.90
capacity_gb = 4000
idle_watts = 2.5
active_watts = 5
interface = "sata-6g"

[disk.usbstick]
interface = "usb2"
)",
                                                      "disks.toml");
  ASSERT_TRUE(specs.ok()) << specs.status().message();
  ASSERT_EQ(specs.value().size(), 2u);
  const DiskSpec& wd = specs.value()[0];
  EXPECT_EQ(wd.model, "WDC WD40EFRX");
  EXPECT_EQ(wd.price, 99.90);
  EXPECT_EQ(wd.capacity_gb, 4000);
  EXPECT_EQ(wd.idle_watts, 2.5);
  EXPECT_EQ(wd.active_watts, 5);
  ASSERT_TRUE(wd.interface.has_value());
  EXPECT_EQ(wd.interface->label, "SATA 6 Gbit/s");
  EXPECT_EQ(wd.interface->mb_per_s, 600);
  EXPECT_EQ(wd.line, 2);
  const DiskSpec& usb = specs.value()[1];
  EXPECT_EQ(usb.model, "usbstick");
  EXPECT_FALSE(usb.price.has_value());
  EXPECT_EQ(usb.interface->mb_per_s, 40);
  EXPECT_EQ(usb.interface->line_mb_per_s, 60);
  EXPECT_TRUE(ParseDiskSpec("", "empty.toml").value().empty());
}

TEST(DiskSpec, InterfaceCeilings) {
  EXPECT_EQ(FindInterface("sata-1.5g")->mb_per_s, 150);
  EXPECT_EQ(FindInterface("sata-3g")->mb_per_s, 300);
  EXPECT_EQ(FindInterface("usb3.0")->mb_per_s, 500);
  EXPECT_EQ(FindInterface("usb3.2-gen2")->mb_per_s, 1212);
  EXPECT_EQ(FindInterface("pcie1x1")->mb_per_s, 250);
  EXPECT_EQ(FindInterface("pcie3x4")->label, "PCIe 3.0 x4");
  EXPECT_NEAR(FindInterface("pcie3x4")->mb_per_s, 3938.4, 0.1);
  EXPECT_NEAR(FindInterface("pcie4x16")->mb_per_s, 31507, 1);
  for (const char* bad :
       {"", "sata", "sata-12g", "pcie", "pcie6x4", "pcie3x3", "pcie3x", "pcie0x1", "pcie3x44", "PCIE3X4", "usb4"})
    EXPECT_FALSE(FindInterface(bad).has_value()) << bad;
}

std::string Error(const std::string& text) {
  Result<std::vector<DiskSpec>> specs = ParseDiskSpec(text, "my.toml");
  EXPECT_FALSE(specs.ok()) << text;
  if (specs.ok()) return "";
  EXPECT_EQ(specs.status().kind(), ErrorKind::kBadInput);
  EXPECT_EQ(specs.status().message().find('\n'), std::string::npos) << "one line";
  return specs.status().message();
}

TEST(DiskSpec, BadFilesNameFileLineAndKey) {
  EXPECT_EQ(Error("[disk.a]\nprice = 1\nprize = 2\n"),
            "my.toml:3: unknown key \"prize\" in [disk.\"a\"] (keys: price, capacity_gb, idle_watts, active_watts, "
            "interface)");
  EXPECT_EQ(Error("[disk.a]\n\nprice = \"cheap\"\n"), "my.toml:3: price in [disk.\"a\"] must be a number");
  EXPECT_EQ(Error("[disk.a]\nprice = -5\n"), "my.toml:2: price in [disk.\"a\"] must be >= 0, not -5");
  EXPECT_EQ(Error("[disk.a]\ncapacity_gb = 0\n"), "my.toml:2: capacity_gb in [disk.\"a\"] must be > 0, not 0");
  EXPECT_EQ(Error("[disk.a]\nactive_watts = nan\n"), "my.toml:2: active_watts in [disk.\"a\"] must be a finite number");
  EXPECT_EQ(Error("[disk.a]\nidle_watts = inf\n"), "my.toml:2: idle_watts in [disk.\"a\"] must be a finite number");
  std::string unknown = Error("[disk.a]\ninterface = \"sata-12g\"\n");
  EXPECT_EQ(unknown.rfind("my.toml:2: interface in [disk.\"a\"]: unknown interface \"sata-12g\" (one of sata-1.5g,", 0),
            0u)
      << unknown;
  EXPECT_EQ(Error("[disk.a]\ninterface = 6\n"), "my.toml:2: interface in [disk.\"a\"] must be a string");
  EXPECT_EQ(Error("price = 5\n"), "my.toml:1: unknown table or key \"price\" (only [disk.\"MODEL\"] tables)");
  EXPECT_EQ(Error("disk = 5\n"), "my.toml:1: disk must hold tables: [disk.\"MODEL\"]");
  EXPECT_EQ(Error("[disk]\na = 5\n"), "my.toml:2: disk.\"a\" must be a table ([disk.\"a\"])");
  EXPECT_EQ(Error("[disk.\"\"]\nprice = 1\n").rfind("my.toml:1: a disk's model (its table name) is empty", 0), 0u);
  // Syntax errors: toml++'s description, at its line.
  std::string syntax = Error("[disk.a]\nprice = 1\nprice = [1,\n");
  EXPECT_EQ(syntax.rfind("my.toml:3: ", 0), 0u) << syntax;
  std::string duplicate = Error("[disk.a]\nprice = 1\nprice = 2\n");
  EXPECT_EQ(duplicate.rfind("my.toml:3: ", 0), 0u) << duplicate;
  EXPECT_EQ(Error("[disk.a\n").rfind("my.toml:1: ", 0), 0u);
}

TEST(DiskSpec, NamesFromTheFileCannotBreakTheLine) {
  EXPECT_EQ(Error("[disk.\"a\\nb\"]\nprize = 1\n"),
            "my.toml:2: unknown key \"prize\" in [disk.\"a\\x0ab\"] (keys: price, capacity_gb, idle_watts, "
            "active_watts, interface)");
  EXPECT_EQ(Error("[disk.a]\n\"x\\ry\" = 1\n").rfind("my.toml:2: unknown key \"x\\x0dy\"", 0), 0u);
  EXPECT_NE(Error("[disk.a]\ninterface = \"usb\\n2\"\n").find("unknown interface \"usb\\x0a2\""), std::string::npos);
}

// toml++ 3.3.0 asserted (debug builds abort, clang release builds assume) on these table
// headers before reporting them (marzer/tomlplusplus#301).
TEST(DiskSpec, MalformedTableHeadersAreErrorsNotAborts) {
  EXPECT_EQ(Error("[\\disk.a]\n").rfind("my.toml:1: ", 0), 0u);
  EXPECT_EQ(Error("price = 1\n[[[1]]]\n").rfind("my.toml:2: ", 0), 0u);
  EXPECT_EQ(Error("[[=\n").rfind("my.toml:1: ", 0), 0u);
  EXPECT_EQ(Error("[[[]]\n").rfind("my.toml:1: ", 0), 0u);
}

TEST(DiskSpec, DeepNestingAndBinaryAreOneLineErrors) {
  EXPECT_FALSE(Error("x = " + std::string(100000, '[')).empty());
  EXPECT_FALSE(Error(std::string("\0\xff\xfe[disk", 9)).empty());
}

}  // namespace
// The fuzzer's input that reached toml++'s __builtin_unreachable: refused in one line first.
TEST(DiskSpec, NonAsciiIsRefusedBeforeTheTomlParserSeesIt) {
  Result<std::vector<DiskSpec>> r = ParseDiskSpec("[sa]\xcb\x97re =zR ", "spec.toml");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().kind(), ErrorKind::kBadInput);
  EXPECT_NE(r.status().message().find("spec.toml:1:"), std::string::npos) << r.status().message();
  EXPECT_NE(r.status().message().find("non-ASCII"), std::string::npos) << r.status().message();
}

}  // namespace nasperf
