// Upstream's alaska2-image-steganalysis/prepare.py: Kaggle's Cover/ images
// (sorted by name) are split by sklearn's train_test_split (5000 test images,
// random_state 42). Train images are renumbered 00001.jpg, ... and copied,
// with their JMiPOD/JUNIWARD/UERD versions, to public/<folder>/. The test
// images are shuffled with Python's random.seed(0) and renumbered 0001.jpg,
// ...; each is, by random.choice, either the cover (Label 0) or the version
// from a randomly chosen algorithm (Label 1), written to public/Test/.
// private/test.csv holds Id,Label; public/sample_submission.csv the same Ids
// with Label 0.

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "competitions/common/copy_files.h"
#include "competitions/common/preparer.h"
#include "pycompat/python_random.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr int64_t kTestSize = 5000;
const char* const kAlgorithms[] = {"JMiPOD", "JUNIWARD", "UERD"};

// pathlib's sorted(dir.glob("*.jpg")) names.
std::vector<std::string> JpgNames(const fs::path& dir) {
  std::vector<std::string> names;
  std::error_code error;
  if (!fs::is_directory(dir, error)) return names;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, error)) {
    const std::string name = entry.path().filename().string();
    if (name.size() >= 4 && name.ends_with(".jpg") && entry.is_regular_file()) names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& /*scratch*/) {
  const std::vector<std::string> covers = JpgNames(raw / "Cover");
  TrainTestSplitOptions options;
  options.test_size = kTestSize;
  options.random_state = 42;
  absl::StatusOr<TrainTestIndices> split =
      TrainTestSplitIndices(static_cast<int64_t>(covers.size()), options);
  if (!split.ok()) {
    return absl::Status(split.status().code(),
                        absl::StrCat("splitting the ", covers.size(), " images of Cover/: ",
                                     split.status().message()));
  }
  for (const char* folder : {"Cover", "Test", "JMiPOD", "JUNIWARD", "UERD"}) {
    fs::create_directories(public_dir / folder);
  }
  for (size_t i = 0; i < split->train_indices.size(); ++i) {
    const std::string& name = covers[split->train_indices[i]];
    const std::string new_name = absl::StrFormat("%05d.jpg", i + 1);
    RETURN_IF_ERROR(CopyRegularFile(raw / "Cover" / name, public_dir / "Cover" / new_name));
    for (const char* algorithm : kAlgorithms) {
      RETURN_IF_ERROR(CopyRegularFile(raw / algorithm / name, public_dir / algorithm / new_name));
    }
  }

  std::vector<int64_t> test = split->test_indices;
  PythonRandom random(0);
  random.Shuffle(test);
  Column ids{.name = "Id", .dtype = Dtype::kObject, .cells = {}};
  Column labels{.name = "Label", .dtype = Dtype::kInt64, .cells = {}};
  for (size_t i = 0; i < test.size(); ++i) {
    const std::string& name = covers[test[i]];
    const std::string test_id = absl::StrFormat("%04d.jpg", i + 1);
    // random.choice([True, False]): index 0 is True, the cover.
    ASSIGN_OR_RETURN(int64_t cover_or_stego, random.ChoiceIndex(2));
    fs::path source = raw / "Cover" / name;
    int64_t label = 0;
    if (cover_or_stego == 1) {
      ASSIGN_OR_RETURN(int64_t algorithm, random.ChoiceIndex(3));
      source = raw / kAlgorithms[algorithm] / name;
      label = 1;
    }
    RETURN_IF_ERROR(CopyRegularFile(source, public_dir / "Test" / test_id));
    ids.cells.push_back(test_id);
    labels.cells.push_back(label);
  }
  Column zeros{.name = "Label", .dtype = Dtype::kInt64,
               .cells = std::vector<Cell>(ids.cells.size(), Cell(int64_t{0}))};
  const Table answers({ids, std::move(labels)});
  const Table sample({std::move(ids), std::move(zeros)});
  RETURN_IF_ERROR(WriteCsvFile(answers, (private_dir / "test.csv").string()));
  return WriteCsvFile(sample, (public_dir / "sample_submission.csv").string());
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID, .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
