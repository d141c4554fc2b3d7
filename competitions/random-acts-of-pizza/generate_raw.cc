// Synthetic raw download of random-acts-of-pizza: the two files upstream's
// prepare.py reads, train.json and test.json, JSON arrays of requests
// written as Python's json.dump(indent=4) writes them (non-ASCII escaped),
// each request's fields in alphabetical order as in Kaggle's files. A train
// request has Kaggle's 32 fields with their value types (ints, floats such
// as 1317852607.0, booleans, null, lists of subreddit names, and
// post_was_edited either false/true or an edit timestamp); a test request
// has only the 17 fields known when the request was posted.
//
// Signal: whether a request got a pizza follows a logistic model of what
// was known at request time: hardship words (job, rent, kids, paycheck) and
// a promise to pay it forward help, idle cravings hurt, longer texts, older
// accounts and earlier activity on the subreddit help. As on Kaggle, some
// train-only retrieval fields leak the outcome (flair, giver, edits).
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/status_macros.h"
#include "pycompat/python_json.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

constexpr int kNumTrain = 1000;
constexpr int kNumTest = 400;

// The span of Kaggle's requests and the moment they were collected.
constexpr int64_t kFirstRequest = 1291766400;  // 2010-12-08
constexpr int64_t kLastRequest = 1380412800;   // 2013-09-29
constexpr int64_t kRetrieval = 1380499200;     // 2013-09-30

// Fields of Kaggle's test.json.
const std::vector<std::string> kTestFields = {"giver_username_if_known",
                                              "request_id",
                                              "request_text_edit_aware",
                                              "request_title",
                                              "requester_account_age_in_days_at_request",
                                              "requester_days_since_first_post_on_raop_at_request",
                                              "requester_number_of_comments_at_request",
                                              "requester_number_of_comments_in_raop_at_request",
                                              "requester_number_of_posts_at_request",
                                              "requester_number_of_posts_on_raop_at_request",
                                              "requester_number_of_subreddits_at_request",
                                              "requester_subreddits_at_request",
                                              "requester_upvotes_minus_downvotes_at_request",
                                              "requester_upvotes_plus_downvotes_at_request",
                                              "requester_username",
                                              "unix_timestamp_of_request",
                                              "unix_timestamp_of_request_utc"};

const std::vector<std::string> kFiller = {"i",
                                          "a",
                                          "the",
                                          "and",
                                          "to",
                                          "my",
                                          "for",
                                          "pizza",
                                          "would",
                                          "it",
                                          "is",
                                          "me",
                                          "this",
                                          "be",
                                          "have",
                                          "we",
                                          "so",
                                          "just",
                                          "but",
                                          "of",
                                          "in",
                                          "really",
                                          "tonight",
                                          "some",
                                          "anyone",
                                          "could",
                                          "help",
                                          "out",
                                          "thanks",
                                          "food",
                                          "cheese",
                                          "pepperoni",
                                          "dominos",
                                          "night",
                                          "week",
                                          "hungry",
                                          "love",
                                          "request",
                                          "please",
                                          "I\xe2\x80\x99m",
                                          "can\xe2\x80\x99t",
                                          "don\xe2\x80\x99t",
                                          "it\xe2\x80\x99s"};
// Words of need and gratitude; they raise the odds.
const std::vector<std::string> kHardship = {
    "job",   "rent",    "kids",   "paycheck", "bills", "unemployed", "laid", "off",
    "broke", "student", "family", "daughter", "son",   "hospital",   "pay",  "forward",
    "bank",  "account", "friday", "grateful", "hard",  "times",      "wife", "husband"};
// Idle wishes; they lower the odds.
const std::vector<std::string> kIdle = {"craving", "bored", "lazy",  "hangover", "drunk",
                                        "party",   "game",  "movie", "snack",    "munchies",
                                        "want",    "feel",  "like",  "random",   "surprise"};
const std::vector<std::string> kSubreddits = {"AskReddit",     "funny",
                                              "pics",          "gaming",
                                              "IAmA",          "WTF",
                                              "todayilearned", "videos",
                                              "trees",         "Random_Acts_Of_Pizza",
                                              "atheism",       "fffffffuuuuuuuuuuuu",
                                              "movies",        "Music",
                                              "politics",      "science",
                                              "aww",           "food",
                                              "Assistance",    "RandomKindness",
                                              "loseit",        "college",
                                              "Frugal",        "jobs"};
const std::vector<std::string> kSyllables = {"ka", "zu",  "mi",  "ro",  "ten", "bax",
                                             "lo", "qui", "ver", "dan", "shi", "po"};

std::string Username(SyntheticRng& rng) {
  std::string name;
  for (int i = static_cast<int>(rng.UniformInt(2, 4)); i > 0; --i) name += rng.Choice(kSyllables);
  if (rng.Bernoulli(0.5)) name += absl::StrCat(rng.UniformInt(0, 999));
  if (rng.Bernoulli(0.2)) name[0] = static_cast<char>(name[0] - 'a' + 'A');
  return name;
}

// Reddit's base-36 post id, "t3_" and 5 or 6 characters.
std::string RequestId(SyntheticRng& rng) {
  std::string id = "t3_";
  for (int i = rng.Bernoulli(0.6) ? 5 : 6; i > 0; --i) {
    id += "0123456789abcdefghijklmnopqrstuvwxyz"[rng.UniformInt(36)];
  }
  return id;
}

// Sentences of words drawn from the filler vocabulary and the two signal
// vocabularies at the given rates; returns the text and how many hardship
// minus idle words it holds.
std::pair<std::string, int> RequestText(SyntheticRng& rng, double hardship_rate, double idle_rate) {
  std::string text;
  int tone = 0;
  const int words = static_cast<int>(rng.UniformInt(8, 70));
  bool sentence_start = true;
  for (int i = 0; i < words; ++i) {
    std::string word;
    const double u = rng.Uniform();
    if (u < hardship_rate) {
      word = rng.Choice(kHardship);
      ++tone;
    } else if (u < hardship_rate + idle_rate) {
      word = rng.Choice(kIdle);
      --tone;
    } else {
      word = rng.Choice(kFiller);
    }
    if (sentence_start)
      word[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(word[0])));
    if (!text.empty()) text += sentence_start && rng.Bernoulli(0.2) ? "\n\n" : " ";
    text += word;
    sentence_start = rng.Bernoulli(0.12);
    if (sentence_start) text += rng.Bernoulli(0.8) ? "." : "!";
  }
  if (rng.Bernoulli(0.1)) text += " http://imgur.com/" + rng.Hex(7);
  if (rng.Bernoulli(0.02)) text += " \xf0\x9f\x8d\x95";  // the pizza emoji, beyond U+FFFF
  if (rng.Bernoulli(0.5)) text += ".";
  return {text, tone};
}

JsonValue Timestamp(double seconds) { return JsonValue::Float(seconds); }

// One request with all of train.json's fields, in alphabetical order.
JsonValue MakeRequest(SyntheticRng& rng, std::set<std::string>& ids) {
  std::string id;
  do {
    id = RequestId(rng);
  } while (!ids.insert(id).second);
  const std::string username = Username(rng);
  const int64_t utc = rng.UniformInt(kFirstRequest, kLastRequest);
  const double local =
      static_cast<double>(utc + (rng.Bernoulli(0.7) ? 0 : -3600 * rng.UniformInt(4, 8)));
  const double days_to_retrieval = static_cast<double>(kRetrieval - utc) / 86400.0;

  // What the requester had done before asking.
  const double account_age =
      rng.Bernoulli(0.15) ? 0.0 : std::exp(rng.Normal(4.5, 1.6)) * rng.Uniform(0.9, 1.1);
  const bool raop_regular = rng.Bernoulli(0.15);
  const double days_since_first_raop = raop_regular ? rng.Uniform(1, 400) : 0.0;
  const int64_t comments = account_age == 0 ? 0 : static_cast<int64_t>(std::exp(rng.Normal(3, 2)));
  const int64_t raop_comments = raop_regular ? rng.UniformInt(1, 30) : 0;
  const int64_t posts = account_age == 0 ? 0 : static_cast<int64_t>(std::exp(rng.Normal(1.5, 1.5)));
  const int64_t raop_posts = raop_regular ? rng.UniformInt(0, 3) : 0;
  std::vector<JsonValue> subreddits;
  std::set<std::string> chosen;
  for (int i = static_cast<int>(std::min<int64_t>(posts + comments / 10, rng.UniformInt(0, 20)));
       i > 0; --i) {
    chosen.insert(rng.Choice(kSubreddits));
  }
  for (const std::string& s : chosen) subreddits.push_back(JsonValue::String(s));
  const int64_t karma = static_cast<int64_t>(std::exp(rng.Normal(4, 2.5))) - rng.UniformInt(0, 20);
  const int64_t votes = std::abs(karma) + 2 * rng.UniformInt(0, std::abs(karma) / 2 + 5);

  // The outcome, from what was known at request time.
  const double hardship_rate = rng.Uniform(0.0, 0.12);
  const double idle_rate = rng.Uniform(0.0, 0.1);
  auto [text, tone] = RequestText(rng, hardship_rate, idle_rate);
  const double logit = -2.4 + 0.6 * tone + 0.25 * std::log1p(account_age) / 2 +
                       (raop_regular ? 0.8 : 0.0) +
                       std::log1p(static_cast<double>(text.size())) / 6 + rng.Normal(0, 0.5);
  const bool received = rng.Bernoulli(1.0 / (1.0 + std::exp(-logit)));

  JsonValue r = JsonValue::Object();
  r.Set("giver_username_if_known",
        JsonValue::String(received && rng.Bernoulli(0.3) ? Username(rng) : "N/A"));
  r.Set("number_of_downvotes_of_request_at_retrieval", JsonValue::Int(rng.UniformInt(0, 5)));
  r.Set("number_of_upvotes_of_request_at_retrieval",
        JsonValue::Int(rng.UniformInt(0, 8) + (received ? rng.UniformInt(0, 10) : 0)));
  if (received && rng.Bernoulli(0.4)) {
    r.Set("post_was_edited", rng.Bernoulli(0.7)
                                 ? Timestamp(static_cast<double>(utc + rng.UniformInt(600, 86400)))
                                 : JsonValue::Bool(true));
  } else {
    r.Set("post_was_edited", JsonValue::Bool(rng.Bernoulli(0.03)));
  }
  r.Set("request_id", JsonValue::String(id));
  r.Set("request_number_of_comments_at_retrieval",
        JsonValue::Int(rng.UniformInt(0, 4) + (received ? rng.UniformInt(1, 8) : 0)));
  const bool edited_thanks = received && rng.Bernoulli(0.3);
  r.Set(
      "request_text",
      JsonValue::String(edited_thanks ? text + "\n\nEDIT: Got a pizza, thank you so much!" : text));
  r.Set("request_text_edit_aware", JsonValue::String(text));
  // A title: the first words of another text in the same tone.
  std::string title = RequestText(rng, hardship_rate, idle_rate).first;
  if (const size_t cut = title.find_last_of(" \n", 40);
      title.size() > 40 && cut != std::string::npos) {
    title.resize(cut);
  }
  r.Set("request_title",
        JsonValue::String(absl::StrCat(rng.Bernoulli(0.9) ? "[Request] " : "[REQUEST] ", title)));
  r.Set("requester_account_age_in_days_at_request", JsonValue::Float(account_age));
  r.Set("requester_account_age_in_days_at_retrieval",
        JsonValue::Float(account_age + days_to_retrieval));
  r.Set("requester_days_since_first_post_on_raop_at_request",
        JsonValue::Float(days_since_first_raop));
  r.Set("requester_days_since_first_post_on_raop_at_retrieval",
        JsonValue::Float(days_since_first_raop + days_to_retrieval));
  r.Set("requester_number_of_comments_at_request", JsonValue::Int(comments));
  r.Set("requester_number_of_comments_at_retrieval",
        JsonValue::Int(comments + rng.UniformInt(0, 300)));
  r.Set("requester_number_of_comments_in_raop_at_request", JsonValue::Int(raop_comments));
  r.Set("requester_number_of_comments_in_raop_at_retrieval",
        JsonValue::Int(raop_comments + (received ? rng.UniformInt(1, 5) : rng.UniformInt(0, 2))));
  r.Set("requester_number_of_posts_at_request", JsonValue::Int(posts));
  r.Set("requester_number_of_posts_at_retrieval", JsonValue::Int(posts + rng.UniformInt(1, 30)));
  r.Set("requester_number_of_posts_on_raop_at_request", JsonValue::Int(raop_posts));
  r.Set("requester_number_of_posts_on_raop_at_retrieval",
        JsonValue::Int(raop_posts + rng.UniformInt(1, 2)));
  r.Set("requester_number_of_subreddits_at_request",
        JsonValue::Int(static_cast<int64_t>(subreddits.size())));
  r.Set("requester_received_pizza", JsonValue::Bool(received));
  r.Set("requester_subreddits_at_request", JsonValue::Array(std::move(subreddits)));
  r.Set("requester_upvotes_minus_downvotes_at_request", JsonValue::Int(karma));
  r.Set("requester_upvotes_minus_downvotes_at_retrieval",
        JsonValue::Int(karma + rng.UniformInt(0, 2000)));
  r.Set("requester_upvotes_plus_downvotes_at_request", JsonValue::Int(votes));
  r.Set("requester_upvotes_plus_downvotes_at_retrieval",
        JsonValue::Int(votes + rng.UniformInt(0, 4000)));
  r.Set("requester_user_flair",
        received ? JsonValue::String(rng.Bernoulli(0.06) ? "PIF" : "shroom") : JsonValue::Null());
  r.Set("requester_username", JsonValue::String(username));
  r.Set("unix_timestamp_of_request", Timestamp(local));
  r.Set("unix_timestamp_of_request_utc", Timestamp(static_cast<double>(utc)));
  return r;
}

absl::Status WriteRequests(const std::filesystem::path& path, std::vector<JsonValue> requests) {
  ASSIGN_OR_RETURN(std::string text, DumpJson(JsonValue::Array(std::move(requests)), 4));
  return WriteStringToFile(path, text);
}

absl::Status Generate(const std::filesystem::path& raw_dir, uint64_t seed) {
  const SyntheticRng root(seed);
  SyntheticRng train_rng = root.Fork(1), test_rng = root.Fork(2);
  std::set<std::string> ids;
  std::vector<JsonValue> train, test;
  for (int i = 0; i < kNumTrain; ++i) train.push_back(MakeRequest(train_rng, ids));
  for (int i = 0; i < kNumTest; ++i) {
    const JsonValue request = MakeRequest(test_rng, ids);
    JsonValue unlabelled = JsonValue::Object();
    for (const std::string& field : kTestFields) unlabelled.Set(field, *request.Find(field));
    test.push_back(std::move(unlabelled));
  }
  RETURN_IF_ERROR(WriteRequests(raw_dir / "train.json", std::move(train)));
  return WriteRequests(raw_dir / "test.json", std::move(test));
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID, .generate = &Generate});

}  // namespace
}  // namespace mlebench
