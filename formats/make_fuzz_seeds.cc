// Writes the seed corpora of the formats' fuzz targets (formats/*_fuzzer_corpus/)
// from the kinds of cases their unit tests use, with the project's own
// writers:
//   ./bazelw run //formats:make_fuzz_seeds -- $PWD/formats
// Found inputs are added to the corpora by hand, as regression cases, and
// are not touched by this program (it writes files named seed_*).

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/files.h"
#include "base/table.h"
#include "formats/bson.h"
#include "formats/npy.h"
#include "formats/parquet.h"
#include "formats/seven_zip.h"
#include "formats/tar_archive.h"
#include "formats/tfrecord.h"
#include "formats/zip_archive.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

void Put(const fs::path& dir, const std::string& name, const std::string& bytes) {
  fs::create_directories(dir);
  FILE* f = std::fopen((dir / name).c_str(), "wb");
  if (f == nullptr || std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size()) {
    std::fprintf(stderr, "cannot write %s\n", (dir / name).c_str());
    std::exit(1);
  }
  std::fclose(f);
}

std::string Must(const absl::StatusOr<std::string>& bytes) {
  if (!bytes.ok()) {
    std::fprintf(stderr, "%s\n", bytes.status().ToString().c_str());
    std::exit(1);
  }
  return *bytes;
}

void Check(const absl::Status& status) {
  if (!status.ok()) {
    std::fprintf(stderr, "%s\n", status.ToString().c_str());
    std::exit(1);
  }
}

Table SampleTable() {
  return Table({
      Column{"id", Dtype::kInt64, {int64_t{1}, int64_t{2}, int64_t{-3}}},
      Column{"x", Dtype::kFloat64, {0.5, std::nan(""), -0.0}},
      Column{"ok", Dtype::kBool, {true, false, true}},
      Column{"s", Dtype::kObject, {std::string("a"), std::monostate(), std::string("\xC3\xBC")}},
  });
}

void ParquetSeeds(const fs::path& dir) {
  const Table table = SampleTable();
  int n = 0;
  for (ParquetCompression codec : {ParquetCompression::kUncompressed, ParquetCompression::kSnappy,
                                   ParquetCompression::kGzip, ParquetCompression::kZstd}) {
    for (bool dictionary : {false, true}) {
      for (int version : {1, 2}) {
        ParquetWriteOptions options;
        options.compression = codec;
        options.dictionary = dictionary;
        options.data_page_version = version;
        options.rows_per_page = n % 3 == 0 ? 2 : 0;
        Put(dir, absl::StrCat("seed_", n++), Must(SerializeParquet(table, options)));
      }
    }
  }
  ParquetWriteOptions fastparquet;
  fastparquet.layout = ParquetLayout::kFastparquet;
  fastparquet.storage = {{"id", ParquetStorage::kInt32}};
  Table numeric({SampleTable().columns()[0], SampleTable().columns()[1]});
  Put(dir, "seed_fastparquet", Must(SerializeParquet(numeric, fastparquet)));
}

void NpySeeds(const fs::path& dir) {
  const std::vector<NpyArray> arrays = {
      {"<f4", false, {2, 3}, std::string(24, '\1')},
      {"|u1", false, {5}, "hello"},
      {"<i8", true, {2, 2}, std::string(32, '\0')},
      {"|b1", false, {}, std::string(1, '\1')},
      {"<U2", false, {1}, std::string(8, 'a')},
      {"|S3", false, {2, 0}, ""},
      {"<c16", false, {1}, std::string(16, '\0')},
  };
  for (size_t i = 0; i < arrays.size(); ++i) {
    Put(dir, absl::StrCat("seed_", i), Must(SerializeNpy(arrays[i])));
  }
}

void BsonSeeds(const fs::path& dir) {
  const BsonDocument hello{{BsonElement::String("hello", "world")}};
  const BsonDocument nested{{
      BsonElement::Int32("_id", 7),
      BsonElement::Array("imgs", {BsonElement::Subdocument(
                                     "", BsonDocument{{BsonElement::Binary("picture", "\xFF\xD8")}})}),
      BsonElement::Int64("category_id", int64_t{1000010653}),
      BsonElement::Double("d", 5.05),
      BsonElement::Bool("b", true),
      BsonElement::Null("n"),
  }};
  Put(dir, "seed_0", EncodeBson(hello));
  Put(dir, "seed_1", EncodeBson(nested));
  Put(dir, "seed_2", EncodeBson(hello) + EncodeBson(nested) + EncodeBson(BsonDocument{}));
}

void TfRecordSeeds(const fs::path& dir) {
  const std::string example = SerializeExample({
      {"image_name", std::vector<std::string>{"ISIC_0000000"}},
      {"image", std::vector<std::string>{std::string("\xFF\xD8\xFF\xE0", 4)}},
      {"target", std::vector<int64_t>{1, 300}},
      {"f", std::vector<float>{0.5f}},
  });
  Put(dir, "seed_0", WriteTfRecords({example}));
  Put(dir, "seed_1", WriteTfRecords({example, "", "not an example"}));
  Put(dir, "seed_2", WriteTfRecords({}));
}

void ArchiveSeeds(const fs::path& formats) {
  const fs::path tmp = fs::temp_directory_path() / "make_fuzz_seeds";
  fs::remove_all(tmp);
  fs::create_directories(tmp);
  const fs::path zip = tmp / "a.zip";
  Check(WriteZip(zip, {ZipEntry::FromBytes("train.csv", "id,y\n1,2\n"), ZipEntry::Directory("d/"),
                       ZipEntry::FromBytes("d/b.txt", std::string(300, 'b'))}));
  Put(formats / "zip_fuzzer_corpus", "seed_0", Must(ReadFileToString(zip)));
  Check(WriteZip(zip, {ZipEntry::FromBytes("escape_file", "x"),
                       ZipEntry::FromBytes("escape_dir/y", "y")}));
  Put(formats / "zip_fuzzer_corpus", "seed_1", Must(ReadFileToString(zip)));

  const fs::path seven = tmp / "a.7z";
  Check(Write7z(seven, {SevenZipEntry::FromBytes("train.csv", "id,y\n1,2\n"),
                        SevenZipEntry::Directory("d"), SevenZipEntry::FromBytes("d/e", ""),
                        SevenZipEntry::FromBytes("d/b.txt", std::string(300, 'b'))}));
  Put(formats / "seven_zip_fuzzer_corpus", "seed_0", Must(ReadFileToString(seven)));
  Check(Write7z(seven, {SevenZipEntry::FromBytes("escape_file", "x"),
                        SevenZipEntry::FromBytes("escape_dir/y", "y")}));
  Put(formats / "seven_zip_fuzzer_corpus", "seed_1", Must(ReadFileToString(seven)));

  const fs::path tar = tmp / "a.tar";
  for (bool gzip : {false, true}) {
    Check(WriteTar(tar, {{"train.csv", "id,y\n1,2\n", {}}, {"d/b.txt", std::string(300, 'b'), {}}},
                   gzip));
    Put(formats / "tar_fuzzer_corpus", absl::StrCat("seed_", gzip), Must(ReadFileToString(tar)));
  }
  Check(WriteTar(tar, {{"escape_file", "x", {}}, {"escape_dir/y", "y", {}}}, false));
  Put(formats / "tar_fuzzer_corpus", "seed_2", Must(ReadFileToString(tar)));
  fs::remove_all(tmp);
}

}  // namespace
}  // namespace mlebench

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_fuzz_seeds FORMATS_DIR (absolute)\n");
    return 2;
  }
  const std::filesystem::path formats = argv[1];
  mlebench::ParquetSeeds(formats / "parquet_fuzzer_corpus");
  mlebench::NpySeeds(formats / "npy_fuzzer_corpus");
  mlebench::BsonSeeds(formats / "bson_fuzzer_corpus");
  mlebench::TfRecordSeeds(formats / "tfrecord_fuzzer_corpus");
  mlebench::ArchiveSeeds(formats);
  return 0;
}
