"""Upstream's grade() for nomad2018-predict-transparent-conductors (its
prepare_for_metric: column and row-count checks, no sorting and no id check;
then the mean of sklearn's root_mean_squared_log_error for
formation_energy_ev_natom and for bandgap_energy_ev), restated, on
scikit-learn 1.5.1, numpy 1.26.4 and pandas 2.2.2 of the reference
environment. Cases: the real answers' columns and value ranges, zeros;
exact, rounded, constant, huge and tiny predictions, -0.0 and float
spellings; negative, NaN, infinite and text predictions; rows shuffled
(paired by position), dropped, duplicated and with foreign ids; missing,
renamed and extra columns; empty submissions.
See //tools/upstream_grade:driver.py for the names this script is given."""
from sklearn import metrics

MIN_SCORED = 135
MIN_RAISED = 55
FORMATION, BANDGAP = "formation_energy_ev_natom", "bandgap_energy_ev"


def grade(submission, answers):
    assert FORMATION in answers.columns and BANDGAP in answers.columns
    if FORMATION not in submission.columns:
        raise ValueError("no formation")
    if BANDGAP not in submission.columns:
        raise ValueError("no bandgap")
    if len(submission) != len(answers):
        raise ValueError("rows")
    formation = metrics.root_mean_squared_log_error(answers[FORMATION], submission[FORMATION])
    bandgap = metrics.root_mean_squared_log_error(answers[BANDGAP], submission[BANDGAP])
    return (formation + bandgap) / 2


FEATURES = ["spacegroup", "number_of_total_atoms", "percent_atom_al", "percent_atom_ga",
            "percent_atom_in", "lattice_vector_1_ang", "lattice_vector_2_ang",
            "lattice_vector_3_ang", "lattice_angle_alpha_degree", "lattice_angle_beta_degree",
            "lattice_angle_gamma_degree"]


ODD = ["", "nan", "inf", "-inf", "abc", "NA", "None", "null", "N/A", "-nan", "Infinity",
       "+1.5", " 2.5", "2.5 ", "1e5", "0x10", "True", "1.5e", "."]


def prediction(truth, spread):
    r = rng.random()
    if r < 0.15:
        return truth
    if r < 0.2:
        return rng.choice(["0", "0.0", "-0.0", "1e-3", "1E2", "1e300", "5e-324", "0.1"])
    if r < 0.23:
        return truth + "0"
    return repr(abs(float(truth) + rng.gauss(0, spread)))


def make_case(k):
    n = rng.choice([1, 2, 5, 20, 60, 240]) if k else 3000
    rows = []
    for i in range(1, n + 1):
        formation = "0.0" if rng.random() < 0.03 else repr(round(rng.uniform(0, 0.66), 4))
        bandgap = repr(round(rng.uniform(0.0001, 5.3), 4))
        features = [rng.choice(["12", "33", "167", "194", "206", "227"]),
                    rng.choice(["10.0", "20.0", "30.0", "40.0", "60.0", "80.0"])]
        features += [repr(round(rng.random(), 4)) for _ in FEATURES[2:]]
        rows.append([str(i)] + features + [formation, bandgap])
    sub = [[r[0], prediction(r[-2], 0.05), prediction(r[-1], 0.3)] for r in rows]
    if k % 11 == 5:
        sub = [[r[0], "0.1", "2.0"] for r in sub]  # constant predictions
    sub = spoil(sub, lambda: str(rng.randint(n + 1, 9999)))
    header = f"id,{FORMATION},{BANDGAP}"
    r = rng.random()
    if r < 0.04:
        header = f"{BANDGAP},id,{FORMATION}"
        sub = [[b, i, f] for i, f, b in sub]
    elif r < 0.07:
        header = f"id,formation_energy,{BANDGAP}"
    elif r < 0.1:
        header = f"id,{FORMATION}"
        sub = [s[:2] for s in sub]
    elif r < 0.13:
        header = f"id,{FORMATION},{BANDGAP},extra"
        sub = [s + ["1"] for s in sub]
    elif r < 0.18 and sub:
        sub[rng.randrange(len(sub))][rng.choice([1, 2])] = rng.choice(
            ["-1e-9", "-0.5", "-1", "-2", "-1.5"])
    elif r < 0.19:
        sub = []
    elif r < 0.22:
        header = f"id,{FORMATION},{BANDGAP},{BANDGAP}"  # pandas names the last one .1
        sub = [s + ["0"] for s in sub]
    elif r < 0.24:
        sub = [[s[0], rng.choice(["True", "False"]), s[2]] for s in sub]  # a bool column
    if sub and rng.random() < 0.15:
        sub[rng.randrange(len(sub))][rng.choice([1, 2])] = rng.choice(ODD)
    answers = csv_text(",".join(["id"] + FEATURES + [FORMATION, BANDGAP]), rows)
    return answers, csv_text(header, sub)
