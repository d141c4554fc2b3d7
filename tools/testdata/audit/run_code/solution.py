"""Author identification: word and character TF-IDF, one logistic regression."""
import numpy as np
import pandas as pd
from scipy.sparse import hstack
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold
from sklearn.metrics import log_loss

train = pd.read_csv("../input/train.csv")
test = pd.read_csv("../input/test.csv")
authors = sorted(train["author"].unique())
y = train["author"].map({a: i for i, a in enumerate(authors)}).values

word_vectorizer = TfidfVectorizer(ngram_range=(1, 2), min_df=2, sublinear_tf=True)
char_vectorizer = TfidfVectorizer(analyzer="char_wb", ngram_range=(2, 5), min_df=3, sublinear_tf=True)
all_text = pd.concat([train["text"], test["text"]])
word_vectorizer.fit(all_text)
char_vectorizer.fit(all_text)
X = hstack([word_vectorizer.transform(train["text"]), char_vectorizer.transform(train["text"])]).tocsr()
X_test = hstack([word_vectorizer.transform(test["text"]), char_vectorizer.transform(test["text"])]).tocsr()

oof = np.zeros((X.shape[0], len(authors)))
predictions = np.zeros((X_test.shape[0], len(authors)))
folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=42)
for fold, (train_idx, valid_idx) in enumerate(folds.split(X, y)):
    model = LogisticRegression(C=4.0, max_iter=2000, solver="saga")
    model.fit(X[train_idx], y[train_idx])
    oof[valid_idx] = model.predict_proba(X[valid_idx])
    predictions += model.predict_proba(X_test) / folds.n_splits
    print(f"fold {fold}: log loss {log_loss(y[valid_idx], oof[valid_idx]):.5f}")

print(f"cross-validated log loss {log_loss(y, oof):.5f}")
submission = pd.DataFrame(predictions, columns=authors)
submission.insert(0, "id", test["id"])
submission.to_csv("submission.csv", index=False)
