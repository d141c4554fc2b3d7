"""Upstream's grade() for leaf-classification (prepare_for_metric, its
one_hot_dfs_to_log_loss_inputs helper, then log_loss on the one-hot answers),
restated, on the reference environment's pandas 2.2.2, numpy 1.26.4 and
scikit-learn 1.5.1. Cases: soft, one-hot and uniform rows; zeros (clipped);
row sums just inside and outside isclose's tolerance; NaN, text, negative,
above-one and inf cells; a species column missing, doubled or extra (upstream
wants exactly the id and the 99 species); integer ids spelled as floats;
dropped, duplicated and foreign ids; empty submissions.
See //tools/upstream_grade:driver.py for the names this script is given."""
from sklearn.metrics import log_loss

MIN_SCORED = 90
MIN_RAISED = 100

# Upstream's classes.py, in its order: the answers' columns after "id".
CLASSES = """
    Acer_Capillipes Acer_Circinatum Acer_Mono Acer_Opalus Acer_Palmatum Acer_Pictum
    Acer_Platanoids Acer_Rubrum Acer_Rufinerve Acer_Saccharinum Alnus_Cordata
    Alnus_Maximowiczii Alnus_Rubra Alnus_Sieboldiana Alnus_Viridis Arundinaria_Simonii
    Betula_Austrosinensis Betula_Pendula Callicarpa_Bodinieri Castanea_Sativa Celtis_Koraiensis
    Cercis_Siliquastrum Cornus_Chinensis Cornus_Controversa Cornus_Macrophylla
    Cotinus_Coggygria Crataegus_Monogyna Cytisus_Battandieri Eucalyptus_Glaucescens
    Eucalyptus_Neglecta Eucalyptus_Urnigera Fagus_Sylvatica Ginkgo_Biloba Ilex_Aquifolium
    Ilex_Cornuta Liquidambar_Styraciflua Liriodendron_Tulipifera Lithocarpus_Cleistocarpus
    Lithocarpus_Edulis Magnolia_Heptapeta Magnolia_Salicifolia Morus_Nigra Olea_Europaea
    Phildelphus Populus_Adenopoda Populus_Grandidentata Populus_Nigra Prunus_Avium
    Prunus_X_Shmittii Pterocarya_Stenoptera Quercus_Afares Quercus_Agrifolia Quercus_Alnifolia
    Quercus_Brantii Quercus_Canariensis Quercus_Castaneifolia Quercus_Cerris
    Quercus_Chrysolepis Quercus_Coccifera Quercus_Coccinea Quercus_Crassifolia
    Quercus_Crassipes Quercus_Dolicholepis Quercus_Ellipsoidalis Quercus_Greggii
    Quercus_Hartwissiana Quercus_Ilex Quercus_Imbricaria Quercus_Infectoria_sub
    Quercus_Kewensis Quercus_Nigra Quercus_Palustris Quercus_Phellos Quercus_Phillyraeoides
    Quercus_Pontica Quercus_Pubescens Quercus_Pyrenaica Quercus_Rhysophylla Quercus_Rubra
    Quercus_Semecarpifolia Quercus_Shumardii Quercus_Suber Quercus_Texana Quercus_Trojana
    Quercus_Variabilis Quercus_Vulcanica Quercus_x_Hispanica Quercus_x_Turneri
    Rhododendron_x_Russellianum Salix_Fragilis Salix_Intergra Sorbus_Aria Tilia_Oliveri
    Tilia_Platyphyllos Tilia_Tomentosa Ulmus_Bergmanniana Viburnum_Tinus
    Viburnum_x_Rhytidophylloides Zelkova_Serrata
""".split()


one_hot_log_loss_inputs = one_hot_log_loss_inputs


def grade(submission, answers):
    if set(submission.columns) != {"id"} | set(CLASSES):
        raise ValueError("columns must be the id and the classes")
    if len(submission) != len(answers):
        raise ValueError("length")
    probabilities = submission[CLASSES]
    if not np.all(np.isclose(probabilities.sum(axis=1), 1, atol=1e-6)):
        raise ValueError("rows must sum to one")
    if not ((probabilities >= 0) & (probabilities <= 1)).all().all():
        raise ValueError("range")
    assert set(answers.columns) == {"id"} | set(CLASSES)
    y_true, y_pred = one_hot_log_loss_inputs(submission, answers, "id")
    return log_loss(y_true=y_true, y_pred=y_pred)


def probability_row(style):
    """The class cells of one row, as text."""
    cells = ["0"] * len(CLASSES)
    if style == "one-hot":
        cells[rng.randrange(len(CLASSES))] = rng.choice(["1", "1.0", "1e0"])
        return cells
    if style == "uniform":
        return [repr(1 / len(CLASSES))] * len(CLASSES)
    chosen = rng.sample(range(len(CLASSES)), rng.choice([1, 2, 5, 99]))
    weights = [rng.random() for _ in chosen]
    total = sum(weights)
    for c, w in zip(chosen, weights):
        cells[c] = repr(w / total)
    if style == "rounded":  # sums drift from one by up to ~ len(chosen) * 5e-4
        digits = rng.choice([3, 7])
        cells = [c if c == "0" else repr(round(float(c), digits)) for c in cells]
    elif style == "near" and rng.random() < 0.2:  # just in or out of atol 1e-6 + rtol 1e-5
        c = chosen[0]
        cells[c] = repr(float(cells[c]) + rng.choice([9e-6, 1.05e-5, -1.05e-5, 1.2e-5, -2e-5]))
    return cells


def fault(cells):
    c = rng.randrange(len(cells))
    r = rng.random()
    if r < 0.3:
        cells[c] = rng.choice(["", "abc", "nan", "inf", "-inf"])
    elif r < 0.6:  # out of range, still summing to one
        d = rng.randrange(len(cells))
        if d != c:
            cells[c], cells[d] = "1.5", "-0.5"
    else:
        cells[c] = rng.choice(["1e-300", "5e-324", "0.0", "-0.0"])
    return cells


def make_case(k):
    n = rng.choice([1, 2, 3, 10, 40, 200]) if k else 1000
    ids = rng.sample(range(1, 2 * n + 2), n)
    truth = [rng.randrange(len(CLASSES)) for _ in ids]
    answers = [[str(i)] + ["1" if t == c else "0" for c in range(len(CLASSES))]
               for i, t in zip(ids, truth)]
    style = rng.choice(["soft", "soft", "one-hot", "uniform", "rounded", "near"])
    spelling = rng.choice([str, str, str, lambda i: f"{i}.0"])  # 1.0 == 1 after sorting
    rows = []
    for i, t in zip(ids, truth):
        if style == "one-hot" and rng.random() < 0.5:
            cells = ["1" if t == c else "0" for c in range(len(CLASSES))]
        else:
            cells = probability_row(style)
        rows.append([spelling(i)] + cells)
    if rng.random() < 0.25:
        rows[0] = rows[0][:1] + fault(rows[0][1:])
    rows = spoil(rows, lambda: str(rng.randrange(10**5)))
    header = ["id"] + CLASSES
    r = rng.random()
    if r < 0.04:  # a class column missing
        drop = rng.randrange(1, len(header))
        header = header[:drop] + header[drop + 1:]
        rows = [row[:drop] + row[drop + 1:] for row in rows]
    elif r < 0.07:  # a class column twice: pandas names the second "<class>.1"
        c = rng.randrange(1, len(header))
        header = header + [header[c]]
        rows = [row + [row[c]] for row in rows]
    elif r < 0.1:
        header, rows = header + ["extra"], [row + ["0"] for row in rows]
    elif r < 0.14:  # the columns shuffled
        order = list(range(len(header)))
        rng.shuffle(order)
        header = [header[o] for o in order]
        rows = [[row[o] for o in order] for row in rows]
    elif r < 0.16:
        rows = []
    return csv_text(",".join(["id"] + CLASSES), answers), csv_text(",".join(header), rows)
