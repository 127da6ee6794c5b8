// ReadSecretFile: the mode rule, newline handling and refusals that never show the secret.
#include "base/secret_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <fstream>

#include "testing/test_support.h"

namespace nasperf {
namespace {

std::string WriteSecret(const std::string& dir, const std::string& content, mode_t mode) {
  std::string path = dir + "/secret";
  ::unlink(path.c_str());
  { std::ofstream(path) << content; }
  ::chmod(path.c_str(), mode);
  return path;
}

TEST(SecretFileTest, StripsOneTrailingNewlineOnly) {
  testing::TempDir dir;
  EXPECT_EQ(ReadSecretFile(WriteSecret(dir.path(), "p4ss\n", 0600), "x").value(), "p4ss");
  EXPECT_EQ(ReadSecretFile(WriteSecret(dir.path(), "p4ss\r\n", 0600), "x").value(), "p4ss");
  EXPECT_EQ(ReadSecretFile(WriteSecret(dir.path(), "p4ss\n\n", 0400), "x").value(), "p4ss\n");
  EXPECT_EQ(ReadSecretFile(WriteSecret(dir.path(), " spaces kept ", 0600), "x").value(), " spaces kept ");
}

TEST(SecretFileTest, RefusesFilesOthersCanReadWithoutShowingTheSecret) {
  testing::TempDir dir;
  for (mode_t mode : {0644, 0640, 0604, 0660}) {
    std::string path = WriteSecret(dir.path(), "hunter2", mode);
    Result<std::string> s = ReadSecretFile(path, "--password-file");
    ASSERT_FALSE(s.ok()) << std::oct << mode;
    EXPECT_EQ(s.status().kind(), ErrorKind::kBadInput);
    EXPECT_NE(s.status().message().find("--password-file " + path), std::string::npos) << s.status().message();
    EXPECT_NE(s.status().message().find("chmod 600"), std::string::npos);
    EXPECT_EQ(s.status().message().find("hunter2"), std::string::npos);
  }
}

TEST(SecretFileTest, RefusesMissingDirectoriesSymlinksAndHugeFiles) {
  testing::TempDir dir;
  EXPECT_EQ(ReadSecretFile(dir.path() + "/missing", "x").status().kind(), ErrorKind::kBadInput);
  EXPECT_NE(ReadSecretFile(dir.path(), "x").status().message().find("not a regular file"), std::string::npos);
  std::string real = WriteSecret(dir.path(), "hunter2", 0600);
  std::string link = dir.path() + "/link";
  ASSERT_EQ(::symlink(real.c_str(), link.c_str()), 0);
  EXPECT_FALSE(ReadSecretFile(link, "x").ok());
  std::string huge = WriteSecret(dir.path(), std::string(70000, 'a'), 0600);
  EXPECT_NE(ReadSecretFile(huge, "x").status().message().find("larger than 64 KiB"), std::string::npos);
}

}  // namespace
}  // namespace nasperf
