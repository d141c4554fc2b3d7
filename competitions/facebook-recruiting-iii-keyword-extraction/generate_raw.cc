// Synthetic raw download of facebook-recruiting-iii-keyword-extraction, in
// the Kaggle layout that upstream's prepare.py reads: Train.zip holding
// Train.csv (Id, Title, Body, Tags; every field quoted, as in Kaggle's file;
// Body is HTML with paragraphs and code blocks, so it holds commas, quotes
// and newlines). Kaggle's download also holds Test.zip and
// SampleSubmission.csv, which upstream never reads; they are left out.
//
// Each question has one to four tags. Its title and body mix generic
// question words with words typical of its tags (each tag has its own small
// vocabulary, shared in part with related tags), so a bag-of-words model
// predicts the tags well but not perfectly.
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "synthetic/rng.h"
#include "formats/zip_archive.h"
#include "synthetic/csv_text.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr int kNumQuestions = 2000;

struct Tag {
  std::string name;
  std::vector<std::string> words;  // typical of questions with this tag
};

const std::vector<Tag>& Tags() {
  static const auto* tags = new std::vector<Tag>{
      {"javascript", {"function", "var", "callback", "dom", "onclick", "undefined", "prototype"}},
      {"c#", {"linq", "namespace", "datagridview", "winforms", "nullreferenceexception", "async"}},
      {"python", {"def", "import", "pip", "dictionary", "indentation", "django", "numpy"}},
      {"php", {"echo", "$_post", "array", "mysqli", "laravel", "wordpress", "session"}},
      {"java", {"jvm", "arraylist", "hashmap", "maven", "nullpointerexception", "spring"}},
      {"android", {"activity", "intent", "fragment", "gradle", "listview", "manifest"}},
      {"jquery", {"$(document)", "ajax", "selector", "click", "animate", "plugin"}},
      {"html", {"div", "tag", "form", "input", "table", "iframe"}},
      {"css", {"margin", "padding", "float", "selector", "stylesheet", "flexbox"}},
      {"c++", {"pointer", "template", "vector", "std::string", "segfault", "compiler"}},
      {"ios", {"xcode", "uiview", "storyboard", "iphone", "objective-c", "swift"}},
      {"mysql", {"query", "join", "index", "innodb", "select", "database"}},
      {".net", {"assembly", "clr", "visual-studio", "nuget", "framework", "wcf"}},
      {"sql", {"query", "join", "group", "where", "subquery", "table"}},
      {"linux", {"bash", "kernel", "ubuntu", "permission", "shell", "grep"}},
      {"git", {"commit", "branch", "merge", "rebase", "remote", "push"}},
  };
  return *tags;
}

// Kaggle's tags are very unevenly frequent.
const std::vector<double> kTagWeights = {14, 12, 9, 11, 10, 9, 8, 6, 5, 5, 5, 4, 4, 4, 3, 3};

const std::vector<std::string> kCommonWords = {
    "how", "to", "the", "a", "in", "is", "not", "working", "error", "when", "with", "my",
    "i", "get", "using", "can", "why", "does", "file", "value", "code", "problem", "use",
    "data", "from", "it", "this", "but", "and", "of", "for", "on", "an", "after", "method"};

std::string Words(SyntheticRng& rng, const std::vector<int>& tags, int count, double topical) {
  std::vector<std::string> words;
  for (int i = 0; i < count; ++i) {
    if (rng.Bernoulli(topical)) {
      words.push_back(rng.Choice(Tags()[tags[rng.UniformInt(tags.size())]].words));
    } else {
      words.push_back(rng.Choice(kCommonWords));
    }
  }
  return absl::StrJoin(words, " ");
}

absl::Status Generate(const fs::path& raw_dir, uint64_t seed) {
  SyntheticRng rng(seed);
  fs::create_directories(raw_dir);
  CsvTextBuilder csv(CsvStringQuoting::kAll);
  csv.Row({"Id", "Title", "Body", "Tags"});
  for (int id = 1; id <= kNumQuestions; ++id) {
    std::set<int> tag_set;
    for (int n = static_cast<int>(rng.Categorical({35, 30, 20, 15})) + 1; n > 0; --n) {
      tag_set.insert(static_cast<int>(rng.Categorical(kTagWeights)));
    }
    const std::vector<int> tags(tag_set.begin(), tag_set.end());
    std::string title = Words(rng, tags, static_cast<int>(rng.UniformInt(4, 10)), 0.3);
    title[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(title[0])));
    std::string body = absl::StrCat("<p>", Words(rng, tags, rng.UniformInt(8, 30), 0.2), ".</p>\n");
    if (rng.Bernoulli(0.5)) {
      absl::StrAppend(&body, "\n<pre><code>", Words(rng, tags, rng.UniformInt(3, 12), 0.4),
                      "(\"x\", y);\n</code></pre>\n");
    }
    absl::StrAppend(&body, "\n<p>", Words(rng, tags, rng.UniformInt(5, 20), 0.15), ", thanks?</p>\n");
    std::vector<std::string> names;
    for (int tag : tags) names.push_back(Tags()[tag].name);
    rng.Shuffle(names);
    csv.String(std::to_string(id)).String(title).String(body).String(absl::StrJoin(names, " "));
    csv.EndRow();
  }
  return WriteZip(raw_dir / "Train.zip", {ZipEntry::FromBytes("Train.csv", csv.text())});
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{
    .id = MLEBENCH_COMPETITION_ID, .generate = &Generate});

}  // namespace
}  // namespace mlebench
