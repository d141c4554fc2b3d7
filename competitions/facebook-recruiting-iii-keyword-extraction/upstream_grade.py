"""Upstream's grade() for facebook-recruiting-iii-keyword-extraction (its
prepare_for_metric: both columns, equal lengths, ids equal after sort_values,
the classes from the answers' string cells only (others skipped), then
MultiLabelBinarizer with sparse output over fillna("").str.split(); then
f1_score(average="micro")), restated, on the reference environment's pandas
2.2.2, numpy 1.26.4, scipy 1.14.1 and scikit-learn 1.5.1. Cases: integer
question ids (some spelled "7.0", foreign, repeated, dropped, text), tag sets
from pools of one to a hundred tags (c#, c++, .net, asp.net-mvc, 2.7 ...),
empty, repeated, unknown and whitespace-odd predictions (tabs, no-break
spaces, doubled spaces in quoted cells), all-number and all-missing tag
columns, answers with missing tags or a single tag; missing and extra
columns, header-only and empty files.
See //tools/upstream_grade:driver.py for the names this script is given."""
from sklearn.metrics import f1_score
from sklearn.preprocessing import MultiLabelBinarizer

MIN_SCORED = 100
MIN_RAISED = 84

ID, TARGET = "Id", "Tags"
TAGS = ["c#", "java", "php", "javascript", "android", "jquery", "c++", "python", "iphone",
        "asp.net", "mysql", "html", ".net", "ios", "objective-c", "sql", "css", "linux",
        "ruby-on-rails", "windows", "c", "sql-server", "ruby", "wpf", "xml", "ajax", "database",
        "regex", "windows-7", "asp.net-mvc", "django", "2.7", "3d", "node.js", "r", "vb.net",
        "performance", "eclipse", "json", "osx", "Java", "ubuntu", "c#-4.0", "string", "git"]


def grade(submission, answers):
    assert ID in answers.columns and TARGET in answers.columns
    if ID not in submission.columns:
        raise ValueError("no Id column")
    if TARGET not in submission.columns:
        raise ValueError("no Tags column")
    if len(submission) != len(answers):
        raise ValueError("length")
    submission = submission.sort_values(by=ID).reset_index(drop=True)
    answers = answers.sort_values(by=ID).reset_index(drop=True)
    if (submission[ID].values != answers[ID].values).any():
        raise ValueError("ids")
    classes = set()
    for tags in answers[TARGET]:
        if isinstance(tags, str):  # upstream logs a warning and skips the rest
            classes.update(tags.split())
    binarizer = MultiLabelBinarizer(classes=sorted(classes), sparse_output=True)
    y_true = binarizer.fit_transform(answers[TARGET].fillna("").str.split())
    y_pred = binarizer.transform(submission[TARGET].fillna("").str.split())
    return f1_score(y_true=y_true, y_pred=y_pred, average="micro")


def prediction(pool, truth):
    r = rng.random()
    if r < 0.04:
        return rng.choice(["", "C#", "7", '"c#\tjava"', '"java\u00a0 php"', " c#  java ", "foo"])
    tags = truth.split() if r < 0.55 else []
    tags = [x for x in tags if rng.random() < 0.85]
    tags += rng.sample(pool, rng.choice([0, 0, 1, min(3, len(pool))]))
    if rng.random() < 0.05:
        tags += ["not-a-tag", tags[0] if tags else "java"]
    return " ".join(tags)


def make_case(k):
    n = rng.choice([1, 2, 3, 10, 50, 400]) if k % 50 else 3000
    pool = rng.sample(TAGS, rng.choice([1, 2, 5, 20, 45]))
    base = rng.choice([1, 6034196])
    ids = [str(base + i) for i in range(n)]
    truth = [" ".join(rng.sample(pool, rng.randint(1, min(5, len(pool))))) for _ in ids]
    if len(pool) > 1 and k % 31 != 2:
        truth[0] = " ".join(pool[:2])  # one class only: f1_score rejects the sparse column
    if k % 7 == 4:
        truth[-1] = ""  # answers without tags: skipped for the classes
    rows = [[i, prediction(pool, t)] for i, t in zip(ids, truth)]
    if k % 13 == 3:
        rows = [[i, rng.choice(["0", "1.5", ""])] for i, _ in rows]  # no text at all
    if k % 11 == 5:
        rows = [[i + ".0", p] for i, p in rows]  # float ids still equal the answers' ints
    rows = spoil(rows, lambda: rng.choice([str(base + n), "", "q1", str(base) + ".5"]))
    header = f"{ID},{TARGET}"
    if k % 17 == 6:
        header = rng.choice([f"{ID},tags", f"id,{TARGET}", ID])
        if header == ID:
            rows = [[r[0]] for r in rows]
    elif k % 17 == 9:
        header, rows = f"{TARGET},{ID},extra", [[p, i, "z"] for i, p in rows]
    answers = csv_text(f"{ID},{TARGET}", [[i, t] for i, t in zip(ids, truth)])
    if k % 29 == 7:
        return answers, rng.choice(["", f"{ID},{TARGET}\n"])
    return answers, csv_text(header, rows)
