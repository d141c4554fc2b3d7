import lightgbm as lgb
import numpy as np
import pandas as pd
from sklearn.model_selection import KFold


def engineer(df):
    df = df.copy()
    df["deck"] = df["Cabin"].str.split("/").str[0]
    df["side"] = df["Cabin"].str.split("/").str[2]
    df["grp"] = df["PassengerId"].str.split("_").str[0].astype(int)
    df["grp_n"] = df.groupby("grp")["grp"].transform("count")
    amenities = ["RoomService", "FoodCourt", "ShoppingMall", "Spa", "VRDeck"]
    df["spent"] = df[amenities].sum(axis=1)
    df["spent_nothing"] = (df["spent"] == 0).astype(int)
    for col in ["HomePlanet", "Destination", "deck", "side"]:
        df[col] = df[col].astype("category")
    return df.drop(columns=["Name", "Cabin"])


def cross_validate(X, y, X_test, config, k=5):
    valid_pred = np.zeros(len(X))
    final_pred = np.zeros(len(X_test))
    splitter = KFold(n_splits=k, shuffle=True, random_state=0)
    for tr, va in splitter.split(X):
        gbm = lgb.train(
            config,
            lgb.Dataset(X.iloc[tr], y.iloc[tr]),
            num_boost_round=2000,
            valid_sets=[lgb.Dataset(X.iloc[va], y.iloc[va])],
            callbacks=[lgb.early_stopping(100, verbose=False)],
        )
        valid_pred[va] = gbm.predict(X.iloc[va])
        final_pred += gbm.predict(X_test) / k
        print("fold done", len(tr), len(va))
    return valid_pred, final_pred


if __name__ == "__main__":
    data_dir = "/home/data"
    tr_df = engineer(pd.read_csv(f"{data_dir}/train.csv"))
    te_df = engineer(pd.read_csv(f"{data_dir}/test.csv"))
    y = tr_df.pop("Transported").astype(int)
    cols = [c for c in tr_df.columns if c != "PassengerId"]
    config = {"objective": "binary", "learning_rate": 0.02, "num_leaves": 31,
              "feature_fraction": 0.8, "bagging_fraction": 0.8, "bagging_freq": 1, "verbose": -1}
    valid_pred, final_pred = cross_validate(tr_df[cols], y, te_df[cols], config)
    print("accuracy", ((valid_pred > 0.5) == y).mean())
    pd.DataFrame({"PassengerId": te_df["PassengerId"], "Transported": final_pred > 0.5}).to_csv(
        "/home/submission/submission.csv", index=False)
