#include "competitions/common/preparer.h"

#include <string>
#include <string_view>

#include "gtest/gtest.h"

namespace mlebench {
namespace {

TEST(IsPlainFileNameTest, AcceptsNamesDirectlyInsideAFolder) {
  for (std::string_view name : {"a", "0001.jpg", "..a", "a..", ".hidden", "with space"}) {
    EXPECT_TRUE(IsPlainFileName(name)) << name;
  }
}

TEST(IsPlainFileNameTest, RejectsWhatWouldReachElsewhere) {
  for (std::string_view name : {"", ".", "..", "a/b", "/a", "a\\b", "../a"}) {
    EXPECT_FALSE(IsPlainFileName(name)) << name;
  }
  EXPECT_FALSE(IsPlainFileName(std::string_view("a\0b", 3)));
}

}  // namespace
}  // namespace mlebench
