"""Upstream's grade() for google-quest-challenge (its column, column-count
and row-count checks, sort_values by qa_id on both sides, then np.mean of
scipy's spearmanr(...).correlation over the 30 target columns), restated, on
scipy 1.14.1, numpy 1.26.4 and pandas 2.2.2 of the reference environment.
Cases: answers on the real thirds-and-sixths grid (many ties, constant
columns); rounded, tied, constant, huge, negative, infinite, NaN and text
predictions and float spellings; qa_ids shuffled and foreign, a row
repeated in place of another (the ids are never compared); dropped and
duplicated rows; missing, extra and renamed columns; columns in
any order; one-row and empty submissions.
See //tools/upstream_grade:driver.py for the names this script is given."""
import warnings

from scipy.stats import spearmanr

CASES = 48
MIN_SCORED = 38
MIN_RAISED = 7

TARGETS = [
    "question_asker_intent_understanding", "question_body_critical", "question_conversational",
    "question_expect_short_answer", "question_fact_seeking",
    "question_has_commonly_accepted_answer", "question_interestingness_others",
    "question_interestingness_self", "question_multi_intent", "question_not_really_a_question",
    "question_opinion_seeking", "question_type_choice", "question_type_compare",
    "question_type_consequence", "question_type_definition", "question_type_entity",
    "question_type_instructions", "question_type_procedure", "question_type_reason_explanation",
    "question_type_spelling", "question_well_written", "answer_helpful",
    "answer_level_of_information", "answer_plausible", "answer_relevance",
    "answer_satisfaction", "answer_type_instructions", "answer_type_procedure",
    "answer_type_reason_explanation", "answer_well_written",
]


def grade(submission, answers):
    if "qa_id" not in submission.columns:
        raise ValueError("no qa_id")
    if not set(TARGETS).issubset(set(submission.columns)):
        raise ValueError("missing targets")
    if len(submission.columns) != len(TARGETS) + 1:
        raise ValueError("column count")
    if len(submission) != len(answers):
        raise ValueError("rows")
    assert "qa_id" in answers.columns and set(TARGETS).issubset(set(answers.columns))
    assert len(answers.columns) == len(TARGETS) + 1
    submission = submission.sort_values("qa_id")
    answers = answers.sort_values("qa_id")
    with warnings.catch_warnings():  # constant input: NaN correlation
        warnings.simplefilter("ignore")
        return np.mean([spearmanr(submission[c], answers[c]).correlation for c in TARGETS])


GRID = ["0.0", "0.333333333333333", "0.5", "0.666666666666667", "1.0", "0.833333333333333"]


def prediction():
    r = rng.random()
    if r < 0.2:
        return rng.choice(GRID[:5])
    if r < 0.25:
        return rng.choice(["1e-3", "1.", ".5", "5E-1", "0", "1"])
    return repr(round(rng.random(), rng.choice([2, 4, 17])))


def make_case(k):
    n = rng.choice([4, 12, 20, 40, 60, 60, 100]) if k % 30 else 1000
    if k % 20 == 7:
        n = rng.choice([1, 2])
    ids = rng.sample(range(10, 10 * n + 20), n)
    truth_columns = []
    for _ in TARGETS:
        truth_columns.append([rng.choice(GRID) for _ in ids])
    if k % 12 == 6:
        truth_columns[rng.randrange(30)] = [rng.choice(GRID)] * n  # constant: NaN
    answers = [[str(i)] + [col[j] for col in truth_columns] for j, i in enumerate(ids)]
    columns = ["qa_id"] + TARGETS
    sub = [[str(i)] + [prediction() for _ in TARGETS] for i in ids]
    if rng.random() < 0.15:  # one odd cell
        sub[rng.randrange(n)][rng.randint(1, 30)] = rng.choice(
            ["abc", "", "inf", "-inf", "nan", "1e308", "-5", "2.5", "1e-300", "0x1p-3"])
    if k % 16 == 3:  # constant predictions in some columns
        for j in rng.sample(range(1, 31), rng.randint(1, 5)):
            for row in sub:
                row[j] = "0.5"
    sub = spoil(sub, lambda: str(rng.randrange(10 ** 6)))
    r = rng.random()
    if r < 0.06:
        rng.shuffle(columns)
        original = ["qa_id"] + TARGETS
        sub = [[row[original.index(c)] for c in columns] for row in sub]
    elif r < 0.12:
        columns = columns[:-1]
        sub = [row[:-1] for row in sub]
    elif r < 0.18:
        columns = columns + ["extra"]
        sub = [row + ["1"] for row in sub]
    elif r < 0.22:
        columns = ["id"] + columns[1:]
    elif r < 0.27 and len(sub) > 1:
        # One row repeated in place of another: ids are never compared. (Ties
        # between different rows are left out: numpy's int64 argsort orders
        # them by the CPU's SIMD code.)
        sub[rng.randrange(len(sub))] = list(sub[rng.randrange(len(sub))])
    elif r < 0.29:
        sub = []
    header = ",".join(columns)
    return csv_text(",".join(["qa_id"] + TARGETS), answers), csv_text(header, sub)
