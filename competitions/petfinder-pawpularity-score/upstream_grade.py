"""Upstream's grade() (prepare_for_metric, root_mean_squared_error), restated,
 on pandas 2.2.2 and scikit-learn 1.5.1 of the reference
environment, on random answers and submissions: int and float predictions,
out-of-range, missing and text values, dropped, duplicated and foreign ids,
a misnamed column. Same score bit for bit, or invalid where upstream raises.
See //tools/upstream_grade:driver.py for the names this script is given."""
from sklearn.metrics import root_mean_squared_error

MIN_SCORED = 81
MIN_RAISED = 21

def grade(submission, answers):
    id_col, target_col = "Id", "Pawpularity"
    if id_col not in submission.columns or target_col not in submission.columns:
        raise ValueError("missing column")
    if not submission[target_col].between(1, 100).all():
        raise ValueError("range")
    submission = submission.sort_values(id_col)
    answers = answers.sort_values(id_col)
    if (submission[id_col].values != answers[id_col].values).any():
        raise ValueError("ids")
    return root_mean_squared_error(answers[target_col].to_numpy(),
                                   submission[target_col].to_numpy())

def pred():
    r = rng.random()
    if r < 0.01: return "abc"
    if r < 0.02: return ""
    if r < 0.03: return rng.choice(["0.5", "100.5", "inf"])
    if r < 0.3: return str(rng.randint(1, 100))
    return repr(round(rng.uniform(1, 100), rng.choice([0, 2, 9, 17])))

def make_case(case):
    n = rng.choice([1, 2, 5, 30, 300]) if case else 5000
    ids = ["%032x" % rng.getrandbits(128) for _ in range(n)]
    answers = [[i] + [str(rng.randint(0, 1)) for _ in range(12)] + [str(rng.randint(1, 100))]
               for i in ids]
    subs = spoil([[i, pred()] for i in ids], lambda: "%032x" % rng.getrandbits(128))
    header = ("Id,Subject Focus,Eyes,Face,Near,Action,Accessory,Group,Collage,Human,Occlusion,"
              "Info,Blur,Pawpularity")
    sub_header = "Id,Pawpularity" if case % 31 != 3 else "Id,pawpularity"
    return csv_text(header, answers), csv_text(sub_header, subs)
