// Differential test against hyparquet / hyparquet-writer (an independent
// JavaScript implementation): our reader on files hyparquet-writer wrote
// (data page v2, dictionaries, several row groups and pages, nulls), and
// hyparquet on files our writer wrote. Both sides print the same line format.
//
// Tests must stay hermetic, so nothing is installed at build time: the test
// runs only when PARQUET_DIFF_NODE_MODULES names a node_modules directory
// holding hyparquet and hyparquet-writer (e.g. after
// `npm install hyparquet hyparquet-writer` in /tmp/x):
//   ./bazelw test //competitions/common:parquet_hyparquet_diff_test \
//     --test_env=PARQUET_DIFF_NODE_MODULES=/tmp/x/node_modules

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/testing/test_util.h"
#include "formats/parquet.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

constexpr char kScript[] = "formats/parquet_hyparquet_diff_test.mjs";

std::string Hex(const std::string& s) {
  std::string out;
  for (unsigned char c : s) out += absl::StrCat(absl::Hex(c, absl::kZeroPad2));
  return out;
}

std::string CanonicalText(const Table& table) {
  std::string out;
  for (const Column& col : table.columns()) {
    out += "col " + col.name + "\n";
    for (const Cell& c : col.cells) {
      if (IsMissing(c)) {
        out += "null";
      } else if (const auto* i = std::get_if<int64_t>(&c)) {
        out += absl::StrCat("i:", *i);
      } else if (const auto* d = std::get_if<double>(&c)) {
        uint64_t bits;
        std::memcpy(&bits, d, 8);
        out += absl::StrCat("d:", absl::Hex(bits));
      } else if (const auto* b = std::get_if<bool>(&c)) {
        out += *b ? "b:1" : "b:0";
      } else {
        out += "s:" + Hex(std::get<std::string>(c));
      }
      out += "\n";
    }
  }
  return out;
}

class ParquetHyparquetDiffTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* dir = std::getenv("PARQUET_DIFF_NODE_MODULES");
    if (dir == nullptr || *dir == '\0') {
      GTEST_SKIP() << "PARQUET_DIFF_NODE_MODULES is not set: set it to a node_modules directory "
                      "holding hyparquet and hyparquet-writer to run this differential test";
    }
    node_modules_ = dir;
    ASSERT_TRUE(std::filesystem::exists(node_modules_ + "/hyparquet/src/index.js"))
        << node_modules_;
    ASSERT_TRUE(std::filesystem::exists(node_modules_ + "/hyparquet-writer/src/index.js"))
        << node_modules_;
  }

  std::string Dump(const std::filesystem::path& file) {
    testing::CommandResult r =
        testing::RunCommand({"/usr/bin/node", kScript, "dump", file.string(), node_modules_});
    EXPECT_EQ(r.exit_code, 0) << r.output;
    return r.output;
  }

  std::string node_modules_;
};

TEST_F(ParquetHyparquetDiffTest, ReadsWhatHyparquetWriterWrites) {
  const std::filesystem::path dir = testing::NewTempDir("hyparquet_gen");
  int files = 0;
  for (int seed = 1; seed <= 8; ++seed) {
    testing::CommandResult r = testing::RunCommand(
        {"/usr/bin/node", kScript, "gen", dir.string(), std::to_string(seed), node_modules_});
    ASSERT_EQ(r.exit_code, 0) << r.output;
  }
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    SCOPED_TRACE(entry.path().filename().string());
    absl::StatusOr<Table> ours = ReadParquetFile(entry.path());
    ASSERT_TRUE(ours.ok()) << ours.status();
    EXPECT_EQ(CanonicalText(*ours), Dump(entry.path()));
    ++files;
  }
  EXPECT_EQ(files, 40);
}

TEST_F(ParquetHyparquetDiffTest, HyparquetReadsWhatWeWrite) {
  const std::filesystem::path dir = testing::NewTempDir("hyparquet_read");
  const double nan = std::numeric_limits<double>::quiet_NaN();
  Column ints{"event_id", Dtype::kInt64, {}};
  Column sensors{"sensor_id", Dtype::kInt64, {}};
  Column reals{"zenith", Dtype::kFloat64, {}};
  Column charge{"charge", Dtype::kFloat64, {}};
  Column flags{"auxiliary", Dtype::kBool, {}};
  Column maybe{"maybe", Dtype::kObject, {}};
  Column text{"text", Dtype::kObject, {}};
  uint64_t state = 12345;
  auto next = [&] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return state >> 11;
  };
  for (int i = 0; i < 700; ++i) {
    ints.cells.emplace_back(static_cast<int64_t>(next()) - (int64_t{1} << 52));
    sensors.cells.emplace_back(static_cast<int64_t>(next() % 5160));
    reals.cells.emplace_back(i % 11 == 0 ? nan : std::ldexp(static_cast<double>(next()), -50));
    charge.cells.emplace_back(static_cast<double>(static_cast<float>(next() % 1000) / 8.0f));
    flags.cells.emplace_back(next() % 2 == 0);
    if (i % 6 == 0) {
      maybe.cells.emplace_back(std::monostate{});
    } else {
      maybe.cells.emplace_back(next() % 2 == 0);
    }
    if (i % 5 == 0) {
      text.cells.emplace_back(std::monostate{});
    } else {
      text.cells.emplace_back(absl::StrCat("t", next() % 13, i % 3 == 0 ? "\xe6\xb0\xb4" : ""));
    }
  }
  const Table table({ints, sensors, reals, charge, flags, maybe, text});
  int files = 0;
  for (ParquetCompression compression :
       {ParquetCompression::kUncompressed, ParquetCompression::kSnappy}) {
    for (int version : {1, 2}) {
      for (bool dictionary : {false, true}) {
        for (int64_t rows_per_page : {0, 64}) {
          ParquetWriteOptions options;
          options.compression = compression;
          options.data_page_version = version;
          options.dictionary = dictionary;
          options.rows_per_page = rows_per_page;
          options.storage = {{"sensor_id", ParquetStorage::kInt16},
                             {"charge", ParquetStorage::kFloat}};
          const std::filesystem::path file = dir / absl::StrCat("ours_", files++, ".parquet");
          ASSERT_TRUE(WriteParquetFile(table, file, options).ok());
          SCOPED_TRACE(file.filename().string());
          EXPECT_EQ(Dump(file), CanonicalText(table));
        }
      }
    }
  }
}

}  // namespace
}  // namespace mlebench
