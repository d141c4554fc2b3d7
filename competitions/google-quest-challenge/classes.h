#ifndef MLEBENCH_COMPETITIONS_GOOGLE_QUEST_CHALLENGE_CLASSES_H_
#define MLEBENCH_COMPETITIONS_GOOGLE_QUEST_CHALLENGE_CLASSES_H_

#include <array>
#include <string_view>

namespace mlebench::google_quest {

// The 30 rated properties of a question/answer pair (upstream's
// classes.py), in train.csv's column order: 21 of the question, then 9 of
// the answer. Each is a rater score in [0, 1].
inline constexpr std::array<std::string_view, 30> kTargets = {
    "question_asker_intent_understanding",
    "question_body_critical",
    "question_conversational",
    "question_expect_short_answer",
    "question_fact_seeking",
    "question_has_commonly_accepted_answer",
    "question_interestingness_others",
    "question_interestingness_self",
    "question_multi_intent",
    "question_not_really_a_question",
    "question_opinion_seeking",
    "question_type_choice",
    "question_type_compare",
    "question_type_consequence",
    "question_type_definition",
    "question_type_entity",
    "question_type_instructions",
    "question_type_procedure",
    "question_type_reason_explanation",
    "question_type_spelling",
    "question_well_written",
    "answer_helpful",
    "answer_level_of_information",
    "answer_plausible",
    "answer_relevance",
    "answer_satisfaction",
    "answer_type_instructions",
    "answer_type_procedure",
    "answer_type_reason_explanation",
    "answer_well_written",
};

// The id column of every file.
inline constexpr std::string_view kIdColumn = "qa_id";

}  // namespace mlebench::google_quest

#endif  // MLEBENCH_COMPETITIONS_GOOGLE_QUEST_CHALLENGE_CLASSES_H_
