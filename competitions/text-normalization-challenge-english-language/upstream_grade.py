"""Upstream's grade() for text-normalization-challenge-english-language (its
prepare_for_metric on id/after: length and column checks, ids sorted and
compared, both `after` columns astype(str); then accuracy_score), restated,
on the reference environment's pandas 2.2.2, numpy 1.26.4 and scikit-learn
1.5.1. Cases: answers written as upstream writes them (every text field
quoted), normalised tokens with commas, quotes, line breaks and spaces;
tokens pandas reads as missing ("", NA, null, nan: all "nan" after
astype(str), so they match each other) or as numbers ("007" and "7" agree
when the whole column is numeric, "1.0" does not equal "1"); one-token and
one-class answers, constant predictions; dropped, duplicated, foreign and
missing ids, missing, renamed and extra columns, empty submissions.
See //tools/upstream_grade:driver.py for the names this script is given."""
from sklearn.metrics import accuracy_score

ID, TARGET = "id", "after"
TOKENS = ["the", "one hundred twenty", ",", ".", "sil", "Mister", "twenty twenty", "a, b",
          'he said "hi"', "two\nlines", " padded ", "NA", "null", "nan", "", "007", "7", "1.0",
          "1", "True", "e", "w w w dot google dot com", "0", "-0.0", "1000.0", "inf",
          "12345678901234567890"]
NUMBERS = ["7", "007", "1", "1.0", "1e3", "-0", "12345678901234567890", "inf"]
MIN_SCORED = 140
MIN_RAISED = 45


grade = grade_text_normalization


def quoted(text):
    return '"' + text.replace('"', '""') + '"'


def field(text, quote_all):
    if quote_all or any(c in text for c in ',"\n'):
        return quoted(text)
    return text


def new_id():
    return f"{rng.randrange(2000)}_{rng.randrange(40)}"


make_case = make_text_normalization_case
