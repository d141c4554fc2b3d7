"""Upstream's grade() for freesound-audio-tagging-2019 (its prepare_for_metric:
fname first, then the 80 classes in order, sort, pd.to_numeric per column;
then the competition notebook's lwlrap: label_ranking_average_precision_score
over the labelled clips, weighted by their label counts), restated, on the
reference environment's scikit-learn 1.5.1, scipy 1.14.1 and pandas 2.2.2.
Cases: tied and constant scores, clips with no label (skipped) and with every
label, answers without any label (no samples: raises), huge, tiny and
negative scores, float spellings ("1e-3", "1.0", "-0", " 0.5", "+.5", "5."),
bool columns (0 and 1); NaN and inf (sklearn raises), text that
pd.to_numeric rejects though float() takes it ("1_0", "NaN ", non-ASCII
digits); missing, renamed, reordered and extra columns; dropped, duplicated
and foreign clips; empty submissions.
See //tools/upstream_grade:driver.py for the names this script is given."""
from sklearn.metrics import label_ranking_average_precision_score

CASES = 80
MIN_SCORED = 36
MIN_RAISED = 37

CLASSES = (
    "Accelerating_and_revving_and_vroom Accordion Acoustic_guitar Applause Bark Bass_drum "
    "Bass_guitar Bathtub_(filling_or_washing) Bicycle_bell Burping_and_eructation Bus Buzz "
    "Car_passing_by Cheering Chewing_and_mastication Child_speech_and_kid_speaking Chink_and_clink "
    "Chirp_and_tweet Church_bell Clapping Computer_keyboard Crackle Cricket Crowd "
    "Cupboard_open_or_close Cutlery_and_silverware Dishes_and_pots_and_pans Drawer_open_or_close "
    "Drip Electric_guitar Fart Female_singing Female_speech_and_woman_speaking Fill_(with_liquid) "
    "Finger_snapping Frying_(food) Gasp Glockenspiel Gong Gurgling Harmonica Hi-hat Hiss "
    "Keys_jangling Knock Male_singing Male_speech_and_man_speaking Marimba_and_xylophone "
    "Mechanical_fan Meow Microwave_oven Motorcycle Printer Purr Race_car_and_auto_racing Raindrop "
    "Run Scissors Screaming Shatter Sigh Sink_(filling_or_washing) Skateboard Slam Sneeze Squeak "
    "Stream Strum Tap Tick-tock Toilet_flush Traffic_noise_and_roadway_noise Trickle_and_dribble "
    "Walk_and_footsteps Water_tap_and_faucet Waves_and_surf Whispering Writing Yell "
    "Zipper_(clothing)").split()


def grade(submission, answers):
    if len(submission) != len(answers):
        raise ValueError("length")
    if submission.columns[0] != "fname":
        raise ValueError("fname")
    if not all(submission.columns[1:] == CLASSES):
        raise ValueError("classes")
    submission = submission.sort_values("fname").reset_index(drop=True)
    answers = answers.sort_values("fname").reset_index(drop=True)
    if (submission["fname"].values != answers["fname"].values).any():
        raise ValueError("ids")
    # Upstream writes the converted columns back with iloc (and converts the
    # answers' 0/1 ints too); the same values, read straight, are faster.
    scores = submission.iloc[:, 1:].apply(pd.to_numeric).values
    truth = answers.iloc[:, 1:].values
    weights = np.sum(truth > 0, axis=1)
    labelled = np.flatnonzero(weights > 0)
    return label_ranking_average_precision_score(
        truth[labelled, :] > 0, scores[labelled, :], sample_weight=weights[labelled])


BAD = ["", "inf", "-inf", "abc", "1_0", "NaN ", "\u0663", "True", "0x10", '"1,5"']
ODD = [" 0.5", "0.5 ", '" 0.25 "', "+.5", "5.", "1E3", "-0.0e-0", "infinity", "00.7"]


def score(mode):
    if mode == 3:
        return rng.choice(ODD) if rng.random() < 0.02 else "0.5"
    if mode == 0:
        return rng.choice(["0", "0.5", "1", "1.0", "1e-3", "-0"])  # ties
    if mode == 1:
        return repr(rng.choice([1e308, -1e308, 5e-324, 1e-300, 0.0, 1.0]))
    return repr(round(rng.random(), rng.choice([1, 2, 17])))


def make_case(k):
    n = rng.choice([1, 2, 3, 10, 40, 100]) if k else 400
    fnames = [f"{rng.getrandbits(32):08x}.wav" for _ in range(n)]
    truths = []
    for _ in fnames:
        r = rng.random()
        count = 0 if r < 0.1 else 80 if r < 0.12 else rng.randint(1, 3)
        truths.append(set(rng.sample(range(80), count)))
    if k % 19 == 4:
        truths = [set() for _ in fnames]  # no clip labelled: no samples left
    mode = rng.randrange(4)
    rows = []
    for t in truths:
        cells = [score(mode) for _ in range(80)]
        if rng.random() < 0.3:
            for c in t:
                cells[c] = rng.choice(["1", "0.9", cells[c]])
        rows.append(cells)
    if k % 6 == 5:
        rows[rng.randrange(n)][rng.randrange(80)] = rng.choice(BAD)
    if k % 13 == 7:
        column = rng.randrange(80)
        for r in rows:
            r[column] = rng.choice(["True", "False"])  # a bool column: 0 and 1
    rows = spoil([[f] + r for f, r in zip(fnames, rows)],
                 lambda: f"{rng.getrandbits(32):08x}.wav")
    columns = ["fname"] + CLASSES
    if k % 17 == 9:
        columns = list(columns)
        fault = rng.randrange(4)
        if fault == 0:
            columns[5] = "Bark_"
        elif fault == 1:
            columns[3], columns[4] = columns[4], columns[3]
        elif fault == 2:
            columns, rows = columns[:-1], [r[:-1] for r in rows]
        else:
            columns, rows = columns[1:] + ["fname"], [r[1:] + r[:1] for r in rows]
    if k % 23 == 10:
        columns, rows = list(columns) + ["extra"], [r + ["0"] for r in rows]
    if k % 29 == 11:
        rows = []
    labels = [[f] + [str(int(c in t)) for c in range(80)] for f, t in zip(fnames, truths)]
    answers = csv_text(",".join(["fname"] + CLASSES), labels)
    return answers, csv_text(",".join(columns), rows)
