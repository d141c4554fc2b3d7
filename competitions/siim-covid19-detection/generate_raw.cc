// Synthetic raw download of siim-covid19-detection in Kaggle's layout:
// train_study_level.csv (id = "<12 hex>_study" and the one-hot columns
// Negative for Pneumonia, Typical/Indeterminate/Atypical Appearance),
// train_image_level.csv (id = "<12 hex>_image", boxes as a Python list of
// {'x','y','width','height'} dicts or empty, label = "opacity 1 xmin ymin
// xmax ymax" per box or "none 1 0 0 1 1", StudyInstanceUID), the DICOM
// files train/<study>/<series>/<image>.dcm and test/<study>/<series>/
// <image>.dcm (32x32 8-bit chest films), and sample_submission.csv for the
// test studies and images. Opacities are bright patches exactly where their
// boxes are: negative studies have none, typical ones two (one per lung),
// indeterminate and atypical ones one, so brightness tells the labels apart.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <system_error>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/status_macros.h"
#include "synthetic/csv_text.h"
#include "synthetic/dicom_writer.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr int kSize = 32;
constexpr int kNumTrainStudies = 80;
constexpr int kNumTestStudies = 10;
constexpr double kTwoImageRate = 0.15;  // a few studies hold a second film
// negative, typical, indeterminate, atypical: about Kaggle's proportions.
const std::vector<double> kStudyLabelWeights = {0.28, 0.47, 0.17, 0.08};

struct Box {
  double x, y, width, height;
};

struct Study {
  std::string id;  // 12 hex digits, without "_study"
  int label = 0;   // index into kStudyLabelWeights
};

std::string UniqueHex(SyntheticRng& rng, std::set<std::string>& used) {
  while (true) {
    std::string hex = rng.Hex(12);
    if (used.insert(hex).second) return hex;
  }
}

// A DICOM UID under the "2.25" (UUID-derived) root.
std::string RandomUid(SyntheticRng& rng) { return absl::StrCat("2.25.", rng.Next()); }

// Kaggle keeps five decimals.
double Round5(double value) { return std::round(value * 1e5) / 1e5; }

std::vector<Box> DrawBoxes(SyntheticRng& rng, int study_label) {
  std::vector<Box> boxes;
  auto lung_box = [&](double x_lo, double x_hi) {
    const double width = rng.Uniform(6, 11), height = rng.Uniform(10, 18);
    const double x = rng.Uniform(x_lo, x_hi), y = rng.Uniform(3, kSize - 3 - height);
    boxes.push_back({Round5(x), Round5(y), Round5(width), Round5(height)});
  };
  switch (study_label) {
    case 0:
      break;
    case 1:  // typical: both lungs
      lung_box(1, 4);
      lung_box(17, 20);
      break;
    case 2:  // indeterminate: one lung
      if (rng.Bernoulli(0.5)) {
        lung_box(1, 4);
      } else {
        lung_box(17, 20);
      }
      break;
    default: {  // atypical: a small central patch
      const double width = rng.Uniform(5, 8), height = rng.Uniform(5, 8);
      boxes.push_back({Round5(rng.Uniform(11, 14)), Round5(rng.Uniform(10, 16)), Round5(width),
                       Round5(height)});
    }
  }
  return boxes;
}

std::vector<uint8_t> DrawFilm(SyntheticRng& rng, const std::vector<Box>& boxes) {
  std::vector<uint8_t> pixels(kSize * kSize);
  for (int y = 0; y < kSize; ++y) {
    for (int x = 0; x < kSize; ++x) {
      double value = 55 + rng.Normal(0, 10);
      for (const Box& b : boxes) {
        if (x + 0.5 >= b.x && x + 0.5 <= b.x + b.width && y + 0.5 >= b.y &&
            y + 0.5 <= b.y + b.height) {
          value += 90;
        }
      }
      pixels[y * kSize + x] = static_cast<uint8_t>(std::clamp(std::round(value), 0.0, 255.0));
    }
  }
  return pixels;
}

// boxes as Kaggle writes them: str() of a list of dicts.
std::string BoxesText(const std::vector<Box>& boxes) {
  std::string text = "[";
  for (size_t i = 0; i < boxes.size(); ++i) {
    absl::StrAppend(&text, i == 0 ? "" : ", ",
                    absl::StrFormat("{'x': %.5f, 'y': %.5f, 'width': %.5f, 'height': %.5f}",
                                    boxes[i].x, boxes[i].y, boxes[i].width, boxes[i].height));
  }
  return text + "]";
}

std::string LabelText(const std::vector<Box>& boxes) {
  if (boxes.empty()) return "none 1 0 0 1 1";
  std::string text;
  for (const Box& b : boxes) {
    absl::StrAppend(
        &text, text.empty() ? "" : " ",
        absl::StrFormat("opacity 1 %.5f %.5f %.5f %.5f", b.x, b.y, b.x + b.width, b.y + b.height));
  }
  return text;
}

struct ImageRow {
  std::string id;  // 12 hex digits, without "_image"
  std::vector<Box> boxes;
  std::string study;
};

// Writes the films of `study` under split_dir/<study>/<series>/ and returns
// their rows.
absl::StatusOr<std::vector<ImageRow>> WriteStudy(SyntheticRng& rng, std::set<std::string>& used,
                                                 const fs::path& split_dir, const Study& study) {
  const std::string series = UniqueHex(rng, used);
  const std::string study_uid = RandomUid(rng), series_uid = RandomUid(rng);
  const int films = rng.Bernoulli(kTwoImageRate) ? 2 : 1;
  std::vector<ImageRow> rows;
  std::error_code error;
  fs::create_directories(split_dir / study.id / series, error);
  if (error) return absl::InternalError(absl::StrCat("cannot create ", split_dir.string()));
  for (int n = 1; n <= films; ++n) {
    ImageRow row{
        .id = UniqueHex(rng, used), .boxes = DrawBoxes(rng, study.label), .study = study.id};
    DicomImage image;
    image.sop_class_uid = "1.2.840.10008.5.1.4.1.1.1.1";  // digital X-ray
    image.modality = "DX";
    image.sop_instance_uid = RandomUid(rng);
    image.study_instance_uid = study_uid;
    image.series_instance_uid = series_uid;
    image.patient_id = UniqueHex(rng, used);
    image.instance_number = n;
    image.rows = kSize;
    image.columns = kSize;
    image.pixels = DrawFilm(rng, row.boxes);
    ASSIGN_OR_RETURN(std::string bytes, EncodeDicom(image));
    RETURN_IF_ERROR(
        WriteStringToFile(split_dir / study.id / series / absl::StrCat(row.id, ".dcm"), bytes));
    rows.push_back(std::move(row));
  }
  return rows;
}

absl::Status Generate(const fs::path& raw_dir, uint64_t seed) {
  const SyntheticRng root(seed);
  SyntheticRng ids_rng = root.Fork(1), films_rng = root.Fork(2);
  std::set<std::string> used;
  auto draw_studies = [&](int count) {
    std::vector<Study> studies;
    for (int i = 0; i < count; ++i) {
      studies.push_back(
          {UniqueHex(ids_rng, used), static_cast<int>(ids_rng.Categorical(kStudyLabelWeights))});
    }
    std::sort(studies.begin(), studies.end(),
              [](const Study& a, const Study& b) { return a.id < b.id; });
    return studies;
  };
  const std::vector<Study> train = draw_studies(kNumTrainStudies);
  const std::vector<Study> test = draw_studies(kNumTestStudies);

  CsvTextBuilder studies_csv;
  studies_csv.Row({"id", "Negative for Pneumonia", "Typical Appearance", "Indeterminate Appearance",
                   "Atypical Appearance"});
  std::vector<ImageRow> train_images;
  for (const Study& study : train) {
    studies_csv.String(study.id + "_study");
    for (int k = 0; k < 4; ++k) studies_csv.Int(k == study.label ? 1 : 0);
    studies_csv.EndRow();
    ASSIGN_OR_RETURN(std::vector<ImageRow> rows,
                     WriteStudy(films_rng, used, raw_dir / "train", study));
    train_images.insert(train_images.end(), rows.begin(), rows.end());
  }
  std::sort(train_images.begin(), train_images.end(),
            [](const ImageRow& a, const ImageRow& b) { return a.id < b.id; });
  CsvTextBuilder images_csv;
  images_csv.Row({"id", "boxes", "label", "StudyInstanceUID"});
  for (const ImageRow& row : train_images) {
    images_csv.String(row.id + "_image");
    if (row.boxes.empty()) {
      images_csv.Missing();
    } else {
      images_csv.String(BoxesText(row.boxes));
    }
    images_csv.String(LabelText(row.boxes)).String(row.study).EndRow();
  }

  // Kaggle's sample submission: the test studies, then their films.
  CsvTextBuilder sample_csv;
  sample_csv.Row({"id", "PredictionString"});
  std::vector<ImageRow> test_images;
  for (const Study& study : test) {
    sample_csv.String(study.id + "_study").String("negative 1 0 0 1 1").EndRow();
    ASSIGN_OR_RETURN(std::vector<ImageRow> rows,
                     WriteStudy(films_rng, used, raw_dir / "test", study));
    test_images.insert(test_images.end(), rows.begin(), rows.end());
  }
  for (const ImageRow& row : test_images) {
    sample_csv.String(row.id + "_image").String("none 1 0 0 1 1").EndRow();
  }

  for (const auto& [name, text] :
       {std::pair<const char*, const std::string*>{"train_study_level.csv", &studies_csv.text()},
        {"train_image_level.csv", &images_csv.text()},
        {"sample_submission.csv", &sample_csv.text()}}) {
    RETURN_IF_ERROR(WriteStringToFile(raw_dir / name, *text));
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID,
                                             .generate = &Generate});

}  // namespace
}  // namespace mlebench
