// Synthetic raw download of detecting-insults-in-social-commentary: the two
// files upstream's prepare.py reads, train.csv (Insult, Date, Comment) and
// test_with_solutions.csv (Insult, Date, Comment, Usage). As in Kaggle's
// files, each comment is wrapped in literal double quotes and keeps its
// special characters as escape sequences written out as text (\\n, \xa0,
// \xc2\xa0, \'), so every Comment field is quoted in the CSV; dates are
// "YYYYMMDDhhmmssZ" or blank; labels are 0/1 with about a quarter insults.
// Comments are unique across both files (upstream checks that train and test
// share none; the grader matches rows on them).
//
// Signal: neutral comments draw words from topic vocabularies; insults add
// second-person phrases and insulting words. Neutral comments sometimes
// insult someone outside the conversation and insults sometimes skip the
// "you", and a few labels are flipped, so a bag-of-words model does well but
// not perfectly.
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/status_macros.h"
#include "synthetic/csv_text.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

constexpr int kNumTrain = 1500;
constexpr int kNumTest = 1000;
constexpr double kInsultRate = 0.26;
constexpr double kLabelNoise = 0.03;

const std::vector<std::string> kTopicWords = {
    "game",     "season",  "team",     "coach",   "player",  "vote",      "election", "tax",
    "policy",   "budget",  "music",    "album",   "song",    "phone",     "price",    "market",
    "city",     "weather", "article",  "story",   "writer",  "movie",     "ending",   "car",
    "engine",   "school",  "teacher",  "kids",    "money",   "jobs",      "economy",  "law",
    "court",    "judge",   "police",   "health",  "doctor",  "food",      "recipe",   "travel",
    "flight",   "hotel",   "church",   "history", "war",     "energy",    "oil",      "climate",
    "science",  "data",    "research", "company", "product", "customers", "service",  "update",
    "software", "windows", "apple",    "google",  "league",  "trade",     "draft",    "goal"};
const std::vector<std::string> kFillerWords = {"the",      "a",        "is",
                                               "was",      "and",      "but",
                                               "that",     "this",     "it",
                                               "of",       "to",       "in",
                                               "for",      "on",       "with",
                                               "they",     "we",       "i",
                                               "think",    "really",   "just",
                                               "great",    "good",     "bad",
                                               "agree",    "disagree", "why",
                                               "what",     "more",     "less",
                                               "last",     "next",     "year",
                                               "people",   "point",    "right",
                                               "well",     "so",       "very",
                                               "actually", "never",    "always",
                                               "maybe",    "sure",     "lol",
                                               "thanks",   "read",     "said",
                                               "know",     "believe",  "don\\xe2\\x80\\x99t",
                                               "can\\'t",  "it\\'s"};
const std::vector<std::string> kInsultWords = {
    "idiot",  "moron", "clown",    "loser",    "fool",      "troll",  "pathetic",
    "stupid", "dumb",  "ignorant", "clueless", "hypocrite", "coward", "liar"};
const std::vector<std::string> kSecondPerson = {"you",      "you are", "you're", "your",
                                                "you\\'re", "u r",     "ur"};
const std::vector<std::string> kThirdParty = {"the senator",   "that ceo",  "the referee",
                                              "the president", "the mayor", "that actor"};
// Sentence breaks as Kaggle's text writes them.
const std::vector<std::string> kBreaks = {"\\\\n", "\\xa0", "\\xc2\\xa0", "\\\\n\\\\n"};

void AppendWords(SyntheticRng& rng, const std::vector<std::string>& topic, int count,
                 std::string& text) {
  for (int i = 0; i < count; ++i) {
    if (!text.empty()) text += ' ';
    text += rng.Bernoulli(0.35) ? rng.Choice(topic) : rng.Choice(kFillerWords);
  }
}

// One comment's text, before the literal quotes are added.
std::string CommentText(SyntheticRng& rng, bool insult) {
  // Each comment sticks to a few topic words, as a thread would.
  std::vector<std::string> topic;
  for (int i = 0; i < 4; ++i) topic.push_back(rng.Choice(kTopicWords));
  std::string text;
  const int sentences = static_cast<int>(rng.UniformInt(1, 3));
  const int insult_sentence = static_cast<int>(rng.UniformInt(0, sentences - 1));
  for (int s = 0; s < sentences; ++s) {
    if (s > 0) text += rng.Bernoulli(0.2) ? rng.Choice(kBreaks) : " ";
    std::string sentence;
    if (insult && s == insult_sentence) {
      if (rng.Bernoulli(0.8)) sentence = rng.Choice(kSecondPerson);
      AppendWords(rng, topic, static_cast<int>(rng.UniformInt(0, 3)), sentence);
      sentence += ' ';
      sentence += rng.Bernoulli(0.4) ? "such a " : "a ";
      sentence += rng.Choice(kInsultWords);
      if (rng.Bernoulli(0.5)) sentence += ' ' + rng.Choice(kInsultWords);
    } else if (!insult && rng.Bernoulli(0.12)) {
      // Abuse of an outsider: not an insult in this competition's sense.
      sentence = rng.Choice(kThirdParty) + " is a " + rng.Choice(kInsultWords);
    } else {
      AppendWords(rng, topic, static_cast<int>(rng.UniformInt(3, 14)), sentence);
      if (rng.Bernoulli(0.25)) sentence += ", you know";
    }
    sentence[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(sentence[0])));
    text += sentence;
    text += ".!?"[rng.Categorical({8, 2, 1})];
  }
  return text;
}

struct Comment {
  int64_t insult;
  std::string date;  // empty: blank
  std::string comment;
};

std::vector<Comment> MakeComments(SyntheticRng& rng, int count, std::set<std::string>& seen) {
  std::vector<Comment> comments;
  while (static_cast<int>(comments.size()) < count) {
    const bool insult = rng.Bernoulli(kInsultRate);
    Comment c;
    c.insult = rng.Bernoulli(kLabelNoise) ? !insult : insult;
    if (rng.Bernoulli(0.8)) {
      c.date =
          absl::StrFormat("2012%02d%02d%02d%02d%02dZ", rng.UniformInt(3, 9), rng.UniformInt(1, 28),
                          rng.UniformInt(0, 23), rng.UniformInt(0, 59), rng.UniformInt(0, 59));
    }
    c.comment = "\"" + CommentText(rng, insult) + "\"";
    if (seen.insert(c.comment).second) comments.push_back(std::move(c));
  }
  return comments;
}

absl::Status Generate(const std::filesystem::path& raw_dir, uint64_t seed) {
  const SyntheticRng root(seed);
  SyntheticRng train_rng = root.Fork(1), test_rng = root.Fork(2), usage_rng = root.Fork(3);
  std::set<std::string> seen;
  const std::vector<Comment> train = MakeComments(train_rng, kNumTrain, seen);
  const std::vector<Comment> test = MakeComments(test_rng, kNumTest, seen);

  CsvTextBuilder train_csv, test_csv;
  train_csv.Row({"Insult", "Date", "Comment"});
  for (const Comment& c : train) {
    train_csv.Int(c.insult);
    c.date.empty() ? train_csv.Missing() : train_csv.String(c.date);
    train_csv.String(c.comment).EndRow();
  }
  test_csv.Row({"Insult", "Date", "Comment", "Usage"});
  for (const Comment& c : test) {
    test_csv.Int(c.insult);
    c.date.empty() ? test_csv.Missing() : test_csv.String(c.date);
    test_csv.String(c.comment).String(usage_rng.Bernoulli(0.3) ? "PublicTest" : "PrivateTest");
    test_csv.EndRow();
  }
  RETURN_IF_ERROR(WriteStringToFile(raw_dir / "train.csv", train_csv.text()));
  return WriteStringToFile(raw_dir / "test_with_solutions.csv", test_csv.text());
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID,
                                             .generate = &Generate});

}  // namespace
}  // namespace mlebench
