// Column dtype inference of the CSV reader's general path (base/csv.cc), as
// pandas' C parser does it chunk by chunk with low_memory=True, and the
// concatenation of a column's chunks into one TypedColumn. Not for other
// callers.
#ifndef MLEBENCH_BASE_INTERNAL_CSV_INFERENCE_H_
#define MLEBENCH_BASE_INTERNAL_CSV_INFERENCE_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <future>
#include <iterator>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "base/typed_table.h"

namespace mlebench::csv_internal {

// ---------------------------------------------------------------------------
// Column dtype inference. For each column pandas tries int64 (falling back to
// uint64 on overflow), then float64, then bool, then object. With its default
// low_memory=True it does so separately for each chunk of rows and then
// concatenates the chunks numpy-style, so a large file can mix types.

// A chunk's dtype as pandas infers it ('i', 'u', 'f', 'b' and 'O' kinds).
enum class Kind { kInt64, kUint64, kFloat64, kBool, kObject };

// One chunk of one column; only the vector matching `kind` is filled (for
// kObject: `text`, strings and missing values as TypedColumn's kText holds
// them, or `objects` for bools mixed with missing values).
struct Chunk {
  Kind kind = Kind::kObject;
  std::vector<int64_t> ints;
  std::vector<uint64_t> uints;
  std::vector<double> doubles;  // NaN for missing
  std::vector<uint8_t> bools;
  std::vector<std::string_view> text;
  std::vector<Cell> objects;  // bool or std::monostate
};

// A column's chunks, appended one by one in row order: each kind's values
// in one vector, and which slice of it each chunk is. A column whose chunks
// all have one kind is that vector as is (no concatenation copy).
struct ColumnParts {
  struct Part {
    Kind kind;
    bool as_objects;  // kObject held in `objects` rather than `text`
    size_t begin;
    size_t count;
  };
  std::vector<int64_t> ints;
  std::vector<uint64_t> uints;
  std::vector<double> doubles;
  std::vector<uint8_t> bools;
  std::vector<std::string_view> text;
  std::vector<Cell> objects;
  std::vector<Part> parts;

  // Appends `chunk`'s values; a vector used for the first time reserves
  // `expected_rows` (address space only until written).
  void Append(Chunk& chunk, size_t expected_rows) {
    const auto append = [&](auto& to, auto& from, bool as_objects = false) {
      if (to.empty()) to.reserve(std::max(expected_rows, from.size()));
      parts.push_back({chunk.kind, as_objects, to.size(), from.size()});
      to.insert(to.end(), std::make_move_iterator(from.begin()),
                std::make_move_iterator(from.end()));
    };
    switch (chunk.kind) {
      case Kind::kInt64:
        return append(ints, chunk.ints);
      case Kind::kUint64:
        return append(uints, chunk.uints);
      case Kind::kFloat64:
        return append(doubles, chunk.doubles);
      case Kind::kBool:
        return append(bools, chunk.bools);
      case Kind::kObject:
        if (!chunk.objects.empty()) return append(objects, chunk.objects, /*as_objects=*/true);
        return append(text, chunk.text);
    }
  }
};

// pandas' low_memory chunk size in rows for a table `width` fields wide: the
// largest power of two below 2**20 / width (at least 1).
size_t ChunkRows(size_t width);

// One pandas chunk: the tokens of up to ChunkRows(width) consecutive rows,
// column by column.
struct TokenChunk {
  std::vector<std::vector<std::string_view>> columns;
  size_t rows = 0;
};

// Infers each column of one chunk (pandas infers a dtype per column per
// chunk) into `chunks`, one reused Chunk per column; `as_string` columns are
// text whatever they hold.
void InferTokenChunk(const TokenChunk& tokens, const std::vector<bool>& as_string,
                     std::vector<Chunk>& chunks);

// The concatenation of a column's chunks as pandas makes it, in typed
// storage where the result is one plain dtype (or text), else as cells.
TypedColumn AssembleColumn(std::string name, ColumnParts& column);

// Rows are tokenized one pandas chunk at a time into a slot; full slots are
// inferred on other threads (chunks are independent) while the next ones are
// tokenized, and their values appended to the columns in row order. Memory
// for tokens stays at kSlots chunks (about 16 MB each at most) whatever the
// file's size, and is reused rather than freshly mapped.
class ChunkPipeline {
 public:
  // `as_string`: per column, text whatever it holds (see InferTokenChunk).
  explicit ChunkPipeline(const std::vector<bool>& as_string)
      : as_string_(as_string), parts_(as_string.size()) {
    for (Slot& slot : slots_) slot.inferred.resize(as_string.size());
  }
  ChunkPipeline(const ChunkPipeline&) = delete;
  ChunkPipeline& operator=(const ChunkPipeline&) = delete;
  // A caller may return an error while chunks are in flight: they finish
  // first.
  ~ChunkPipeline() {
    for (Slot& slot : slots_) {
      if (slot.done.valid()) slot.done.wait();
    }
  }

  // Before the first row: each slot's token columns reserve `chunk_rows`
  // (at most `expected_rows`), and each column's storage `expected_rows`.
  void Reserve(size_t chunk_rows, size_t expected_rows) {
    expected_rows_ = expected_rows;
    for (Slot& slot : slots_) {
      slot.tokens.columns.resize(parts_.size());
      for (auto& column : slot.tokens.columns) {
        column.reserve(std::min(chunk_rows, expected_rows));
      }
    }
  }

  // The chunk rows are tokenized into.
  TokenChunk& filling() { return slots_[filling_].tokens; }

  // Infers the filling chunk (on another thread, unless it is small or no
  // thread can be had) and moves on to a free slot.
  void Flush() { Flush(/*last=*/false); }

  // Infers what is left, waits for every chunk and returns each column's
  // parts, in row order.
  std::vector<ColumnParts>& Finish() {
    if (filling().rows > 0) {
      Flush(/*last=*/true);
    } else {
      while (!in_flight_.empty()) CollectOldest();
    }
    return parts_;
  }

 private:
  static constexpr size_t kSlots = 3;
  struct Slot {
    TokenChunk tokens;
    std::vector<Chunk> inferred;  // one per column
    std::future<void> done;
  };

  void Append(Slot& slot) {
    for (size_t j = 0; j < parts_.size(); ++j) parts_[j].Append(slot.inferred[j], expected_rows_);
  }

  void CollectOldest() {
    Slot& slot = slots_[in_flight_.front()];
    in_flight_.pop_front();
    slot.done.get();
    Append(slot);
  }

  // The last chunk, or a small one, is inferred inline, after those in
  // flight.
  void Flush(bool last) {
    Slot& full = slots_[filling_];
    bool started = false;
    if (!last && full.tokens.rows >= 4096) {
      try {
        full.done = std::async(std::launch::async, [&full, this] {
          InferTokenChunk(full.tokens, as_string_, full.inferred);
        });
        started = true;
      } catch (const std::system_error&) {
        // No thread to be had (a process limit): infer it here instead.
      }
    }
    if (started) {
      in_flight_.push_back(filling_);
      if (in_flight_.size() == kSlots) CollectOldest();
    } else {
      while (!in_flight_.empty()) CollectOldest();
      InferTokenChunk(full.tokens, as_string_, full.inferred);
      Append(full);
    }
    for (size_t k = 0; k < kSlots; ++k) {
      if (std::find(in_flight_.begin(), in_flight_.end(), k) == in_flight_.end()) filling_ = k;
    }
    for (auto& column : slots_[filling_].tokens.columns) column.clear();
    slots_[filling_].tokens.rows = 0;
  }

  const std::vector<bool>& as_string_;
  std::vector<ColumnParts> parts_;  // per column, chunks in row order
  Slot slots_[kSlots];
  std::deque<size_t> in_flight_;  // slots being inferred, oldest first
  size_t filling_ = 0;
  size_t expected_rows_ = 0;  // for reserving each column's storage once
};

}  // namespace mlebench::csv_internal

#endif  // MLEBENCH_BASE_INTERNAL_CSV_INFERENCE_H_
