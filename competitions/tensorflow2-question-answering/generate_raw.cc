// Synthetic raw download of tensorflow2-question-answering: Kaggle's
// simplified-nq-train.jsonl (one JSON object per line with document_text,
// long_answer_candidates, question_text, annotations, document_url and an
// integer example_id), simplified-nq-test.jsonl (the same without
// annotations) and sample_submission.csv (example_id "<id>_long" /
// "<id>_short", blank PredictionString), at the download's root.
//
// Documents are space-separated tokens with HTML-like tags, made of
// paragraphs ("<P> ... </P>", the top-level long answer candidates). Most
// questions ask "what is the <attribute> of <entity>" and one paragraph says
// "the <attribute> of <entity> is <value>": that paragraph is the long
// answer and the value token the short answer. Some questions are yes/no
// ("is the <attribute> of <entity> <value>"), answered YES or NO from the
// document; the rest ask about an entity the document never mentions and
// have no answer. So reading the document finds the answers.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/status_macros.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

constexpr int kNumTrain = 60;
constexpr int kNumTest = 8;

const std::vector<std::string> kAttributes = {"color", "capital", "author",   "height",
                                              "owner", "founder", "language", "currency"};
const std::vector<std::string> kEntities = {"zorg",   "belmar", "quintex", "avalon", "teruva",
                                            "mirova", "kastel", "norwin",  "paldor", "vesta",
                                            "orrin",  "sulan",  "tavira",  "elbon",  "cresa"};
const std::vector<std::string> kValues = {"blue",  "red",   "paris", "smith", "tall",
                                          "jones", "green", "oslo",  "latin", "euro"};
const std::vector<std::string> kFiller = {
    "the",   "a",    "of",  "and",  "in",     "was",   "it",     "by",   "river", "city",
    "known", "many", "old", "from", "people", "north", "during", "year", "built"};

struct Document {
  std::string json;       // the train line
  std::string test_json;  // the same without annotations
  int64_t example_id = 0;
};

std::string Candidates(const std::vector<std::pair<int64_t, int64_t>>& paragraphs) {
  std::vector<std::string> parts;
  for (const auto& [start, end] : paragraphs) {
    parts.push_back(
        absl::StrCat("{\"start_token\":", start, ",\"top_level\":true,\"end_token\":", end, "}"));
  }
  return absl::StrCat("[", absl::StrJoin(parts, ","), "]");
}

Document MakeDocument(SyntheticRng& rng) {
  Document doc;
  doc.example_id = static_cast<int64_t>(rng.Next() >> 1) * (rng.Bernoulli(0.5) ? 1 : -1);
  const std::string title = rng.Choice(kEntities);
  std::vector<std::string> tokens = {"<H1>", title, "</H1>"};
  std::vector<std::pair<int64_t, int64_t>> paragraphs;
  // Facts: (attribute, entity, value) stated in the paragraphs.
  const int num_paragraphs = static_cast<int>(rng.UniformInt(3, 7));
  std::vector<std::vector<std::string>> facts;
  std::vector<int64_t> value_tokens;
  // Each paragraph is about its own entity, so a question has one answer.
  std::vector<std::string> entities = kEntities;
  rng.Shuffle(entities);
  for (int p = 0; p < num_paragraphs; ++p) {
    const int64_t start = static_cast<int64_t>(tokens.size());
    tokens.push_back("<P>");
    const int before = static_cast<int>(rng.UniformInt(2, 12));
    for (int i = 0; i < before; ++i) tokens.push_back(rng.Choice(kFiller));
    std::vector<std::string> fact = {rng.Choice(kAttributes), entities[p], rng.Choice(kValues)};
    for (const std::string& word :
         {std::string("the"), fact[0], std::string("of"), fact[1], std::string("is")}) {
      tokens.push_back(word);
    }
    value_tokens.push_back(static_cast<int64_t>(tokens.size()));
    tokens.push_back(fact[2]);
    const int after = static_cast<int>(rng.UniformInt(1, 10));
    for (int i = 0; i < after; ++i) tokens.push_back(rng.Choice(kFiller));
    tokens.push_back(".");
    tokens.push_back("</P>");
    paragraphs.emplace_back(start, static_cast<int64_t>(tokens.size()));
    facts.push_back(std::move(fact));
  }

  // The question and its annotation.
  std::string question;
  std::string yes_no = "NONE";
  int64_t long_start = -1, long_end = -1, candidate = -1;
  std::string short_answers = "[]";
  const double kind = rng.Uniform();
  const int p = static_cast<int>(rng.UniformInt(static_cast<uint64_t>(num_paragraphs)));
  const std::vector<std::string>& fact = facts[p];
  if (kind < 0.6) {
    question = absl::StrCat("what is the ", fact[0], " of ", fact[1]);
    short_answers = absl::StrCat("[{\"start_token\":", value_tokens[p],
                                 ",\"end_token\":", value_tokens[p] + 1, "}]");
  } else if (kind < 0.75) {
    const bool yes = rng.Bernoulli(0.5);
    std::string asked = fact[2];
    while (!yes && asked == fact[2]) asked = rng.Choice(kValues);
    question = absl::StrCat("is the ", fact[0], " of ", fact[1], " ", asked);
    yes_no = yes ? "YES" : "NO";
  } else {
    question = absl::StrCat("what is the ", rng.Choice(kAttributes), " of unknown",
                            rng.UniformInt(uint64_t{1000}));
  }
  if (kind < 0.75) {  // answered: the fact's paragraph is the long answer
    long_start = paragraphs[p].first;
    long_end = paragraphs[p].second;
    candidate = p;
  }
  const std::string annotations = absl::StrCat(
      "[{\"yes_no_answer\":\"", yes_no, "\",\"long_answer\":{\"start_token\":", long_start,
      ",\"candidate_index\":", candidate, ",\"end_token\":", long_end,
      "},\"short_answers\":", short_answers, ",\"annotation_id\":", rng.Next() >> 1, "}]");
  const std::string text = absl::StrJoin(tokens, " ");
  const std::string head = absl::StrCat("{\"document_text\":\"", text,
                                        "\",\"long_answer_candidates\":", Candidates(paragraphs),
                                        ",\"question_text\":\"", question, "\"");
  doc.json = absl::StrCat(head, ",\"annotations\":", annotations,
                          ",\"document_url\":\"https://en.wikipedia.org//w/index.php?title=", title,
                          "&amp;oldid=", rng.UniformInt(uint64_t{900000000}),
                          "\",\"example_id\":", doc.example_id, "}\n");
  doc.test_json = absl::StrCat("{\"example_id\":\"", doc.example_id, "\",\"question_text\":\"",
                               question, "\",\"document_text\":\"", text,
                               "\",\"long_answer_candidates\":", Candidates(paragraphs), "}\n");
  return doc;
}

absl::Status Generate(const std::filesystem::path& raw_dir, uint64_t seed) {
  SyntheticRng rng(seed);
  std::string train, test, sample = "example_id,PredictionString\n";
  for (int i = 0; i < kNumTrain; ++i) train += MakeDocument(rng).json;
  for (int i = 0; i < kNumTest; ++i) {
    const Document doc = MakeDocument(rng);
    test += doc.test_json;
    absl::StrAppend(&sample, doc.example_id, "_long,\n", doc.example_id, "_short,\n");
  }
  RETURN_IF_ERROR(WriteStringToFile(raw_dir / "simplified-nq-train.jsonl", train));
  RETURN_IF_ERROR(WriteStringToFile(raw_dir / "simplified-nq-test.jsonl", test));
  return WriteStringToFile(raw_dir / "sample_submission.csv", sample);
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID,
                                             .generate = &Generate});

}  // namespace
}  // namespace mlebench
