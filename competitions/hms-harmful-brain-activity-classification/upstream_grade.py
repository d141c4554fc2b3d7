"""Upstream's grade() for hms-harmful-brain-activity-classification (its
prepare_for_metric: eeg_id and the six vote columns, length, each row's
probabilities summing to 1 after Python's round(x, 5), the same eeg_id set,
both sorted by eeg_id, votes divided by their row sums; then Kaggle's
kullback_leibler_divergence.score with kaggle_metric_utilities'
verify_valid_probabilities on both sides: numpy clip, log, allclose and
average over pandas' row sums, micro-averaged), restated, on the reference
environment's pandas 2.2.2 and numpy 1.26.4. Cases: answers in prepare's shape
(train.csv's columns, eeg_ids repeated over several rows, zero votes);
predictions that are the vote shares, uniform, one-hot integers, exact 0 and
1 (clipping), rounded so rows sum to 0.99999..1.00001, NaN cells (skipped by
the row sums), negative or above-one values in rows that sum to 1, text;
extra submission columns (numeric ones count in verify_valid_probabilities'
row sums, text ones make it non-numeric); dropped, duplicated and foreign
eeg_ids; missing columns and empty submissions.
Rows of one eeg_id carry the same votes and the same predictions: numpy's
argsort of int64 ids does not keep equal ids in input order (its AVX-512 sort
here, introsort elsewhere), so only then is upstream's pairing of repeated ids
the same on every machine.
See //tools/upstream_grade:driver.py for the names this script is given."""
import warnings

CASES = 60  # a scored case takes pandas some 50 ms
MIN_SCORED = 33
MIN_RAISED = 21

ID = "eeg_id"
TARGETS = ["seizure_vote", "lpd_vote", "gpd_vote", "lrda_vote", "grda_vote", "other_vote"]
EPSILON = 10 ** -15


def verify_valid_probabilities(frame):
    if not pd.api.types.is_numeric_dtype(frame.values):
        raise ValueError("not numeric")
    if frame.min().min() < 0:
        raise ValueError("below zero")
    if frame.max().max() > 1:
        raise ValueError("above one")
    if not np.allclose(frame.sum(axis=1), 1):
        raise ValueError("rows do not add to one")


def kl_divergence_score(solution, submission):
    del solution[ID]
    del submission[ID]
    for column in solution.columns:
        if column not in submission.columns:
            raise ValueError("missing column")
    verify_valid_probabilities(solution)
    verify_valid_probabilities(submission)
    for column in solution.columns:
        if not pd.api.types.is_float_dtype(solution[column]):
            solution[column] = solution[column].astype(float)
        submission[column] = np.clip(submission[column], EPSILON, 1 - EPSILON)
        nonzero = solution[column] != 0
        solution[column] = solution[column].astype(float)
        solution.loc[nonzero, column] = solution.loc[nonzero, column] * np.log(
            solution.loc[nonzero, column] / submission.loc[nonzero, column])
        solution.loc[~nonzero, column] = 0  # scipy's rel_entr convention
    return np.average(solution.sum(axis=1), weights=None)


def grade(submission, answers):
    if ID not in submission.columns:
        raise ValueError("no eeg_id")
    if not all(column in submission.columns for column in TARGETS):
        raise ValueError("target columns")
    if len(submission) != len(answers):
        raise ValueError("length")
    if not submission[TARGETS].sum(axis=1).apply(lambda x: round(x, 5) == 1).all():
        raise ValueError("rows must add to 1")
    if set(answers[ID]) != set(submission[ID]):
        raise ValueError("ids")
    submission = submission.sort_values(ID).reset_index(drop=True)
    answers = answers.sort_values(ID).reset_index(drop=True)
    answers = answers.copy()[[ID] + TARGETS]
    answers[TARGETS] = answers[TARGETS].div(answers[TARGETS].sum(axis=1), axis=0)
    with warnings.catch_warnings():  # pandas' chained-assignment notices
        warnings.simplefilter("ignore")
        return kl_divergence_score(answers, submission)


def votes():
    counts = [0] * 6
    for _ in range(rng.choice([1, 3, 14])):
        counts[rng.choice([0, 1, 2, 3, 4, 5, 5, 1])] += 1
    return counts


def prediction(counts, style):
    if style == "shares":
        return [repr(c / sum(counts)) for c in counts]
    if style == "uniform":
        return [repr(1 / 6)] * 6
    if style == "onehot":
        hot = rng.randrange(6)
        return ["1" if i == hot else "0" for i in range(6)]
    if style == "rounded":  # sums within 1e-5 of 1, either side of round()'s cut
        p = [rng.random() for _ in range(6)]
        p = [round(x / sum(p), 5) for x in p]
        p[0] = round(p[0] + rng.choice([0, 0, 5e-6, -5e-6, 4e-6, 1e-5]), 7)
        return [repr(x) for x in p]
    if style == "fault":
        p = [repr(c / sum(counts)) for c in counts]
        i = rng.randrange(6)
        p[i] = rng.choice(["", "nan", "abc", "-0.0"])
        if rng.random() < 0.5:
            p[(i + 1) % 6] = repr(float(p[(i + 1) % 6] or 0) + 0.5)
            p[(i + 2) % 6] = repr(float(p[(i + 2) % 6] or 0) - 0.5)  # may go below 0
        return p
    p = [rng.random() ** 3 for _ in range(6)]
    return [repr(x / sum(p)) for x in p]


def make_case(k):
    eegs = rng.sample(range(500000, 4294967295), rng.choice([1, 2, 5, 40]) if k % 35 else 1500)
    style = rng.choice(["shares", "uniform", "onehot", "rounded", "random", "random", "fault"])
    answers, subs = [], []
    for eeg in eegs:
        counts = votes()
        predicted = prediction(counts, style)
        for sub_id in range(rng.choice([1, 1, 1, 2, 4])):
            answers.append([str(eeg), str(sub_id), repr(sub_id * 2.0), str(eeg % 9973),
                            str(sub_id), repr(sub_id * 2.0), str(rng.getrandbits(31)),
                            str(rng.randint(1, 65000)), "Other"] + [str(c) for c in counts])
            subs.append([f"{eeg}.0" if k % 9 == 4 else str(eeg)] + predicted)
    subs = spoil(subs, lambda: str(rng.randint(0, 499999)))
    header = [ID] + TARGETS
    r = rng.random()
    if r < 0.04:
        header[rng.randrange(7)] = rng.choice(["id", "seizure", "LPD_vote"])
    elif r < 0.1:
        header.append("extra")
        extra = rng.choice(["0", "0.5", "x", ""])
        subs = [s + [extra] for s in subs]
    elif r < 0.14:
        header = header[::-1]
        subs = [s[::-1] for s in subs]
    elif r < 0.16:
        subs = []
    answer_header = ("eeg_id,eeg_sub_id,eeg_label_offset_seconds,spectrogram_id,"
                     "spectrogram_sub_id,spectrogram_label_offset_seconds,label_id,patient_id,"
                     "expert_consensus," + ",".join(TARGETS))
    return csv_text(answer_header, answers), csv_text(",".join(header), subs)
