"""An agent the way agent developers write them: a Python script on pandas and
scikit-learn. It is the example of docs/agents.md, and
//agent_runner/agents/example:example_agent_test checks that it beats the
sample submission on spaceship-titanic and spooky-author-identification.

It handles one shape of task: train.csv and test.csv, with the target the one
column of train.csv that test.csv lacks, and a sample submission that is
either id + that target (classification or regression: a gradient-boosted
model on the columns) or id + one probability column per class (text: TF-IDF
and a logistic regression over the text column).
"""

import os
import sys

import numpy as np
import pandas as pd
from sklearn.ensemble import HistGradientBoostingClassifier, HistGradientBoostingRegressor
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression


def log(message):
    print(f"example agent: {message}", flush=True)


def tabular_features(frame, columns):
    features = pd.DataFrame(index=frame.index)
    for column in columns:
        values = frame[column]
        if values.dtype == object or values.dtype == bool:
            features[column] = values.astype("category").cat.codes
        else:
            features[column] = values
    return features


def main():
    data = os.environ["MLEBENCH_DATA_DIR"]
    out = os.path.join(os.environ["MLEBENCH_SUBMISSION_DIR"], "submission.csv")
    seed = int(os.environ.get("MLEBENCH_SEED", "0"))
    cpus = int(os.environ.get("MLEBENCH_CPUS", "1"))
    log(f"{os.environ['MLEBENCH_COMPETITION_ID']}: seed {seed}, {cpus} CPU(s), "
        f"os.cpu_count() {os.cpu_count()}")
    train = pd.read_csv(os.path.join(data, "train.csv"))
    test = pd.read_csv(os.path.join(data, "test.csv"))
    sample = pd.read_csv(os.environ["MLEBENCH_SAMPLE_SUBMISSION"])
    id_column = sample.columns[0]
    targets = [c for c in train.columns if c not in test.columns]
    if len(targets) != 1:
        sys.exit(f"cannot tell the target among {targets}")
    target = targets[0]
    submission = pd.DataFrame({id_column: test[id_column]})
    if list(sample.columns[1:]) == [target]:
        columns = [c for c in test.columns if c != id_column]
        # Mixed columns: pandas reads them as object; everything is encoded.
        x_train = tabular_features(train, columns)
        x_test = tabular_features(pd.concat([train[columns], test[columns]]), columns)
        x_test = x_test.iloc[len(train):]
        y = train[target]
        if y.dtype == bool or y.dtype == object or y.nunique() <= 20:
            model = HistGradientBoostingClassifier(random_state=seed)
        else:
            model = HistGradientBoostingRegressor(random_state=seed)
        model.fit(x_train.loc[:, columns], y)
        submission[target] = model.predict(x_test.loc[:, columns])
        log(f"gradient boosting on {len(columns)} columns, {len(train)} rows")
    else:
        classes = list(sample.columns[1:])
        text = [c for c in test.columns if c != id_column and test[c].dtype == object][0]
        vectorizer = TfidfVectorizer(sublinear_tf=True, ngram_range=(1, 2), min_df=2)
        x_train = vectorizer.fit_transform(train[text])
        model = LogisticRegression(C=4.0, max_iter=1000, random_state=seed)
        model.fit(x_train, train[target])
        probabilities = model.predict_proba(vectorizer.transform(test[text]))
        for index, name in enumerate(model.classes_):
            submission[name] = probabilities[:, index]
        submission = submission[[id_column] + classes]
        log(f"TF-IDF and logistic regression on '{text}', {len(classes)} classes")
    submission.to_csv(out, index=False)
    log(f"wrote {len(submission)} rows to {out}")


if __name__ == "__main__":
    main()
