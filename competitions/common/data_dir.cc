#include "competitions/common/data_dir.h"

#include <openssl/evp.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/files.h"
#include "base/status_macros.h"
#include "competitions/common/preparer.h"
#include "formats/zip_archive.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

bool IsNonEmptyDir(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(p, ec) && !fs::is_empty(p, ec);
}

std::string Trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && (s[b] == ' ' || s[b] == '\t' || s[b] == '\r')) ++b;
  while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\r')) --e;
  return std::string(s.substr(b, e - b));
}

// A YAML scalar as yaml.dump writes keys and digests: plain, 'single' (with
// '' for a quote) or "double" (with backslash escapes of \ and ").
absl::StatusOr<std::string> Scalar(std::string_view text, int line) {
  std::string s = Trim(text);
  if (s.empty()) return absl::InvalidArgumentError(absl::StrCat("line ", line, ": empty value"));
  const char q = s.front();
  if (q != '\'' && q != '"') return s;
  if (s.size() < 2 || s.back() != q) {
    return absl::InvalidArgumentError(absl::StrCat("line ", line, ": unterminated quote"));
  }
  std::string out;
  for (size_t i = 1; i + 1 < s.size(); ++i) {
    if (q == '\'' && s[i] == '\'' && i + 2 < s.size() && s[i + 1] == '\'') {
      out += '\'';
      ++i;
    } else if (q == '"' && s[i] == '\\' && i + 2 < s.size()) {
      out += s[++i];
    } else {
      out += s[i];
    }
  }
  return out;
}

// Splits "key: value" at the first ": " (or a trailing ':') outside quotes.
bool SplitKeyValue(std::string_view line, std::string_view& key, std::string_view& value) {
  char quote = 0;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quote != 0) {
      if (c == quote) quote = 0;
      continue;
    }
    if ((c == '\'' || c == '"') && i == 0) {
      quote = c;
    } else if (c == ':' && (i + 1 == line.size() || line[i + 1] == ' ')) {
      key = line.substr(0, i);
      value = i + 1 < line.size() ? line.substr(i + 2) : std::string_view();
      return true;
    }
  }
  return false;
}

bool IsMd5Hex(const std::string& s) {
  return s.size() == 32 && std::all_of(s.begin(), s.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

// Upstream's generate_checksums: the files directly under `dir` whose name
// ends in one of its extensions.
absl::StatusOr<std::map<std::string, std::string>> TopLevelChecksums(const fs::path& dir) {
  static const char* const kExtensions[] = {".csv", ".json", ".jsonl", ".parquet", ".bson"};
  std::map<std::string, std::string> out;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    return absl::NotFoundError(absl::StrCat(dir.string(), " is not a directory"));
  }
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    const std::string name = it->path().filename().string();
    const bool wanted = std::any_of(std::begin(kExtensions), std::end(kExtensions),
                                    [&](const char* ext) {
                                      const std::string_view e(ext);
                                      return name.size() > e.size() &&
                                             name.compare(name.size() - e.size(), e.size(), e) == 0;
                                    });
    if (!wanted) continue;
    ASSIGN_OR_RETURN(std::string md5, Md5File(it->path()));
    out[name] = md5;
  }
  if (ec) return absl::InternalError(absl::StrCat("cannot list ", dir.string(), ": ", ec.message()));
  return out;
}

void CompareChecksums(const std::string& where, const std::map<std::string, std::string>& actual,
                      const std::map<std::string, std::string>& expected,
                      std::vector<std::string>& problems) {
  for (const auto& [name, md5] : expected) {
    auto it = actual.find(name);
    if (it == actual.end()) {
      problems.push_back(absl::StrCat(where, "/", name, " is missing"));
    } else if (it->second != md5) {
      problems.push_back(absl::StrCat(where, "/", name, " has md5 ", it->second, ", expected ", md5));
    }
  }
  for (const auto& [name, md5] : actual) {
    if (!expected.contains(name)) {
      problems.push_back(absl::StrCat(where, "/", name, " is not in checksums.yaml"));
    }
  }
}

}  // namespace

bool IsPrepared(const CompetitionDataDir& dir, const fs::path& answers,
                const fs::path& sample_submission) {
  return IsPreparedDir(dir.prepared(), answers, sample_submission);
}

bool IsPreparedDir(const fs::path& prepared, const fs::path& answers,
                   const fs::path& sample_submission) {
  std::error_code ec;
  return IsNonEmptyDir(prepared / "public") && IsNonEmptyDir(prepared / "private") &&
         fs::is_regular_file(prepared / answers, ec) &&
         fs::is_regular_file(prepared / sample_submission, ec);
}

std::string PreparedDataset(const CompetitionDataDir& dir) {
  return PreparedDirDataset(dir.prepared());
}

std::string PreparedDirDataset(const fs::path& prepared) {
  std::ifstream marker(prepared / kDatasetMarker);
  std::string dataset;
  if (marker && std::getline(marker, dataset) && dataset == "synthetic") return "synthetic";
  return "kaggle";
}

absl::Status PrepareIntoDataDir(const CompetitionDataDir& dir, const fs::path& raw,
                                std::string_view dataset) {
  std::error_code ec;
  const fs::path staged = dir.competition_dir / "prepared.partial";
  fs::remove_all(staged, ec);
  absl::Status s = RunRegisteredPreparer(dir.id, raw, staged / "public", staged / "private");
  if (s.ok()) s = WriteStringToFile(staged / kDatasetMarker, absl::StrCat(std::string(dataset), "\n"));
  if (s.ok()) {
    fs::remove_all(dir.prepared(), ec);
    if (!ec) fs::rename(staged, dir.prepared(), ec);
    if (ec) {
      s = absl::InternalError(absl::StrCat("cannot move ", staged.string(), " to ",
                                           dir.prepared().string(), ": ", ec.message()));
    }
  }
  if (!s.ok()) fs::remove_all(staged, ec);
  return s;
}

absl::StatusOr<std::string> StatManifest(const fs::path& root) {
  std::error_code ec;
  if (!fs::is_directory(root, ec)) {
    return absl::NotFoundError(absl::StrCat(root.string(), " is not a directory"));
  }
  std::vector<std::pair<std::string, std::string>> lines;
  fs::recursive_directory_iterator it(root, fs::directory_options::none, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    struct stat st;
    if (stat(it->path().c_str(), &st) != 0) {
      // A dangling symlink or a file removed while listing.
      return absl::FailedPreconditionError(
          absl::StrCat("cannot stat ", it->path().string(), " while listing ", root.string()));
    }
    if (!S_ISREG(st.st_mode)) continue;
    const std::string rel = it->path().lexically_relative(root).generic_string();
    if (rel.find_first_of("\t\n") != std::string::npos) {
      return absl::InvalidArgumentError(
          absl::StrCat("file name with a tab or newline under ", root.string()));
    }
    const int64_t mtime_ns =
        static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
    lines.emplace_back(rel, absl::StrCat(rel, "\t", static_cast<int64_t>(st.st_size), "\t",
                                         mtime_ns, "\n"));
  }
  if (ec) {
    return absl::InternalError(absl::StrCat("cannot list ", root.string(), ": ", ec.message()));
  }
  std::sort(lines.begin(), lines.end());
  std::string out;
  for (const auto& line : lines) out += line.second;
  return out;
}

absl::StatusOr<UpstreamChecksums> ParseUpstreamChecksums(std::string_view yaml_text) {
  UpstreamChecksums out;
  std::map<std::string, std::string>* section = nullptr;
  int line_number = 0;
  size_t pos = 0;
  while (pos < yaml_text.size()) {
    size_t nl = yaml_text.find('\n', pos);
    if (nl == std::string_view::npos) nl = yaml_text.size();
    std::string_view line = yaml_text.substr(pos, nl - pos);
    pos = nl + 1;
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (Trim(line).empty() || Trim(line).front() == '#') continue;
    const bool indented = line.front() == ' ';
    std::string_view body = line;
    while (!body.empty() && body.front() == ' ') body.remove_prefix(1);
    std::string_view key_text, value_text;
    if (!SplitKeyValue(body, key_text, value_text)) {
      return absl::InvalidArgumentError(
          absl::StrCat("checksums.yaml line ", line_number, ": expected 'key: value'"));
    }
    ASSIGN_OR_RETURN(std::string key, Scalar(key_text, line_number));
    const std::string value = Trim(value_text);
    if (!indented) {
      section = nullptr;
      if (key == "zip") {
        ASSIGN_OR_RETURN(std::string md5, Scalar(value, line_number));
        if (!IsMd5Hex(md5)) {
          return absl::InvalidArgumentError(
              absl::StrCat("checksums.yaml line ", line_number, ": not an md5 digest: ", md5));
        }
        out.zip = md5;
      } else if (key == "public" || key == "private") {
        if (!value.empty() && value != "{}") {
          return absl::InvalidArgumentError(absl::StrCat("checksums.yaml line ", line_number,
                                                         ": expected a mapping under ", key));
        }
        section = key == "public" ? &out.public_files : &out.private_files;
      } else {
        return absl::InvalidArgumentError(
            absl::StrCat("checksums.yaml line ", line_number, ": unknown key ", key));
      }
      continue;
    }
    if (section == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat("checksums.yaml line ", line_number, ": indented entry outside public/private"));
    }
    ASSIGN_OR_RETURN(std::string md5, Scalar(value, line_number));
    if (!IsMd5Hex(md5)) {
      return absl::InvalidArgumentError(
          absl::StrCat("checksums.yaml line ", line_number, ": not an md5 digest: ", md5));
    }
    if (!section->emplace(key, md5).second) {
      return absl::InvalidArgumentError(
          absl::StrCat("checksums.yaml line ", line_number, ": duplicate entry ", key));
    }
  }
  return out;
}

absl::StatusOr<std::string> Md5File(const fs::path& path) {
  std::unique_ptr<FILE, int (*)(FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (file == nullptr) return absl::NotFoundError(absl::StrCat("cannot open ", path.string()));
  std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX*)> ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
  if (ctx == nullptr || EVP_DigestInit_ex(ctx.get(), EVP_md5(), nullptr) != 1) {
    return absl::InternalError("cannot initialise md5");
  }
  std::vector<unsigned char> buffer(1 << 20);
  size_t n;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), file.get())) > 0) {
    if (EVP_DigestUpdate(ctx.get(), buffer.data(), n) != 1) {
      return absl::InternalError("md5 update failed");
    }
  }
  if (std::ferror(file.get())) return absl::InternalError(absl::StrCat("cannot read ", path.string()));
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (EVP_DigestFinal_ex(ctx.get(), digest, &length) != 1) {
    return absl::InternalError("md5 final failed");
  }
  static const char kHex[] = "0123456789abcdef";
  std::string hex;
  for (unsigned int i = 0; i < length; ++i) {
    hex += kHex[digest[i] >> 4];
    hex += kHex[digest[i] & 15];
  }
  return hex;
}

absl::Status VerifyUpstreamChecksums(const CompetitionDataDir& dir,
                                     const UpstreamChecksums& expected) {
  std::error_code ec;
  std::optional<fs::path> zip;
  if (fs::is_regular_file(dir.zip(), ec)) zip = dir.zip();
  return VerifyUpstreamChecksumsOf(dir.id, dir.public_dir(), dir.private_dir(), zip, expected);
}

absl::Status VerifyUpstreamChecksumsOf(std::string_view id, const fs::path& public_dir,
                                       const fs::path& private_dir,
                                       const std::optional<fs::path>& zip,
                                       const UpstreamChecksums& expected) {
  std::vector<std::string> problems;
  absl::StatusOr<std::map<std::string, std::string>> pub = TopLevelChecksums(public_dir);
  if (!pub.ok()) return pub.status();
  absl::StatusOr<std::map<std::string, std::string>> priv = TopLevelChecksums(private_dir);
  if (!priv.ok()) return priv.status();
  CompareChecksums("public", *pub, expected.public_files, problems);
  CompareChecksums("private", *priv, expected.private_files, problems);
  if (expected.zip.has_value() && zip.has_value()) {
    ASSIGN_OR_RETURN(std::string md5, Md5File(*zip));
    if (md5 != *expected.zip) {
      problems.push_back(absl::StrCat(zip->filename().string(), " has md5 ", md5, ", expected ",
                                      *expected.zip));
    }
  }
  if (problems.empty()) return absl::OkStatus();
  return absl::FailedPreconditionError(
      absl::StrCat("prepared data of ", std::string(id),
                   " does not match upstream's checksums.yaml: ", absl::StrJoin(problems, "; ")));
}

absl::StatusOr<PreparedData> EnsurePreparedData(const CompetitionDataDir& dir,
                                                const fs::path& answers,
                                                const fs::path& sample_submission,
                                                const std::optional<UpstreamChecksums>& checksums) {
  std::error_code ec;
  std::string what;
  const bool taken_as_is = IsPrepared(dir, answers, sample_submission);
  if (taken_as_is) {
    what = absl::StrCat("took ", dir.prepared().string(), " as is");
  } else {
    if (fs::exists(dir.prepared(), ec) && !fs::is_empty(dir.prepared(), ec)) {
      return absl::FailedPreconditionError(absl::StrCat(
          dir.prepared().string(), " is incomplete (needs non-empty public/ and private/, ",
          answers.generic_string(), " and ", sample_submission.generic_string(),
          "); it is left untouched: finish it, or remove it to prepare from raw/"));
    }
    if (!fs::is_directory(dir.raw(), ec)) {
      if (!fs::is_regular_file(dir.zip(), ec)) {
        return absl::NotFoundError(absl::StrCat("no data for ", dir.id, ": neither ",
                                                dir.raw().string(), " nor ", dir.zip().string()));
      }
      const fs::path staged = dir.competition_dir / "raw.partial";
      fs::remove_all(staged, ec);
      // Real downloads reach hundreds of GB (the default guard is for
      // synthetic and prepared archives); 4 TiB still stops a zip bomb.
      ExtractZipOptions options;
      options.max_total_bytes = int64_t{4} << 40;
      absl::Status s = ExtractZip(dir.zip(), staged, options);
      if (s.ok()) {
        fs::rename(staged, dir.raw(), ec);
        if (ec) s = absl::InternalError(absl::StrCat("cannot move ", staged.string(), ": ", ec.message()));
      }
      if (!s.ok()) {
        fs::remove_all(staged, ec);
        return s;
      }
    }
    const bool synthetic = fs::exists(dir.raw() / kSyntheticRawMarker, ec);
    RETURN_IF_ERROR(PrepareIntoDataDir(dir, dir.raw(), synthetic ? "synthetic" : "kaggle"));
    if (!IsPrepared(dir, answers, sample_submission)) {
      return absl::InternalError(absl::StrCat("the preparer of ", dir.id, " did not write ",
                                              answers.generic_string(), " and ",
                                              sample_submission.generic_string()));
    }
    what = absl::StrCat("prepared ", dir.prepared().string(), " from ", dir.raw().string());
  }
  std::string checksum_state = "not given";
  if (checksums.has_value()) {
    // Data prepared elsewhere (upstream's tool) and here alike must match to
    // the byte.
    RETURN_IF_ERROR(VerifyUpstreamChecksums(dir, *checksums));
    what += "; checksums match upstream's";
    checksum_state = "verified";
  }
  ASSIGN_OR_RETURN(std::string listing, StatManifest(dir.prepared()));
  PreparedData out;
  out.dataset = PreparedDataset(dir);
  out.log = what;
  out.handle = absl::StrCat("competition\t", dir.id, "\ndataset\t", out.dataset, "\nchecksums\t",
                            checksum_state, "\nfiles\n", listing);
  return out;
}

absl::StatusOr<std::string> CheckPreparedInputs(std::string_view id, const fs::path& prepared,
                                                const fs::path& answers,
                                                const fs::path& sample_submission,
                                                const std::optional<UpstreamChecksums>& checksums) {
  if (!IsPreparedDir(prepared, answers, sample_submission)) {
    return absl::FailedPreconditionError(absl::StrCat(
        "the prepared data of ", std::string(id), " in ", prepared.string(),
        " is incomplete (needs non-empty public/ and private/, ", answers.generic_string(),
        " and ", sample_submission.generic_string(),
        "): finish it in the data dir, or remove prepared/ there to prepare from raw/, then run "
        "`bazel sync --only=mlebench_data`"));
  }
  if (checksums.has_value()) {
    RETURN_IF_ERROR(VerifyUpstreamChecksumsOf(id, prepared / "public", prepared / "private",
                                              std::nullopt, *checksums));
  }
  return PreparedDirDataset(prepared);
}

absl::StatusOr<std::string> PrepareFromInputs(std::string_view id, const RawInputs& inputs,
                                              const fs::path& public_dir,
                                              const fs::path& private_dir,
                                              const std::optional<UpstreamChecksums>& checksums) {
  if (inputs.raw.has_value() == inputs.zip.has_value()) {
    return absl::InvalidArgumentError("give exactly one of a raw directory and a Kaggle zip");
  }
  std::error_code ec;
  fs::path raw;
  std::optional<fs::path> extracted;
  if (inputs.raw.has_value()) {
    raw = *inputs.raw;
  } else {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = (fs::path(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") /
                           "mlebench-raw-XXXXXX")
                              .string();
    if (mkdtemp(pattern.data()) == nullptr) {
      return absl::InternalError(absl::StrCat("cannot create a directory ", pattern));
    }
    extracted = fs::path(pattern);
    raw = *extracted / "raw";
    // As in EnsurePreparedData: real downloads reach hundreds of GB.
    ExtractZipOptions options;
    options.max_total_bytes = int64_t{4} << 40;
    absl::Status s = ExtractZip(*inputs.zip, raw, options);
    if (!s.ok()) {
      fs::remove_all(*extracted, ec);
      return s;
    }
  }
  const bool synthetic = fs::exists(raw / kSyntheticRawMarker, ec);
  absl::Status s = RunRegisteredPreparer(id, raw, public_dir, private_dir);
  if (extracted.has_value()) fs::remove_all(*extracted, ec);
  RETURN_IF_ERROR(s);
  if (checksums.has_value()) {
    RETURN_IF_ERROR(VerifyUpstreamChecksumsOf(id, public_dir, private_dir, inputs.zip, *checksums));
  }
  return std::string(synthetic ? "synthetic" : "kaggle");
}

absl::Status CheckHandleIsCurrent(std::string_view handle, const fs::path& prepared) {
  constexpr std::string_view kFiles = "\nfiles\n";
  const size_t at = handle.find(kFiles);
  if (at == std::string_view::npos) {
    return absl::InvalidArgumentError("not a data handle: no files section");
  }
  const std::string_view recorded = handle.substr(at + kFiles.size());
  absl::StatusOr<std::string> now = StatManifest(prepared);
  if (!now.ok()) {
    return absl::FailedPreconditionError(
        absl::StrCat("prepared data changed since it was prepared: ", std::string(now.status().message())));
  }
  if (*now == recorded) return absl::OkStatus();
  // Name the first line that differs, for a useful message.
  size_t i = 0;
  while (i < now->size() && i < recorded.size() && (*now)[i] == recorded[i]) ++i;
  const size_t line_start = now->rfind('\n', i == 0 ? 0 : i - 1);
  const size_t begin = (line_start == std::string::npos || i == 0) ? 0 : line_start + 1;
  std::string_view rest = i < now->size() ? std::string_view(*now).substr(begin)
                                          : recorded.substr(std::min(begin, recorded.size()));
  const std::string path(rest.substr(0, rest.find('\t')));
  return absl::FailedPreconditionError(absl::StrCat(
      "prepared data in ", prepared.string(), " changed after the build last scanned it (",
      path.empty() ? std::string("file list") : path, ")"));
}

}  // namespace mlebench
