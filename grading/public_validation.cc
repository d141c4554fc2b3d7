#include "grading/public_validation.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <variant>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/csv.h"
#include "base/display_text.h"
#include "base/python_float.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "formats/seven_zip.h"
#include "formats/zip_archive.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr int64_t kMiB = int64_t{1} << 20;
// How much of a reason VerdictLine shows.
constexpr size_t kMaxReasonBytes = 1000;
// How many examples a reason lists.
constexpr size_t kExamples = 3;

ValidationVerdict Valid(ValidationVerdict::Basis basis) {
  return ValidationVerdict{.valid = true, .reason = "", .basis = basis};
}

ValidationVerdict Invalid(ValidationVerdict::Basis basis, std::string reason) {
  return ValidationVerdict{.valid = false, .reason = std::move(reason), .basis = basis};
}

// A file descriptor closed when it goes out of scope.
class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  ~Descriptor() {
    if (fd_ >= 0) close(fd_);
  }
  int get() const { return fd_; }

 private:
  int fd_;
};

// Reads at most `max_bytes` + 1 bytes of `fd` (so that a longer file shows
// as longer).
absl::StatusOr<std::string> ReadBounded(int fd, int64_t max_bytes, const std::string& name) {
  std::string out;
  char buffer[1 << 16];
  while (static_cast<int64_t>(out.size()) <= max_bytes) {
    const ssize_t n = read(fd, buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("cannot read ", name, ": ", std::strerror(errno)));
    }
    if (n == 0) break;
    out.append(buffer, static_cast<size_t>(n));
  }
  return out;
}

// A directory of its own under $TMPDIR (else /tmp), removed with it.
class ScratchDir {
 public:
  static absl::StatusOr<ScratchDir> Make() {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern =
        (fs::path(tmp != nullptr && tmp[0] != '\0' ? tmp : "/tmp") / "mlebench-sample.XXXXXX")
            .string();
    if (mkdtemp(pattern.data()) == nullptr) {
      return absl::InternalError(
          absl::StrCat("cannot make a directory like ", pattern, ": ", std::strerror(errno)));
    }
    return ScratchDir(pattern);
  }
  ScratchDir(ScratchDir&& other) noexcept : path_(std::exchange(other.path_, fs::path())) {}
  ScratchDir& operator=(ScratchDir&&) = delete;
  ~ScratchDir() {
    if (path_.empty()) return;
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  const fs::path& path() const { return path_; }

 private:
  explicit ScratchDir(fs::path path) : path_(std::move(path)) {}
  fs::path path_;
};

// The one file inside a .zip or .7z sample.
absl::StatusOr<std::string> ReadArchivedSample(const fs::path& archive, bool zip,
                                               int64_t max_bytes) {
  ASSIGN_OR_RETURN(std::vector<std::string> names, zip ? ListZip(archive) : List7z(archive));
  ASSIGN_OR_RETURN(ScratchDir scratch, ScratchDir::Make());
  if (zip) {
    RETURN_IF_ERROR(
        ExtractZip(archive, scratch.path(),
                   ExtractZipOptions{.max_total_bytes = max_bytes, .max_entries = 1000}));
  } else {
    RETURN_IF_ERROR(Extract7z(archive, scratch.path(),
                              Extract7zOptions{.max_total_bytes = max_bytes, .max_entries = 1000}));
  }
  std::vector<fs::path> files;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(scratch.path(), ec), end; !ec && it != end;
       it.increment(ec)) {
    if (it->is_regular_file()) files.push_back(it->path());
  }
  if (ec) {
    return absl::InternalError(absl::StrCat("cannot list ", archive.string(), ": ", ec.message()));
  }
  if (files.size() != 1) {
    if (names.size() > kExamples) names.resize(kExamples);
    return absl::InvalidArgumentError(
        absl::StrCat("the sample submission ", archive.string(), " holds ", files.size(),
                     " files, expected one (entries: ", absl::StrJoin(names, ", "), ", ...)"));
  }
  return ReadSampleSubmission(files[0].string(), max_bytes);
}

// A cell of `column` as the text that identifies it (an id), or nullopt when
// it is missing: ints in decimal, floats as Python's repr, bools as Python
// writes them, text as it is.
std::optional<std::string> KeyAt(const TypedColumn& column, size_t row) {
  switch (column.storage()) {
    case TypedColumn::Storage::kInt64:
      return absl::StrCat(column.ints()[row]);
    case TypedColumn::Storage::kFloat64: {
      const double v = column.doubles()[row];
      if (std::isnan(v)) return std::nullopt;
      return FormatPythonFloat(v);
    }
    case TypedColumn::Storage::kBool:
      return std::string(column.bools()[row] ? "True" : "False");
    case TypedColumn::Storage::kText: {
      const std::string_view v = column.text()[row];
      if (TypedColumn::IsMissingText(v)) return std::nullopt;
      return std::string(v);
    }
    case TypedColumn::Storage::kCells:
      break;
  }
  const Cell& cell = column.cells()[row];
  if (IsMissing(cell)) return std::nullopt;
  if (const auto* s = std::get_if<std::string>(&cell)) return *s;
  if (const auto* i = std::get_if<int64_t>(&cell)) return absl::StrCat(*i);
  if (const auto* d = std::get_if<double>(&cell)) return FormatPythonFloat(*d);
  return std::string(std::get<bool>(cell) ? "True" : "False");
}

// Whether `text` is an integer literal (pandas keeps those beyond int64 as
// text, and graders take them as numbers).
bool IsIntegerText(std::string_view text) {
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) text.remove_prefix(1);
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Whether `cell` is a number (int or float, not bool; an integer beyond
// int64 as text), and a finite one unless `missing_allowed` (then NaN and
// +-inf count too).
bool IsNumber(const Cell& cell, bool missing_allowed) {
  if (std::holds_alternative<int64_t>(cell)) return true;
  if (const auto* d = std::get_if<double>(&cell)) return missing_allowed || std::isfinite(*d);
  if (const auto* s = std::get_if<std::string>(&cell)) return IsIntegerText(*s);
  return missing_allowed && std::holds_alternative<std::monostate>(cell);
}

// Whether every value of `column` IsNumber.
bool AllNumeric(const TypedColumn& column, bool missing_allowed) {
  switch (column.storage()) {
    case TypedColumn::Storage::kInt64:
      return true;
    case TypedColumn::Storage::kFloat64:
      return missing_allowed || std::all_of(column.doubles().begin(), column.doubles().end(),
                                            [](double v) { return std::isfinite(v); });
    case TypedColumn::Storage::kBool:
      return column.size() == 0;
    case TypedColumn::Storage::kText:
      return std::all_of(column.text().begin(), column.text().end(), [&](std::string_view v) {
        return TypedColumn::IsMissingText(v) ? missing_allowed : IsIntegerText(v);
      });
    case TypedColumn::Storage::kCells:
      break;
  }
  return std::all_of(column.cells().begin(), column.cells().end(),
                     [&](const Cell& c) { return IsNumber(c, missing_allowed); });
}

// The first row of `column` that is not IsNumber, described.
std::string FirstNonNumber(const TypedColumn& column, bool missing_allowed) {
  for (size_t r = 0; r < column.size(); ++r) {
    if (IsNumber(column.CellAt(r), missing_allowed)) continue;
    const std::optional<std::string> key = KeyAt(column, r);
    return absl::StrCat("row ", r + 1, " holds ",
                        key.has_value() ? absl::StrCat("'", *key, "'") : "no value");
  }
  return "";
}

// Whether `column` has rows and every value is text (none missing).
bool AllText(const TypedColumn& column) {
  if (column.size() == 0) return false;
  switch (column.storage()) {
    case TypedColumn::Storage::kText:
      return std::none_of(column.text().begin(), column.text().end(),
                          [](std::string_view v) { return TypedColumn::IsMissingText(v); });
    case TypedColumn::Storage::kCells:
      return std::all_of(column.cells().begin(), column.cells().end(),
                         [](const Cell& c) { return std::holds_alternative<std::string>(c); });
    default:
      return false;
  }
}

// The first row of `column` holding a number (not a missing value), if any.
std::optional<size_t> FirstNumber(const TypedColumn& column) {
  for (size_t r = 0; r < column.size(); ++r) {
    const Cell cell = column.CellAt(r);
    if (std::holds_alternative<int64_t>(cell)) return r;
    if (const auto* d = std::get_if<double>(&cell); d != nullptr && !std::isnan(*d)) return r;
  }
  return std::nullopt;
}

std::string Quoted(const std::vector<std::string>& names) {
  std::vector<std::string> quoted;
  for (const std::string& n : names) quoted.push_back(absl::StrCat("'", n, "'"));
  return absl::StrJoin(quoted, ", ");
}

// How a stand-in for the answers rewrites the sample's value columns (every
// column but the id column), row r, column c, so that answers-only checks
// of the grader (both classes present, one-hot rows, a multi-class target)
// can pass. Each keeps every column's dtype: a grader that compares the
// answers' and the submission's types sees the sample's.
enum class RewrittenValues {
  kTwoClasses,    // numbers and bools: (r + c) % 2
  kOneHot,        // numbers, two or more columns: 1 in column r % k, else 0
  kThreeClasses,  // integers: (r + c) % 3; text: "a", "b", "c" by the same rule
};

const char* RewrittenValuesName(RewrittenValues kind) {
  switch (kind) {
    case RewrittenValues::kTwoClasses:
      return "two classes";
    case RewrittenValues::kOneHot:
      return "one-hot";
    case RewrittenValues::kThreeClasses:
      return "three classes";
  }
  return "?";
}

// The sample's CSV text with its value columns rewritten as `kind` says, or
// nullopt when that changes no column.
std::optional<std::string> RewrittenSample(const TypedTable& sample, int id_column,
                                           RewrittenValues kind) {
  std::vector<size_t> columns;
  for (size_t c = 0; c < sample.num_columns(); ++c) {
    if (static_cast<int>(c) == id_column) continue;
    const Dtype dtype = sample.columns()[c].dtype();
    const bool number = dtype == Dtype::kInt64 || dtype == Dtype::kFloat64;
    const bool wanted = kind == RewrittenValues::kTwoClasses ? number || dtype == Dtype::kBool
                        : kind == RewrittenValues::kOneHot
                            ? number
                            : dtype == Dtype::kInt64 || dtype == Dtype::kObject;
    if (wanted) columns.push_back(c);
  }
  if (columns.empty() || (kind == RewrittenValues::kOneHot && columns.size() < 2)) {
    return std::nullopt;
  }
  Table table = sample.ToTable();
  for (size_t j = 0; j < columns.size(); ++j) {
    const size_t c = columns[j];
    Column& column = table.mutable_columns()[c];
    for (size_t r = 0; r < column.cells.size(); ++r) {
      const int64_t v = kind == RewrittenValues::kTwoClasses ? static_cast<int64_t>((r + c) % 2)
                        : kind == RewrittenValues::kOneHot   ? (r % columns.size() == j ? 1 : 0)
                                                             : static_cast<int64_t>((r + c) % 3);
      switch (column.dtype) {
        case Dtype::kInt64:
          column.cells[r] = Cell(v);
          break;
        case Dtype::kFloat64:
          column.cells[r] = Cell(static_cast<double>(v));
          break;
        case Dtype::kBool:
          column.cells[r] = Cell(v != 0);
          break;
        case Dtype::kObject:
          column.cells[r] = Cell(std::string(1, static_cast<char>('a' + v)));
          break;
      }
    }
  }
  return WriteCsvString(table);
}

// The index of the sample's id column: its first, when every value there is
// present and none repeats; else -1 (e.g. a sample whose first column is a
// constant prediction).
int IdColumnOf(const TypedTable& sample) {
  if (sample.num_columns() == 0) return -1;
  const TypedColumn& first = sample.columns()[0];
  absl::flat_hash_map<std::string, int> seen;
  for (size_t r = 0; r < first.size(); ++r) {
    const std::optional<std::string> key = KeyAt(first, r);
    if (!key.has_value() || !seen.emplace(*key, 0).second) return -1;
  }
  return 0;
}

}  // namespace

const char* BasisName(ValidationVerdict::Basis basis) {
  switch (basis) {
    case ValidationVerdict::Basis::kFile:
      return "file";
    case ValidationVerdict::Basis::kGrader:
      return "grader";
    case ValidationVerdict::Basis::kSample:
      return "sample";
  }
  return "?";
}

std::string VerdictLine(const ValidationVerdict& verdict) {
  if (verdict.valid) return "Submission is valid.";
  return absl::StrCat("Submission is invalid: ", EscapeForConsole(verdict.reason, kMaxReasonBytes));
}

absl::StatusOr<std::string> ReadSampleSubmission(const std::string& path, int64_t max_bytes) {
  const std::string extension = absl::AsciiStrToLower(fs::path(path).extension().string());
  if (extension == ".zip" || extension == ".7z") {
    return ReadArchivedSample(path, extension == ".zip", max_bytes);
  }
  Descriptor fd(open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
  if (fd.get() < 0) {
    return absl::NotFoundError(
        absl::StrCat("cannot open the sample submission ", path, ": ", std::strerror(errno)));
  }
  struct stat st;
  if (fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode)) {
    return absl::InvalidArgumentError(
        absl::StrCat("the sample submission ", path, " is not a regular file"));
  }
  ASSIGN_OR_RETURN(std::string text, ReadBounded(fd.get(), max_bytes, path));
  if (static_cast<int64_t>(text.size()) > max_bytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("the sample submission ", path, " is larger than ", max_bytes, " bytes"));
  }
  return text;
}

PublicValidator::PublicValidator(const CompetitionGrader& grader, std::string sample_text,
                                 TypedTable sample, GradingLimits limits)
    : grader_(&grader),
      sample_text_(std::move(sample_text)),
      sample_(std::move(sample)),
      limits_(limits) {}

absl::StatusOr<PublicValidator> PublicValidator::Create(const CompetitionGrader& grader,
                                                        std::string sample_text) {
  absl::StatusOr<TypedTable> sample =
      ReadTypedCsvString(sample_text, "sample submission", grader.submission_csv);
  if (!sample.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("the sample submission of ", grader.id,
                     " is not a readable CSV: ", sample.status().message()));
  }
  if (sample->num_columns() == 0 || sample->num_rows() == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("the sample submission of ", grader.id, " has no columns or no rows"));
  }
  const int64_t cells = static_cast<int64_t>((sample->num_rows() + 1) * sample->num_columns());
  GradingLimits limits = GradingLimitsFor(static_cast<int64_t>(sample_text.size()), cells,
                                          static_cast<int64_t>(sample->num_columns()));
  limits.max_submission_cells += 3 * kMiB;
  PublicValidator validator(grader, std::move(sample_text), *std::move(sample), limits);
  validator.id_column_ = IdColumnOf(validator.sample_);
  return validator;
}

ValidationVerdict PublicValidator::CheckFile(const std::string& path) const {
  using Basis = ValidationVerdict::Basis;
  struct stat st;
  if (lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return Invalid(Basis::kFile, absl::StrCat("there is no file at ", path));
    return Invalid(Basis::kFile, absl::StrCat("cannot look at ", path, ": ", std::strerror(errno)));
  }
  const bool link = S_ISLNK(st.st_mode);
  if (link && stat(path.c_str(), &st) != 0) {
    return Invalid(Basis::kFile,
                   absl::StrCat(path, " is a symlink to nothing (", std::strerror(errno), ")"));
  }
  if (S_ISDIR(st.st_mode)) {
    return Invalid(Basis::kFile, absl::StrCat(path, " is a directory, not a file"));
  }
  if (!S_ISREG(st.st_mode)) {
    return Invalid(Basis::kFile, absl::StrCat(path, " is not a regular file"));
  }
  if (absl::AsciiStrToLower(fs::path(path).extension().string()) != ".csv") {
    return Invalid(Basis::kFile, absl::StrCat(path,
                                              " is not a .csv file: the grader takes only "
                                              "submission/submission.csv"));
  }
  // Opened without following a FIFO's writer or a device's wait, and checked
  // again on the descriptor: what is read is what was checked.
  Descriptor fd(open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY));
  if (fd.get() < 0) {
    return Invalid(Basis::kFile, absl::StrCat("cannot open ", path, ": ", std::strerror(errno)));
  }
  if (fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode)) {
    return Invalid(Basis::kFile, absl::StrCat(path, " is not a regular file"));
  }
  if (st.st_size > limits_.max_submission_bytes) {
    return Invalid(
        Basis::kFile,
        absl::StrCat("the submission is too large: ", st.st_size, " bytes, more than the ",
                     limits_.max_submission_bytes, " allowed (32 x the sample submission's ",
                     sample_text_.size(), " bytes + 1 MiB)"));
  }
  const off_t hole = lseek(fd.get(), 0, SEEK_HOLE);
  if (hole >= 0 && hole < st.st_size) {
    return Invalid(Basis::kFile, absl::StrCat(path,
                                              " has holes (a sparse file): the runner "
                                              "does not collect such a submission"));
  }
  lseek(fd.get(), 0, SEEK_SET);
  absl::StatusOr<std::string> text = ReadBounded(fd.get(), limits_.max_submission_bytes, path);
  if (!text.ok()) return Invalid(Basis::kFile, std::string(text.status().message()));
  return CheckText(*text);
}

ValidationVerdict PublicValidator::CheckText(std::string_view text) const {
  using Basis = ValidationVerdict::Basis;
  if (static_cast<int64_t>(text.size()) > limits_.max_submission_bytes) {
    return Invalid(
        Basis::kFile,
        absl::StrCat("the submission is too large: ", text.size(), " bytes, more than the ",
                     limits_.max_submission_bytes, " allowed (32 x the sample submission's ",
                     sample_text_.size(), " bytes + 1 MiB)"));
  }
  CsvReadOptions options = grader_->submission_csv;
  options.max_bytes = limits_.max_submission_bytes;
  options.max_cells = limits_.max_submission_cells;
  options.max_columns = limits_.max_submission_columns;
  absl::StatusOr<TypedTable> submission = ReadTypedCsvString(text, "submission", options);
  if (absl::IsResourceExhausted(submission.status())) {
    return Invalid(Basis::kFile,
                   absl::StrCat("the submission is too large: ", submission.status().message(),
                                " (allowed: ", limits_.max_submission_cells, " cells and ",
                                limits_.max_submission_columns,
                                " columns, from the sample submission's size)"));
  }
  if (!submission.ok()) {
    return Invalid(Basis::kFile, absl::StrCat("the submission is not a readable CSV: ",
                                              submission.status().message()));
  }
  if (std::optional<ValidationVerdict> verdict = GraderVerdict(*submission)) return *verdict;
  return SampleVerdict(*submission);
}

std::vector<PublicValidator::StandIn>& PublicValidator::StandIns() const {
  if (stand_ins_.has_value()) return *stand_ins_;
  stand_ins_.emplace();
  stand_ins_->push_back(
      StandIn{.name = "the sample",
              .answers = ReadAnswersString(*grader_, sample_text_, "sample submission")});
  const std::vector<RewrittenValues> kinds = {
      RewrittenValues::kTwoClasses, RewrittenValues::kOneHot, RewrittenValues::kThreeClasses};
  for (const RewrittenValues kind : kinds) {
    std::optional<std::string> text = RewrittenSample(sample_, id_column_, kind);
    if (!text.has_value()) continue;
    stand_ins_->push_back(
        StandIn{.name = std::string(RewrittenValuesName(kind)),
                .answers = ReadAnswersString(*grader_, *text, RewrittenValuesName(kind))});
  }
  return *stand_ins_;
}

bool PublicValidator::Taken(StandIn& stand_in) const {
  if (!stand_in.taken.has_value()) {
    stand_in.taken =
        stand_in.answers.ok() && GradeTables(*grader_, sample_, *stand_in.answers).ok();
  }
  return *stand_in.taken;
}

std::vector<std::string> PublicValidator::StandInsTaken() const {
  std::vector<std::string> names;
  for (StandIn& stand_in : StandIns()) {
    if (Taken(stand_in)) names.push_back(stand_in.name);
  }
  return names;
}

std::optional<ValidationVerdict> PublicValidator::GraderVerdict(
    const TypedTable& submission) const {
  using Basis = ValidationVerdict::Basis;
  // A submission that one stand-in the grader takes accepts is valid: the
  // stand-ins share the sample's ids, columns and row count and differ only
  // in values, which the answers may have like any of them. It is invalid
  // when every stand-in the grader takes rejects it; the first one's reason
  // is given.
  std::optional<std::string> reason;
  for (StandIn& stand_in : StandIns()) {
    if (!stand_in.answers.ok()) continue;
    absl::StatusOr<double> score = GradeTables(*grader_, submission, *stand_in.answers);
    if (!score.ok() && !IsInvalidSubmission(score.status())) continue;
    if (!Taken(stand_in)) continue;
    if (score.ok()) return Valid(Basis::kGrader);
    if (!reason.has_value()) reason = std::string(score.status().message());
  }
  if (!reason.has_value()) return std::nullopt;
  return Invalid(Basis::kGrader, absl::StrCat(*reason,
                                              " (the grader's check, with the sample submission "
                                              "standing in for the answers)"));
}

ValidationVerdict PublicValidator::SampleVerdict(const TypedTable& submission) const {
  using Basis = ValidationVerdict::Basis;
  const std::vector<std::string> sample_columns = sample_.ColumnNames();
  std::vector<std::string> missing;
  for (const std::string& name : sample_columns) {
    if (submission.Find(name) == nullptr) missing.push_back(name);
  }
  if (!missing.empty()) {
    return Invalid(Basis::kSample,
                   absl::StrCat("no column ", Quoted(missing), " (the sample submission has ",
                                Quoted(sample_columns), "; the submission has ",
                                Quoted(submission.ColumnNames()), ")"));
  }
  const SampleRows rows = grader_->sample_rows;
  if (rows == SampleRows::kEachIdOnce && submission.num_rows() != sample_.num_rows()) {
    return Invalid(Basis::kSample,
                   absl::StrCat(submission.num_rows(), " rows, where the sample submission has ",
                                sample_.num_rows()));
  }
  if (id_column_ >= 0 && rows != SampleRows::kAnyRows) {
    const TypedColumn& sample_ids = sample_.columns()[static_cast<size_t>(id_column_)];
    const TypedColumn& ids = *submission.Find(sample_ids.name());
    // How many times each id of the sample is still expected.
    absl::flat_hash_map<std::string, int64_t> expected;
    for (size_t r = 0; r < sample_ids.size(); ++r) {
      if (std::optional<std::string> key = KeyAt(sample_ids, r)) ++expected[*key];
    }
    std::vector<std::string> foreign, repeated;
    size_t missing_ids = 0;
    for (size_t r = 0; r < ids.size(); ++r) {
      const std::optional<std::string> key = KeyAt(ids, r);
      if (!key.has_value()) {
        ++missing_ids;
        continue;
      }
      const auto it = expected.find(*key);
      if (it == expected.end()) {
        if (foreign.size() < kExamples) foreign.push_back(*key);
      } else if (--it->second < 0 && repeated.size() < kExamples) {
        repeated.push_back(*key);
      }
    }
    if (missing_ids > 0) {
      return Invalid(Basis::kSample, absl::StrCat(missing_ids, " rows have no '", sample_ids.name(),
                                                  "' (the id column of the sample submission)"));
    }
    if (!foreign.empty()) {
      return Invalid(Basis::kSample, absl::StrCat("'", sample_ids.name(),
                                                  "' holds ids that the sample "
                                                  "submission does not have, e.g. ",
                                                  Quoted(foreign)));
    }
    if (rows == SampleRows::kEachIdOnce && !repeated.empty()) {
      return Invalid(Basis::kSample, absl::StrCat("'", sample_ids.name(), "' repeats ids, e.g. ",
                                                  Quoted(repeated)));
    }
    if (rows != SampleRows::kSomeIds) {
      std::vector<std::string> absent;
      for (const auto& [key, left] : expected) {
        if (left > 0) absent.push_back(key);
      }
      if (!absent.empty()) {
        std::sort(absent.begin(), absent.end());
        const size_t count = absent.size();
        absent.resize(std::min(absent.size(), kExamples));
        return Invalid(Basis::kSample,
                       absl::StrCat("'", sample_ids.name(), "' lacks ", count,
                                    " ids of the sample submission, e.g. ", Quoted(absent)));
      }
    }
  }
  return CheckValues(submission);
}

ValidationVerdict PublicValidator::CheckValues(const TypedTable& submission) const {
  using Basis = ValidationVerdict::Basis;
  for (size_t c = 0; c < sample_.num_columns(); ++c) {
    if (static_cast<int>(c) == id_column_) continue;
    const TypedColumn& expected = sample_.columns()[c];
    const TypedColumn& column = *submission.Find(expected.name());
    // Numbers where the sample has numbers.
    if (AllNumeric(expected, /*missing_allowed=*/false)) {
      if (!AllNumeric(column, grader_->missing_numbers_allowed)) {
        return Invalid(Basis::kSample,
                       absl::StrCat("'", column.name(), "' must hold ",
                                    grader_->missing_numbers_allowed ? "numbers" : "finite numbers",
                                    ", as in the sample submission: ",
                                    FirstNonNumber(column, grader_->missing_numbers_allowed)));
      }
      continue;
    }
    // Text where the sample has text.
    if (AllText(expected)) {
      if (std::optional<size_t> row = FirstNumber(column)) {
        return Invalid(Basis::kSample,
                       absl::StrCat("'", column.name(),
                                    "' must hold text, as in the sample "
                                    "submission: row ",
                                    *row + 1, " holds the number ", *KeyAt(column, *row)));
      }
    }
  }
  return Valid(Basis::kSample);
}

}  // namespace mlebench
