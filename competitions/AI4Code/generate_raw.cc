// Synthetic raw download of AI4Code, laid out as on Kaggle: train/<id>.json
// (one notebook each: a "cell_type" and a "source" object keyed by cell id,
// the code cells in their true order followed by the markdown cells
// shuffled), train_orders.csv (id, cell_order: the true order),
// train_ancestors.csv (id, ancestor_id, parent_id), and test/ with
// sample_submission.csv for a few notebooks. Notebook ids are 14 hex digits,
// cell and ancestor ids 8. Upstream's prepare.py holds out exactly 20000
// notebooks, so there are a little over 20000 (tiny) notebooks.
//
// Signal: a notebook is a sequence of steps (load, clean, plot, ...) in a
// fixed order; each step is a code cell, often preceded by a markdown cell
// naming the step, so a model that places each markdown cell before the code
// of its step recovers the order.
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/status_macros.h"
#include "synthetic/csv_text.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr int kNumTrain = 21400;
constexpr int kNumTest = 4;

struct Step {
  const char* code;
  const char* markdown;
};
const std::vector<Step> kSteps = {
    {"import pandas", "# Setup"},
    {"read_csv()", "## Load"},
    {"dropna()", "## Clean"},
    {"fit()", "## Train"},
    {"to_csv()", "## Submit"},
};

// A JSON string literal of ASCII text.
std::string Quoted(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out + "\"";
}

struct Notebook {
  std::string id;
  std::vector<std::string> order;       // cell ids, true order
  std::vector<std::string> file_order;  // cell ids as the file lists them
  std::string json;                // the file: code cells, then markdown shuffled
};

Notebook MakeNotebook(SyntheticRng& rng, std::string id, std::set<std::string>& cell_ids) {
  Notebook nb;
  nb.id = std::move(id);
  const auto new_cell_id = [&] {
    std::string cell = rng.Hex(8);
    while (!cell_ids.insert(cell).second) cell = rng.Hex(8);
    return cell;
  };
  struct Cell {
    std::string id, type, source;
  };
  std::vector<Cell> code, markdown;
  for (const Step& step : kSteps) {
    if (!rng.Bernoulli(0.4)) continue;
    if (rng.Bernoulli(0.6)) {
      markdown.push_back({new_cell_id(), "markdown", step.markdown});
      nb.order.push_back(markdown.back().id);
    }
    code.push_back({new_cell_id(), "code", step.code});
    nb.order.push_back(code.back().id);
  }
  if (code.empty()) {  // every notebook has code
    code.push_back({new_cell_id(), "code", "print(1)"});
    nb.order.push_back(code.back().id);
  }
  if (rng.Bernoulli(0.2)) {
    markdown.push_back({new_cell_id(), "markdown", "Thanks!"});
    nb.order.push_back(markdown.back().id);
  }
  rng.Shuffle(markdown);
  std::vector<Cell> file = code;
  file.insert(file.end(), markdown.begin(), markdown.end());
  std::string types, sources;
  for (const Cell& cell : file) {
    nb.file_order.push_back(cell.id);
    absl::StrAppend(&types, types.empty() ? "" : ",", Quoted(cell.id), ":", Quoted(cell.type));
    absl::StrAppend(&sources, sources.empty() ? "" : ",", Quoted(cell.id), ":",
                    Quoted(cell.source));
  }
  nb.json = absl::StrCat("{\"cell_type\":{", types, "},\"source\":{", sources, "}}");
  return nb;
}

absl::Status Generate(const fs::path& raw_dir, uint64_t seed) {
  const SyntheticRng root(seed);
  SyntheticRng id_rng = root.Fork(1), cell_rng = root.Fork(2), family_rng = root.Fork(3);
  std::set<std::string> notebook_ids, cell_ids;
  const auto new_notebook_id = [&] {
    std::string id = id_rng.Hex(14);
    while (!notebook_ids.insert(id).second) id = id_rng.Hex(14);
    return id;
  };
  std::error_code error;
  fs::create_directories(raw_dir / "train", error);
  fs::create_directories(raw_dir / "test", error);
  if (error) return absl::InternalError("cannot create the raw directories");

  CsvTextBuilder orders, ancestors;
  orders.Row({"id", "cell_order"});
  ancestors.Row({"id", "ancestor_id", "parent_id"});
  int made = 0;
  while (made < kNumTrain) {
    // A family of forks of one ancestor: mostly a single notebook.
    const int size = family_rng.Bernoulli(0.75) ? 1 : static_cast<int>(family_rng.UniformInt(2, 4));
    const std::string ancestor = family_rng.Hex(8);
    std::string first;
    for (int k = 0; k < size && made < kNumTrain; ++k, ++made) {
      Notebook nb = MakeNotebook(cell_rng, new_notebook_id(), cell_ids);
      std::string order;
      for (const std::string& cell : nb.order) absl::StrAppend(&order, order.empty() ? "" : " ", cell);
      orders.String(nb.id).String(order).EndRow();
      ancestors.String(nb.id).String(ancestor);
      if (k == 0) {
        ancestors.Missing();
        first = nb.id;
      } else {
        ancestors.String(first);
      }
      ancestors.EndRow();
      RETURN_IF_ERROR(WriteStringToFile(raw_dir / "train" / (nb.id + ".json"), nb.json));
    }
  }

  CsvTextBuilder sample;
  sample.Row({"id", "cell_order"});
  for (int i = 0; i < kNumTest; ++i) {
    Notebook nb = MakeNotebook(cell_rng, new_notebook_id(), cell_ids);
    RETURN_IF_ERROR(WriteStringToFile(raw_dir / "test" / (nb.id + ".json"), nb.json));
    // Kaggle's sample lists each test notebook's cells in file order.
    std::string order;
    for (const std::string& cell : nb.file_order) {
      absl::StrAppend(&order, order.empty() ? "" : " ", cell);
    }
    sample.String(nb.id).String(order).EndRow();
  }

  for (const auto& [name, text] :
       {std::pair<std::string, const std::string*>{"train_orders.csv", &orders.text()},
        {"train_ancestors.csv", &ancestors.text()},
        {"sample_submission.csv", &sample.text()}}) {
    RETURN_IF_ERROR(WriteStringToFile(raw_dir / name, *text));
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID, .generate = &Generate});

}  // namespace
}  // namespace mlebench
