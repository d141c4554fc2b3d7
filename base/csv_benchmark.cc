// Reading (as cells and typed) and writing a typical submission-shaped CSV:
// an int id, a float prediction, a short string label and a bool, 1e4 to 1e6
// rows.
//
//   ./bazelw run -c opt //grading:csv_benchmark

#include <cstdint>
#include <cstdio>
#include <random>
#include <string>

#include "benchmark/benchmark.h"
#include "base/csv.h"

namespace mlebench {
namespace {

std::string MakeCsv(int64_t rows) {
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> prob(0, 1);
  std::string csv = "id,prediction,label,flag\n";
  csv.reserve(static_cast<size_t>(rows) * 40);
  char buf[96];
  for (int64_t i = 0; i < rows; ++i) {
    std::snprintf(buf, sizeof(buf), "%lld,%.17g,class_%d,%s\n", static_cast<long long>(i),
                  prob(rng), static_cast<int>(rng() % 10), rng() % 2 ? "True" : "False");
    csv += buf;
  }
  return csv;
}

// The two most common submission shapes: an integer id with a class (ints)
// or with a probability (a float as Python writes it, 16-17 digits).
std::string MakeIdCsv(int64_t rows, bool probabilities) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> prob(0, 1);
  std::string csv = probabilities ? "id,probability\n" : "id,label\n";
  char buf[64];
  for (int64_t i = 0; i < rows; ++i) {
    const long long id = static_cast<long long>(rng() % 10'000'000);
    if (probabilities) {
      std::snprintf(buf, sizeof(buf), "%lld,%.17g\n", id, prob(rng));
    } else {
      std::snprintf(buf, sizeof(buf), "%lld,%d\n", id, static_cast<int>(rng() % 7) + 1);
    }
    csv += buf;
  }
  return csv;
}

// 1e4, 1e5 and 1e6 rows, in milliseconds.
void Sizes(benchmark::internal::Benchmark* b) {
  b->Arg(10'000)->Arg(100'000)->Arg(1'000'000)->Unit(benchmark::kMillisecond);
}

// Reads the text with `read` (into cells or typed columns) each iteration.
template <typename Read>
void BM_Read(benchmark::State& state, Read read) {
  const std::string csv = MakeCsv(state.range(0));
  for (auto _ : state) {
    auto table = read(csv);
    if (!table.ok()) state.SkipWithError("read failed");
    benchmark::DoNotOptimize(table);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(csv.size()));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
// Into cells, as Table-based graders and preparers get it.
BENCHMARK_CAPTURE(BM_Read, ReadCsvString,
                  [](const std::string& csv) { return ReadCsvString(csv, "bench.csv"); })
    ->Apply(Sizes);
// Into typed storage (what fast graders get): no Cell per value. The text is
// copied into the table first, as ReadTypedCsvString does. A file this
// regular (no quotes, one kind per column) is read in parallel segments.
BENCHMARK_CAPTURE(BM_Read, ReadTypedCsvString,
                  [](const std::string& csv) { return ReadTypedCsvString(csv, "bench.csv"); })
    ->Apply(Sizes);
// Integer ids with integer classes, and with probabilities, typed.
void BM_ReadTypedIds(benchmark::State& state, bool probabilities) {
  const std::string csv = MakeIdCsv(state.range(0), probabilities);
  for (auto _ : state) {
    auto table = ReadTypedCsvString(csv, "bench.csv");
    if (!table.ok()) state.SkipWithError("read failed");
    benchmark::DoNotOptimize(table);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(csv.size()));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK_CAPTURE(BM_ReadTypedIds, IdsAndClasses, false)->Apply(Sizes);
BENCHMARK_CAPTURE(BM_ReadTypedIds, IdsAndProbabilities, true)->Apply(Sizes);
// The same rows with "\r\n" line ends, which the general (one-thread,
// chunk by chunk) path reads: what the regular path saves.
BENCHMARK_CAPTURE(BM_Read, ReadTypedCsvStringGeneralPath,
                  [](const std::string& csv) {
                    std::string crlf;
                    crlf.reserve(csv.size() + csv.size() / 16);
                    for (char c : csv) {
                      if (c == '\n') crlf += '\r';
                      crlf += c;
                    }
                    return ReadTypedCsvString(crlf, "bench.csv");
                  })
    ->Apply(Sizes);

void BM_WriteCsvString(benchmark::State& state) {
  const absl::StatusOr<Table> table = ReadCsvString(MakeCsv(state.range(0)), "bench.csv");
  if (!table.ok()) {
    state.SkipWithError("read failed");
    return;
  }
  size_t bytes = 0;
  for (auto _ : state) {
    std::string out = WriteCsvString(*table);
    bytes = out.size();
    benchmark::DoNotOptimize(out);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(bytes));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_WriteCsvString)->Apply(Sizes);

}  // namespace
}  // namespace mlebench
