// Enlarges a synthetic raw download of icecube-neutrinos-in-deep-ice to a
// chosen size, for measuring the preparer's memory at (a fraction of) the
// real size (competitions/icecube-neutrinos-in-deep-ice/memory_at_scale.sh):
// replaces RAW/train_meta.parquet with one of --rows rows over
// ceil(rows / 200,000) batches (Kaggle's 660 batches hold ~200k events each),
// and gives every batch id a file RAW/train/batch_<id>.parquet, a hard link to
// batch_1.parquet (the preparer copies batch files, never reads them).
//
//   scale_train_meta --raw RAW --rows N [--row_group_rows R] [--seed S]
//
// The file is written a row group of R rows at a time (default 0: one row
// group, the reader's worst case) in the kFastparquet layout; columns as
// Kaggle's: batch_id, event_id, first_pulse_index, last_pulse_index (int64),
// azimuth, zenith (float64, random). Deterministic for a seed.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <numbers>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "base/command_line.h"
#include "synthetic/rng.h"
#include "base/status_macros.h"
#include "base/typed_table.h"
#include "formats/parquet.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr int64_t kEventsPerBatch = 200'000;

absl::StatusOr<int64_t> IntFlag(const CommandLine& cl, const std::string& name, int64_t def) {
  if (!cl.Has(name)) return def;
  int64_t v = 0;
  if (!absl::SimpleAtoi(cl.Get(name), &v) || v < 0) {
    return absl::InvalidArgumentError(absl::StrCat("--", name, " must be an integer >= 0"));
  }
  return v;
}

absl::Status Run(const std::vector<std::string>& args) {
  ASSIGN_OR_RETURN(CommandLine cl, (ParseCommandLine(args, {"raw", "rows", "row_group_rows",
                                                            "seed"})));
  RETURN_IF_ERROR(RequireFlags(cl, {"raw", "rows"}));
  const fs::path raw = cl.Get("raw");
  ASSIGN_OR_RETURN(const int64_t rows, IntFlag(cl, "rows", 0));
  ASSIGN_OR_RETURN(const int64_t group_rows, IntFlag(cl, "row_group_rows", 0));
  ASSIGN_OR_RETURN(const int64_t seed, IntFlag(cl, "seed", 0));
  if (rows < 20) return absl::InvalidArgumentError("--rows must be at least 20");
  const int64_t batches = std::max<int64_t>(10, (rows + kEventsPerBatch - 1) / kEventsPerBatch);

  // Batch files: the generator's batch_1.parquet under every id.
  const fs::path first = raw / "train" / "batch_1.parquet";
  if (!fs::exists(first)) {
    return absl::NotFoundError(absl::StrCat(first.string(), " is missing: generate first"));
  }
  for (const auto& entry : fs::directory_iterator(raw / "train")) {
    if (entry.path() != first) fs::remove(entry.path());
  }
  for (int64_t b = 2; b <= batches; ++b) {
    std::error_code ec;
    fs::create_hard_link(first, raw / "train" / absl::StrCat("batch_", b, ".parquet"), ec);
    if (ec) return absl::InternalError(absl::StrCat("linking batch ", b, ": ", ec.message()));
  }

  const std::vector<Column> schema = {
      {"batch_id", Dtype::kInt64, {}},          {"event_id", Dtype::kInt64, {}},
      {"first_pulse_index", Dtype::kInt64, {}}, {"last_pulse_index", Dtype::kInt64, {}},
      {"azimuth", Dtype::kFloat64, {}},         {"zenith", Dtype::kFloat64, {}}};
  ParquetWriteOptions options;
  options.layout = ParquetLayout::kFastparquet;
  options.fastparquet_row_group_rows = group_rows;
  ASSIGN_OR_RETURN(FastparquetFileWriter writer,
                   FastparquetFileWriter::Open(raw / "train_meta.parquet", schema,
                                               static_cast<size_t>(rows), options));
  // Row r: batch r * batches / rows + 1, event id 3r + 1, 50 pulses each.
  SyntheticRng rng(static_cast<uint64_t>(seed));
  for (const auto& [begin, end] : writer.RowGroups()) {
    for (const Column& column : schema) {
      std::vector<int64_t> ints;
      std::vector<double> reals;
      for (size_t r = begin; r < end; ++r) {
        const int64_t row = static_cast<int64_t>(r);
        const int64_t batch = static_cast<int64_t>(
            static_cast<__int128>(row) * batches / rows + 1);
        const int64_t batch_start =
            static_cast<int64_t>((static_cast<__int128>(batch - 1) * rows + batches - 1) /
                                 batches);
        if (column.name == "batch_id") ints.push_back(batch);
        if (column.name == "event_id") ints.push_back(3 * row + 1);
        if (column.name == "first_pulse_index") ints.push_back(50 * (row - batch_start));
        if (column.name == "last_pulse_index") ints.push_back(50 * (row - batch_start) + 49);
        if (column.name == "azimuth") reals.push_back(rng.Uniform(0, 2 * std::numbers::pi));
        if (column.name == "zenith") reals.push_back(std::acos(rng.Uniform(-1, 1)));
      }
      RETURN_IF_ERROR(writer.WriteChunk(column.dtype == Dtype::kInt64
                                            ? TypedColumn::Ints(column.name, std::move(ints))
                                            : TypedColumn::Doubles(column.name, std::move(reals))));
    }
  }
  RETURN_IF_ERROR(writer.Close());
  std::printf("train_meta.parquet: %lld rows in %lld batches, %zu row groups\n",
              static_cast<long long>(rows), static_cast<long long>(batches),
              writer.RowGroups().size());
  return absl::OkStatus();
}

}  // namespace
}  // namespace mlebench

int main(int argc, char** argv) {
  absl::Status s = mlebench::Run(std::vector<std::string>(argv + 1, argv + argc));
  if (!s.ok()) {
    std::fprintf(stderr, "scale_train_meta: %s\n", std::string(s.message()).c_str());
    return 1;
  }
  return 0;
}
