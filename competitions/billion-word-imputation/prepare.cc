// Upstream's billion-word-imputation/prepare.py: each line of Kaggle's
// train_v2.txt (one sentence per line) goes, with probability 0.01 when it
// has more than two words, to the new test set, which gets the sentence with
// one random inner word removed (public) and the whole sentence (private);
// every other line stays in train. One numpy RandomState(0) drives both
// choices, draw for draw.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/status_macros.h"
#include "competitions/common/preparer.h"
#include "formats/zip_archive.h"
#include "pycompat/numpy_random.h"
#include "pycompat/python_str.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

// Upstream stops after this many lines (the size of Kaggle's file).
constexpr int64_t kTotalLines = 30301028;

// Python's text-mode line iteration with universal newlines: lines end at
// "\n", "\r\n" or a lone "\r", each ending read back as "\n"; the last line
// may have no ending.
class UniversalLineReader {
 public:
  explicit UniversalLineReader(std::istream& in) : in_(in) {}

  // The next line (with "\n" unless it is the last one without an ending),
  // or nullopt at the end of the input.
  std::optional<std::string> Next() {
    std::string line;
    while (pos_ < buffer_.size() || Refill()) {
      const size_t end = buffer_.find_first_of("\r\n", pos_);
      if (end == std::string::npos) {
        line.append(buffer_, pos_, std::string::npos);
        pos_ = buffer_.size();
        continue;
      }
      line.append(buffer_, pos_, end - pos_);
      pos_ = end + 1;
      if (buffer_[end] == '\r' && (pos_ < buffer_.size() || Refill()) && buffer_[pos_] == '\n') {
        ++pos_;
      }
      line.push_back('\n');
      return line;
    }
    if (line.empty()) return std::nullopt;
    return line;
  }

 private:
  // Reads the next block; false at the end of the input.
  bool Refill() {
    buffer_.resize(1 << 20);
    in_.read(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
    buffer_.resize(static_cast<size_t>(in_.gcount()));
    pos_ = 0;
    return !buffer_.empty();
  }

  std::istream& in_;
  std::string buffer_;
  size_t pos_ = 0;
};

// Python's `text.strip()`: without leading and trailing whitespace
// (str.isspace), found as the span from the first word to the last one.
std::u32string PythonStrip(const std::u32string &text, const std::vector<std::u32string> &words) {
  if (words.empty()) return U"";
  const size_t begin = text.find(words.front());
  const size_t end = text.rfind(words.back()) + words.back().size();
  return text.substr(begin, end - begin);
}

std::u32string ReplaceAll(std::u32string text, std::u32string_view from, std::u32string_view to) {
  for (size_t at = text.find(from); at != std::u32string::npos;
       at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

// Counts lines as Python's text-mode iteration does.
absl::StatusOr<int64_t> CountLines(const fs::path &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot read ", path.string()));
  UniversalLineReader reader(in);
  int64_t count = 0;
  while (reader.Next().has_value()) ++count;
  return count;
}

absl::Status Prepare(const fs::path &raw, const fs::path &public_dir, const fs::path &private_dir,
                     const fs::path &scratch) {
  // Upstream extracts into raw; we extract into scratch and leave raw alone.
  const fs::path extracted = scratch / "extracted";
  RETURN_IF_ERROR(ExtractZip(raw / "train_v2.txt.zip", extracted));
  const fs::path old_train_path = extracted / "train_v2.txt";
  std::ifstream old_train(old_train_path, std::ios::binary);
  if (!old_train) return absl::NotFoundError("train_v2.txt.zip has no train_v2.txt");

  // The public files are written to scratch and only zipped into public.
  const fs::path train_path = scratch / "train_v2.txt";
  const fs::path test_path = scratch / "test_v2.txt";
  const fs::path private_test_path = private_dir / "test.csv";
  std::ofstream public_train(train_path, std::ios::binary);
  std::ofstream public_test(test_path, std::ios::binary);
  std::ofstream private_test(private_test_path, std::ios::binary);
  if (!public_train || !public_test || !private_test) {
    return absl::InternalError("cannot create the output files");
  }
  public_test << "\"id\",\"sentence\"\n";
  private_test << "\"id\",\"sentence\"\n";

  NumpyRandomState rng(0);
  UniversalLineReader reader(old_train);
  int64_t line_count = 0, test_count = 0, train_count = 0;
  while (std::optional<std::string> line = reader.Next()) {
    // Python decodes the file as UTF-8 (a decoding error stops it).
    std::optional<std::u32string> sentence = DecodeUtf8(*line);
    if (!sentence.has_value()) {
      return absl::InvalidArgumentError(
          absl::StrCat("train_v2.txt line ", line_count + 1, " is not valid UTF-8"));
    }
    // The draw comes first and happens for every line; the word count only
    // for the lines it selects.
    bool to_test = rng.RandomSample() <= 0.01;
    std::vector<std::u32string> words;
    if (to_test) {
      words = PythonSplit(*sentence);
      to_test = words.size() > 2;
    }
    if (to_test) {
      // Without its line break, quotes doubled for the CSV field.
      const std::u32string escaped = ReplaceAll(PythonStrip(*sentence, words), U"\"", U"\"\"");
      // Escaping adds no whitespace, so the words are those of `sentence`
      // with their quotes doubled.
      std::vector<std::string> kept;
      ASSIGN_OR_RETURN(int64_t index, rng.RandInt(1, static_cast<int64_t>(words.size()) - 1));
      for (size_t i = 0; i < words.size(); ++i) {
        if (static_cast<int64_t>(i) != index) {
          kept.push_back(EncodeUtf8(ReplaceAll(words[i], U"\"", U"\"\"")));
        }
      }
      private_test << test_count << ",\"" << EncodeUtf8(escaped) << "\"\n";
      public_test << test_count << ",\"" << absl::StrJoin(kept, " ") << "\"\n";
      ++test_count;
    } else {
      public_train << *line;
      ++train_count;
    }
    ++line_count;
    if (line_count >= kTotalLines) break;
  }
  public_train.close();
  public_test.close();
  private_test.close();
  if (!public_train || !public_test || !private_test) {
    return absl::InternalError("cannot write the output files");
  }

  std::error_code error;
  fs::copy_file(test_path, private_dir / "sample_submission.csv",
                fs::copy_options::overwrite_existing, error);
  if (error) return absl::InternalError(absl::StrCat("cannot copy test_v2.txt: ", error.message()));
  RETURN_IF_ERROR(
      WriteZip(public_dir / "train_v2.txt.zip", {ZipEntry::FromFile("train_v2.txt", train_path)}));
  RETURN_IF_ERROR(
      WriteZip(public_dir / "test_v2.txt.zip", {ZipEntry::FromFile("test_v2.txt", test_path)}));

  // Upstream's checks.
  if (fs::exists(public_dir / "train_v2.txt") || fs::exists(public_dir / "test_v2.txt")) {
    return CheckFailed("public/train_v2.txt and public/test_v2.txt should not exist");
  }
  ASSIGN_OR_RETURN(int64_t private_lines, CountLines(private_test_path));
  if (private_lines - 1 != test_count) {
    return CheckFailed("private / 'test.csv' has incorrect number of lines");
  }
  ASSIGN_OR_RETURN(int64_t sample_lines, CountLines(private_dir / "sample_submission.csv"));
  if (sample_lines != private_lines) {
    return CheckFailed("private / 'sample_submission.csv' has incorrect number of lines");
  }
  // Upstream asserts test_count + train_count == 30301028, which only
  // Kaggle's full file passes; we check the same sum against the lines read
  // (capped at that number), so that smaller downloads can be prepared.
  if (test_count + train_count != line_count) {
    return CheckFailed(
        "Expected the number of test samples and train samples "
        "to sum to the total number of "
        "samples in the original train file");
  }
  return absl::OkStatus();
}

}  // namespace

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{
    .id = MLEBENCH_COMPETITION_ID,
    .prepare = &Prepare,
});

}  // namespace mlebench
