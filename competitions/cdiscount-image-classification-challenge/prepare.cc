// Upstream's cdiscount-image-classification-challenge/prepare.py: a 90/10
// split of the products in Kaggle's train.bson. The held-out tenth, without
// its `category_id`, becomes public/test.bson and its labels (sorted by
// `_id`) private/answers.csv; public/train_example.bson is the first 100
// products of the new train.bson, as on Kaggle.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "base/table_ops.h"
#include "competitions/common/preparer.h"
#include "formats/bson.h"
#include "pycompat/pandas_ops.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

// Kaggle's most frequent category, upstream's constant sample prediction.
constexpr int64_t kSampleCategory = 1000010653;
// Size of train_example.bson, in products.
constexpr int kExampleRows = 100;

absl::StatusOr<int64_t> IntegerField(const BsonDocument& document, std::string_view key,
                                     uint64_t index) {
  const BsonElement* element = document.Find(key);
  if (element == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("train.bson document ", index, " has no `", std::string(key), "`"));
  }
  // Kaggle's ids and categories are BSON integers; upstream would carry other
  // types into an object column, which no grader here could compare.
  return element->Integer();
}

// Upstream's read_ids_and_category_ids: a DataFrame of the `_id` and
// `category_id` of every document, in file order.
absl::StatusOr<Table> ReadIdsAndCategories(const fs::path& path) {
  ASSIGN_OR_RETURN(BsonFileReader reader, BsonFileReader::Open(path.string()));
  Column ids{"_id", Dtype::kInt64, {}}, categories{"category_id", Dtype::kInt64, {}};
  for (uint64_t index = 0;; ++index) {
    ASSIGN_OR_RETURN(std::optional<BsonDocument> next, reader.Next());
    if (!next.has_value()) break;
    ASSIGN_OR_RETURN(int64_t id, IntegerField(*next, "_id", index));
    ASSIGN_OR_RETURN(int64_t category, IntegerField(*next, "category_id", index));
    ids.cells.push_back(Cell(id));
    categories.cells.push_back(Cell(category));
  }
  return Table({std::move(ids), std::move(categories)});
}

std::unordered_set<int64_t> IdSet(const Table& table) {
  std::unordered_set<int64_t> ids;
  for (const Cell& cell : table.Find("_id")->cells) ids.insert(std::get<int64_t>(cell));
  return ids;
}

// An output .bson file written document by document.
class BsonWriter {
 public:
  explicit BsonWriter(const fs::path& path) : path_(path), out_(path, std::ios::binary) {}
  void Write(const BsonDocument& document) {
    const std::string bytes = EncodeBson(document);
    out_.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  absl::Status Close() {
    out_.close();
    if (!out_) return absl::InternalError(absl::StrCat("cannot write ", path_.string()));
    return absl::OkStatus();
  }

 private:
  fs::path path_;
  std::ofstream out_;
};

// Upstream's three filter_bson_by_ids passes over train.bson, done in one:
// each pass keeps the documents whose `_id` is in its set, in file order,
// re-encoded (test.bson without `category_id`; train_example.bson stops
// after 100 documents).
absl::Status FilterTrainBson(const fs::path& raw_bson, const std::unordered_set<int64_t>& train_ids,
                             const std::unordered_set<int64_t>& test_ids, const fs::path& public_dir) {
  ASSIGN_OR_RETURN(BsonFileReader reader, BsonFileReader::Open(raw_bson.string()));
  BsonWriter train(public_dir / "train.bson"), test(public_dir / "test.bson"),
      example(public_dir / "train_example.bson");
  int example_rows = 0;
  for (uint64_t index = 0;; ++index) {
    ASSIGN_OR_RETURN(std::optional<BsonDocument> next, reader.Next());
    if (!next.has_value()) break;
    BsonDocument& document = *next;
    ASSIGN_OR_RETURN(int64_t id, IntegerField(document, "_id", index));
    if (train_ids.contains(id)) {
      train.Write(document);
      if (example_rows < kExampleRows) {
        example.Write(document);
        ++example_rows;
      }
    }
    if (test_ids.contains(id)) {
      document.Erase("category_id");
      test.Write(document);
    }
  }
  for (BsonWriter* writer : {&train, &test, &example}) {
    RETURN_IF_ERROR(writer->Close());
  }
  return absl::OkStatus();
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& /*scratch*/) {
  ASSIGN_OR_RETURN(Table old_train, ReadIdsAndCategories(raw / "train.bson"));
  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  ASSIGN_OR_RETURN(TrainTestTables split, TrainTestSplitTable(old_train, options));

  // answers = answers.sort_values(by="_id")
  ASSIGN_OR_RETURN(std::vector<size_t> order, SortValuesOrder(*split.test.Find("_id")));
  const std::vector<int64_t> rows(order.begin(), order.end());
  ASSIGN_OR_RETURN(Table answers, TakeRows(split.test, rows));

  ASSIGN_OR_RETURN(Table sample_submission, (SelectColumns(answers, {"_id"})));
  RETURN_IF_ERROR(SetConstantColumn(sample_submission, "category_id", kSampleCategory));

  const std::unordered_set<int64_t> train_ids = IdSet(split.train);
  const std::unordered_set<int64_t> test_ids = IdSet(answers);
  for (int64_t id : test_ids) {
    if (train_ids.contains(id)) {
      return absl::FailedPreconditionError(absl::StrCat(
          "new_train and answers should not have any _ids in common; both have ", id));
    }
  }
  if (!fs::is_regular_file(raw / "category_names.csv")) {
    return absl::NotFoundError("raw/category_names.csv is missing");
  }

  RETURN_IF_ERROR(WriteCsvFile(answers, (private_dir / "answers.csv").string()));
  RETURN_IF_ERROR(WriteCsvFile(sample_submission, (public_dir / "sample_submission.csv").string()));
  RETURN_IF_ERROR(FilterTrainBson(raw / "train.bson", train_ids, test_ids, public_dir));
  // Upstream's closing checks (every output parses; train_example.bson is
  // the head of train.bson) hold by construction of the writer above.
  std::error_code error;
  fs::copy_file(raw / "category_names.csv", public_dir / "category_names.csv",
                fs::copy_options::overwrite_existing, error);
  if (error) {
    return absl::InternalError(absl::StrCat("cannot copy category_names.csv: ", error.message()));
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID,
                                               .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
