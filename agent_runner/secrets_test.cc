#include "agent_runner/secrets.h"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/testing/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(ParseSecretNamesTest, EnvironmentVariableNamesOnly) {
  EXPECT_THAT(*ParseSecretNames("OPENAI_API_KEY, _X,OPENAI_API_KEY,,b2"),
              ElementsAre("OPENAI_API_KEY", "_X", "b2"));
  for (const char* bad : {"2X", "A-B", "A B", "A=B", "$(id)", "K\x01"}) {
    EXPECT_FALSE(ParseSecretNames(bad).ok()) << bad;
  }
  EXPECT_FALSE(ParseSecretNames(std::string(129, 'A')).ok());
}

class LoadSecretsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = testing::NewTempDir("secrets");
    dir_ = root_ / "invocation";
    fs::create_directory(dir_);
    chmod(dir_.c_str(), 0700);
  }
  void Write(const fs::path& path, const std::string& text, mode_t mode = 0600) {
    std::ofstream(path) << text;
    chmod(path.c_str(), mode);
  }
  fs::path root_, dir_;
};

TEST_F(LoadSecretsTest, InvocationFirstThenFile) {
  Write(dir_ / "A", "from-the-environment");
  Write(root_ / "secrets.env", "# comment\nA=from-the-file\nB = spaced=value\n");
  absl::StatusOr<std::vector<Secret>> secrets = LoadSecrets({"A", "B"}, dir_, root_ / "secrets.env");
  ASSERT_TRUE(secrets.ok()) << secrets.status();
  ASSERT_EQ(secrets->size(), 2u);
  EXPECT_EQ((*secrets)[0].value, "from-the-environment");
  EXPECT_EQ((*secrets)[1].name, "B");
  EXPECT_EQ((*secrets)[1].value, " spaced=value");
  // No invocation directory at all: the file alone.
  secrets = LoadSecrets({"A"}, root_ / "absent", root_ / "secrets.env");
  ASSERT_TRUE(secrets.ok()) << secrets.status();
  EXPECT_EQ((*secrets)[0].value, "from-the-file");
}

TEST_F(LoadSecretsTest, MissingSecretsAreErrorsThatSayWhereTheyWereLookedFor) {
  absl::StatusOr<std::vector<Secret>> secrets = LoadSecrets({"MISSING"}, dir_, std::nullopt);
  ASSERT_FALSE(secrets.ok());
  EXPECT_THAT(secrets.status().message(), HasSubstr("secret MISSING"));
  EXPECT_THAT(secrets.status().message(), HasSubstr("no --//agent_runner:secrets_file"));
  EXPECT_FALSE(LoadSecrets({"A"}, dir_, root_ / "no-such-file").ok());
  Write(dir_ / "EMPTY", "");
  EXPECT_FALSE(LoadSecrets({"EMPTY"}, dir_, std::nullopt).ok());
  Write(dir_ / "NEWLINE", "a\nb");
  EXPECT_FALSE(LoadSecrets({"NEWLINE"}, dir_, std::nullopt).ok());
  EXPECT_TRUE(LoadSecrets({}, root_ / "whatever", std::nullopt)->empty());
}

TEST_F(LoadSecretsTest, WhatOthersCouldReadOrReplaceIsRefused) {
  Write(dir_ / "OPEN", "value", 0644);
  EXPECT_THAT(LoadSecrets({"OPEN"}, dir_, std::nullopt).status().message(),
              HasSubstr("can be read or changed by other users"));
  Write(root_ / "real", "value");
  fs::create_symlink(root_ / "real", dir_ / "LINK");
  EXPECT_FALSE(LoadSecrets({"LINK"}, dir_, std::nullopt).ok());
  chmod(dir_.c_str(), 0755);
  Write(dir_ / "FINE", "value");
  EXPECT_THAT(LoadSecrets({"FINE"}, dir_, std::nullopt).status().message(),
              HasSubstr("can be read or changed by other users"));
  chmod(dir_.c_str(), 0700);
  Write(root_ / "open.env", "FINE=x\n", 0640);
  EXPECT_FALSE(LoadSecrets({"OTHER"}, dir_, root_ / "open.env").ok());
  Write(root_ / "big.env", std::string(70 << 10, 'x'));
  EXPECT_THAT(LoadSecrets({"OTHER"}, dir_, root_ / "big.env").status().message(),
              HasSubstr("larger than 64 KiB"));
  if (geteuid() == 0) {
    Write(dir_ / "FOREIGN", "value");
    ASSERT_EQ(chown((dir_ / "FOREIGN").c_str(), 65534, 65534), 0);
    EXPECT_THAT(LoadSecrets({"FOREIGN"}, dir_, std::nullopt).status().message(),
                HasSubstr("belongs to uid 65534"));
  }
}

TEST(SecretRedactorTest, RedactsAcrossPieces) {
  SecretRedactor redactor({{"KEY", "sk-0123456789"}, {"SHORT", "abc"}});
  std::string out;
  for (absl::string_view piece : {"key=sk-01", "2345", "6789 and sk-0123456789!", " sk-01x abc"}) {
    out += redactor.Feed(piece);
  }
  out += redactor.Flush();
  EXPECT_EQ(out, "key=[secret KEY] and [secret KEY]! sk-01x abc");  // 3 bytes: not redacted
  SecretRedactor none(std::vector<Secret>{});
  EXPECT_EQ(none.Feed("sk-0123456789"), "sk-0123456789");
  // Byte by byte.
  SecretRedactor slow(std::vector<Secret>{{"KEY", "sk-0123456789"}});
  out.clear();
  for (char c : std::string("[sk-0123456789]")) out += slow.Feed(absl::string_view(&c, 1));
  EXPECT_EQ(out + slow.Flush(), "[[secret KEY]]");
}

// What the proxy's log makes of a value an agent used as a host name or a
// method: lowercased, %-escaped, cut short.
TEST(MentionsSecretTest, FindsTheValueAsSquidLogsIt) {
  const std::vector<Secret> secrets = {{"KEY", "sk-Test/Zq8Xw3Lm9Pv2Rt7Ky4Hn6Bc1"}, {"PIN", "123"}};
  EXPECT_TRUE(MentionsSecret("sk-Test/Zq8Xw3Lm9Pv2Rt7Ky4Hn6Bc1", secrets));
  EXPECT_TRUE(MentionsSecret("sk-test%2Fzq8xw3lm9pv2rt7ky4hn6bc1.example.com", secrets));
  EXPECT_TRUE(MentionsSecret("sk-Test%2FZq8Xw3Lm9Pv2Rt7Ky4", secrets));  // cut at 32
  EXPECT_FALSE(MentionsSecret("api.example.com", secrets));
  EXPECT_FALSE(MentionsSecret("GET", secrets));
  EXPECT_FALSE(MentionsSecret("sk-test", secrets));  // too short a part to tell
  EXPECT_FALSE(MentionsSecret("10.0.0.123", secrets));  // values under 4 characters: never
}

TEST(RedactSecretsInTreeTest, RewritesOnlyFilesThatHoldOne) {
  const fs::path root = testing::NewTempDir("tree");
  fs::create_directories(root / "code" / "deep");
  std::ofstream(root / "code" / "config.py") << "API_KEY = 'sk-0123456789'\n";
  std::ofstream(root / "code" / "deep" / "plain.txt") << "nothing here\n";
  absl::StatusOr<int> changed = RedactSecretsInTree(root, {{"KEY", "sk-0123456789"}});
  ASSERT_TRUE(changed.ok()) << changed.status();
  EXPECT_EQ(*changed, 1);
  EXPECT_EQ(testing::ReadFileOrEmpty(root / "code" / "config.py"), "API_KEY = '[secret KEY]'\n");
  EXPECT_EQ(testing::ReadFileOrEmpty(root / "code" / "deep" / "plain.txt"), "nothing here\n");
  EXPECT_EQ(*RedactSecretsInTree(root / "absent", {{"KEY", "sk-0123456789"}}), 0);
  // Names too, directories included.
  fs::create_directories(root / "logs" / "dir-sk-0123456789");
  std::ofstream(root / "logs" / "dir-sk-0123456789" / "sk-0123456789.txt") << "x";
  changed = RedactSecretsInTree(root / "logs", {{"KEY", "sk-0123456789"}});
  ASSERT_TRUE(changed.ok()) << changed.status();
  EXPECT_EQ(*changed, 2);
  EXPECT_EQ(testing::ReadFileOrEmpty(root / "logs" / "dir-secret-KEY" / "secret-KEY.txt"), "x");
}

}  // namespace
}  // namespace mlebench
