// Synthetic raw download of tweet-sentiment-extraction: train.csv (textID,
// text, selected_text, sentiment), test.csv (textID, text, sentiment) and
// sample_submission.csv (textID and an empty selected_text), at the
// download's root as on Kaggle. textIDs are ten lower-case hex digits; tweets
// are invented words with commas, backquote apostrophes, links, the odd
// leading space or non-ASCII word, as in the real data. The selected text is
// the whole tweet for neutral tweets and, otherwise, a short span of whole
// words around a word of the sentiment's own vocabulary, so a model that
// learns those words finds the span.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/status_macros.h"
#include "synthetic/csv_text.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

constexpr int kNumTrain = 3000;
constexpr int kNumTest = 300;

const std::vector<std::string> kSentiments = {"neutral", "negative", "positive"};
const std::vector<double> kSentimentShares = {0.40, 0.28, 0.32};

const std::vector<std::string> kFiller = {
    "i",    "you",   "the",  "to",    "a",     "my",   "it",   "is",   "and",   "in",
    "for",  "of",    "me",   "on",    "so",    "just", "that", "have", "but",   "with",
    "at",   "be",    "was",  "now",   "work",  "day",  "go",   "going", "home",  "tonight",
    "i`m",  "don`t", "can`t", "lol",  "u",     "2",    "today", "back", "still", "got",
    "caf\xc3\xa9", "\xc3\xbc" "ber", "http://bit.ly/x1y2", "@friend", "#tag"};
const std::vector<std::string> kNegative = {"sad",   "miss",   "hate",  "sucks", "sorry",
                                            "bad",   "tired",  "sick",  "hurts", "boring",
                                            "ugh",   "awful",  "worst", "lonely", "upset"};
const std::vector<std::string> kPositive = {"love",  "good",  "happy", "great", "thanks",
                                            "fun",   "nice",  "best",  "awesome", "glad",
                                            "cool",  "lovely", "yay",  "excited", "enjoy"};

std::string Cased(SyntheticRng& rng, std::string word) {
  if (rng.Bernoulli(0.08)) {
    for (char& c : word) {
      if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    }
  } else if (rng.Bernoulli(0.15) && word[0] >= 'a' && word[0] <= 'z') {
    word[0] = static_cast<char>(word[0] - 'a' + 'A');
  }
  return word;
}

struct Tweet {
  std::string id, text, selected, sentiment;
};

Tweet MakeTweet(SyntheticRng& rng, std::string id) {
  Tweet t;
  t.id = std::move(id);
  const size_t sentiment = rng.Categorical(kSentimentShares);
  t.sentiment = kSentiments[sentiment];
  const int length = static_cast<int>(rng.UniformInt(3, 22));
  std::vector<std::string> words;
  for (int i = 0; i < length; ++i) words.push_back(Cased(rng, rng.Choice(kFiller)));
  // Where the sentiment word sits; neutral tweets mostly lack one.
  const int anchor = static_cast<int>(rng.UniformInt(length));
  if (sentiment == 1 || (sentiment == 0 && rng.Bernoulli(0.1))) {
    words[anchor] = Cased(rng, rng.Choice(kNegative));
  } else if (sentiment == 2 || (sentiment == 0 && rng.Bernoulli(0.1))) {
    words[anchor] = Cased(rng, rng.Choice(kPositive));
  }
  for (int i = 0; i + 1 < length; ++i) {
    if (rng.Bernoulli(0.06)) words[i] += ",";
  }
  words.back() += rng.Choice(std::vector<std::string>{"", "", ".", "!", "!!", "...", "?"});
  // The words joined by spaces (the odd double one); `starts[i]` is where
  // word i begins.
  std::string text;
  std::vector<size_t> starts;
  for (int i = 0; i < length; ++i) {
    if (i > 0) text += rng.Bernoulli(0.05) ? "  " : " ";
    starts.push_back(text.size());
    text += words[i];
  }
  t.text = (rng.Bernoulli(0.3) ? " " : "") + text;
  if (sentiment == 0) {
    t.selected = text;
  } else {
    // A span of whole words around the sentiment word, as the tweet spells it.
    const int first = std::max(0, anchor - static_cast<int>(rng.UniformInt(0, 1)));
    const int last = std::min(length - 1, anchor + static_cast<int>(rng.UniformInt(0, 1)));
    t.selected = text.substr(starts[first], starts[last] + words[last].size() - starts[first]);
  }
  return t;
}

absl::Status Generate(const std::filesystem::path& raw_dir, uint64_t seed) {
  const SyntheticRng root(seed);
  SyntheticRng id_rng = root.Fork(1), tweet_rng = root.Fork(2);
  std::set<std::string> seen;
  std::vector<Tweet> tweets;
  while (static_cast<int>(tweets.size()) < kNumTrain + kNumTest) {
    std::string id = id_rng.Hex(10);
    if (seen.insert(id).second) tweets.push_back(MakeTweet(tweet_rng, std::move(id)));
  }
  CsvTextBuilder train, test, sample;
  train.Row({"textID", "text", "selected_text", "sentiment"});
  test.Row({"textID", "text", "sentiment"});
  sample.Row({"textID", "selected_text"});
  for (int i = 0; i < kNumTrain + kNumTest; ++i) {
    const Tweet& t = tweets[i];
    if (i < kNumTrain) {
      train.String(t.id).String(t.text).String(t.selected).String(t.sentiment).EndRow();
    } else {
      test.String(t.id).String(t.text).String(t.sentiment).EndRow();
      sample.String(t.id).Missing().EndRow();
    }
  }
  for (const auto& [name, text] :
       {std::pair<std::string, const std::string*>{"train.csv", &train.text()},
        {"test.csv", &test.text()},
        {"sample_submission.csv", &sample.text()}}) {
    RETURN_IF_ERROR(WriteStringToFile(raw_dir / name, *text));
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID,
                                             .generate = &Generate});

}  // namespace
}  // namespace mlebench
