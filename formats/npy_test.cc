#include "formats/npy.h"

#include <cstdint>
#include <string>
#include <vector>

#include "base/testing/test_util.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

std::string Bytes(std::initializer_list<int> values) {
  std::string out;
  for (int v : values) out.push_back(static_cast<char>(v));
  return out;
}

TEST(NpyTest, SerializesLikeNpSave) {
  // np.save(f, np.array([1, 2], dtype="<i2")): 128 header bytes, the
  // header padded to 64 bytes, 21 - 1 spare spaces for the first axis.
  NpyArray array{"<i2", false, {2}, Bytes({1, 0, 2, 0})};
  absl::StatusOr<std::string> bytes = SerializeNpy(array);
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  ASSERT_EQ(bytes->size(), 128u + 4u);
  EXPECT_EQ(bytes->substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
  EXPECT_EQ(bytes->substr(8, 2), Bytes({118, 0}));
  const std::string header = bytes->substr(10, 118);
  EXPECT_EQ(header.substr(0, 57), "{'descr': '<i2', 'fortran_order': False, 'shape': (2,), }");
  EXPECT_EQ(header.back(), '\n');
  EXPECT_EQ(bytes->substr(128), Bytes({1, 0, 2, 0}));
}

TEST(NpyTest, RoundTripsAndNormalizesDescr) {
  NpyArray array{"=f4", false, {2, 1}, std::string(8, '\x01')};
  absl::StatusOr<NpyArray> parsed = ParseNpy(*SerializeNpy(array));
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(parsed->descr, "<f4");
  EXPECT_EQ(parsed->shape, (std::vector<int64_t>{2, 1}));
  EXPECT_EQ(parsed->data, array.data);
  EXPECT_EQ(*NpyItemSize("<U2"), 8);
  EXPECT_EQ(*NpyItemSize("|b1"), 1);
  EXPECT_EQ(ParseNpy(*SerializeNpy(NpyArray{"<u1", false, {1}, "x"}))->descr, "|u1");
}

TEST(NpyTest, RejectsUnsupportedOrInconsistentArrays) {
  for (const char* descr : {"|O", "<i3", "<M8[ns]", "f", "<U0", ""}) {
    EXPECT_FALSE(NpyItemSize(descr).ok()) << descr;
  }
  EXPECT_FALSE(SerializeNpy(NpyArray{"<f4", false, {3}, std::string(8, '\0')}).ok());
  EXPECT_FALSE(SerializeNpy(NpyArray{"<f4", false, {-1}, ""}).ok());
}

TEST(NpyTest, RejectsMalformedFiles) {
  const std::string good = *SerializeNpy(NpyArray{"<f8", false, {1}, std::string(8, '\0')});
  EXPECT_TRUE(ParseNpy(good).ok());
  EXPECT_FALSE(ParseNpy("").ok());
  EXPECT_FALSE(ParseNpy("PK\x03\x04 not npy").ok());
  EXPECT_FALSE(ParseNpy(good.substr(0, 20)).ok());               // header cut
  EXPECT_FALSE(ParseNpy(good.substr(0, good.size() - 1)).ok());  // data cut
  EXPECT_FALSE(ParseNpy(good + "x").ok());                       // trailing bytes
  std::string version = good;
  version[6] = 9;
  EXPECT_FALSE(ParseNpy(version).ok());
  auto with_header = [&](std::string header) {
    std::string bytes = good;
    header.resize(118, ' ');
    header.back() = '\n';
    return bytes.replace(10, 118, header);
  };
  EXPECT_TRUE(
      ParseNpy(with_header("{'shape': (1,), 'descr': '<f8', 'fortran_order': False}")).ok());
  EXPECT_FALSE(ParseNpy(with_header("{'descr': '<f8', 'fortran_order': False}")).ok());
  EXPECT_FALSE(ParseNpy(with_header("{'descr': '<f8', 'fortran_order': 0, 'shape': (1,)}")).ok());
  EXPECT_FALSE(
      ParseNpy(with_header("{'descr': '<f8', 'fortran_order': False, 'shape': (1)}")).ok());
  EXPECT_FALSE(ParseNpy(with_header("{'descr': [('a', '<f8')], 'fortran_order': False, "
                                    "'shape': (1,)}"))
                   .ok());
  EXPECT_FALSE(ParseNpy(with_header("{'descr': '<f8', 'fortran_order': False, 'shape': (1,), "
                                    "'x': 1}"))
                   .ok());
  EXPECT_FALSE(ParseNpy(with_header("[1, 2]")).ok());
}

TEST(NpyTest, TakesRowsLikeFancyIndexing) {
  NpyArray array{"|u1", false, {3, 2}, "abcdef"};
  const std::vector<int64_t> rows = {2, 0, -1, 2};
  absl::StatusOr<NpyArray> taken = TakeNpyRows(array, rows);
  ASSERT_TRUE(taken.ok()) << taken.status();
  EXPECT_EQ(taken->shape, (std::vector<int64_t>{4, 2}));
  EXPECT_EQ(taken->data, "efabefef");
  EXPECT_EQ(TakeNpyRows(array, {})->data, "");
  const std::vector<int64_t> out_of_range = {3};
  EXPECT_EQ(TakeNpyRows(array, out_of_range).status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_FALSE(TakeNpyRows(NpyArray{"|u1", false, {}, "a"}, rows).ok());
  EXPECT_FALSE(TakeNpyRows(NpyArray{"|u1", true, {3, 2}, "abcdef"}, rows).ok());
}

TEST(NpyTest, FilesRoundTrip) {
  const std::filesystem::path dir = testing::NewTempDir("npy");
  NpyArray array{"<U2",
                 false,
                 {1},
                 std::string("3\0\0\0"
                             "6\0\0\0",
                             8)};
  ASSERT_TRUE(WriteNpyFile(array, dir / "a.npy").ok());
  absl::StatusOr<NpyArray> read = ReadNpyFile(dir / "a.npy");
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(read->data, array.data);
  EXPECT_EQ(ReadNpyFile(dir / "missing.npy").status().code(), absl::StatusCode::kNotFound);
  EXPECT_FALSE(ReadNpyFile(dir / "a.npy", /*max_bytes=*/10).ok());
}

}  // namespace
}  // namespace mlebench
