// Synthetic raw download of billion-word-imputation: train_v2.txt.zip
// (train_v2.txt, one tokenised English-like sentence per line, words and
// punctuation separated by single spaces) and test_v2.txt.zip (test_v2.txt,
// a CSV with "id","sentence" whose sentences miss one word), as on Kaggle.
// Sentences follow a small grammar (determiner, adjective, noun, verb,
// object, closing punctuation, the odd quoted clause or non-ASCII word), so
// word bigrams predict where a word is missing and which word it is. A few
// lines have two words (never picked for test by upstream), a few contain
// double quotes (escaped in the prepared CSVs).
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "synthetic/rng.h"
#include "base/status_macros.h"
#include "formats/zip_archive.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

constexpr int kNumTrainLines = 12000;
constexpr int kNumTestLines = 100;

const std::vector<std::string> kDeterminers = {"the", "a", "this", "every", "our"};
const std::vector<std::string> kAdjectives = {"old", "new",   "big",         "small",
                                              "red", "quiet", "caf\xc3\xa9", "happy"};
const std::vector<std::string> kNouns = {"dog",     "city",  "market",  "government",      "team",
                                         "company", "river", "teacher", "na\xc3\xafve-fan"};
const std::vector<std::string> kVerbs = {"saw", "likes", "built", "said", "found", "left"};
const std::vector<std::string> kAdverbs = {"yesterday", "today", "again", "quickly"};
const std::vector<std::string> kShort = {"Thanks .", "Hello !", "Why ?", "Yes ."};

// Each noun has its own adjective and verb most of the time, and every
// sentence has the same slots, so a missing word leaves a bigram that train
// never shows, and its neighbours say which word it was.
std::string Sentence(SyntheticRng &rng) {
  if (rng.Bernoulli(0.02)) return rng.Choice(kShort);
  std::vector<std::string> words;
  const bool quoted = rng.Bernoulli(0.05);
  if (quoted) words.push_back("\"");
  std::string first = rng.Choice(kDeterminers);
  first[0] = static_cast<char>(first[0] - 'a' + 'A');
  words.push_back(first);
  const size_t subject = rng.UniformInt(kNouns.size());
  words.push_back(rng.Bernoulli(0.85) ? kAdjectives[subject % kAdjectives.size()]
                                      : rng.Choice(kAdjectives));
  words.push_back(kNouns[subject]);
  words.push_back(rng.Bernoulli(0.85) ? kVerbs[subject % kVerbs.size()] : rng.Choice(kVerbs));
  words.push_back(rng.Choice(kDeterminers));
  words.push_back(rng.Choice(kNouns));
  if (rng.Bernoulli(0.1)) {
    words.push_back(",");
    words.push_back("and");
    words.push_back(rng.Choice(kNouns));
  }
  if (rng.Bernoulli(0.1)) words.push_back(rng.Choice(kAdverbs));
  words.push_back(rng.Bernoulli(0.9) ? "." : "!");
  if (quoted) words.push_back("\"");
  return absl::StrJoin(words, " ");
}

absl::Status Generate(const std::filesystem::path &raw_dir, uint64_t seed) {
  SyntheticRng rng(seed);
  std::string train;
  for (int i = 0; i < kNumTrainLines; ++i) absl::StrAppend(&train, Sentence(rng), "\n");

  // Kaggle's test file: sentences with one inner word removed, quotes doubled.
  SyntheticRng test_rng = rng.Fork(1);
  std::string test = "\"id\",\"sentence\"\n";
  for (int i = 0; i < kNumTestLines; ++i) {
    std::string sentence = Sentence(test_rng);
    std::vector<std::string> words = absl::StrSplit(sentence, ' ');
    if (words.size() > 2) {
      words.erase(words.begin() + 1 + static_cast<int64_t>(test_rng.UniformInt(words.size() - 2)));
    }
    std::string escaped;
    for (char c : absl::StrJoin(words, " ")) {
      escaped += c;
      if (c == '"') escaped += '"';
    }
    absl::StrAppend(&test, i + 1, ",\"", escaped, "\"\n");
  }

  RETURN_IF_ERROR(WriteZip(raw_dir / "train_v2.txt.zip",
                           {ZipEntry::FromBytes("train_v2.txt", std::move(train))}));
  return WriteZip(raw_dir / "test_v2.txt.zip",
                  {ZipEntry::FromBytes("test_v2.txt", std::move(test))});
}

}  // namespace

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID,
                                             .generate = &Generate});

}  // namespace mlebench
