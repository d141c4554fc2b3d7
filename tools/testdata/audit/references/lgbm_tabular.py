import lightgbm as lgb
import numpy as np
import pandas as pd
from sklearn.model_selection import KFold


def add_features(frame):
    frame = frame.copy()
    frame["cabin_deck"] = frame["Cabin"].str.split("/").str[0]
    frame["cabin_side"] = frame["Cabin"].str.split("/").str[2]
    frame["group"] = frame["PassengerId"].str.split("_").str[0].astype(int)
    frame["group_size"] = frame.groupby("group")["group"].transform("count")
    spend = ["RoomService", "FoodCourt", "ShoppingMall", "Spa", "VRDeck"]
    frame["total_spend"] = frame[spend].sum(axis=1)
    frame["no_spend"] = (frame["total_spend"] == 0).astype(int)
    for column in ["HomePlanet", "Destination", "cabin_deck", "cabin_side"]:
        frame[column] = frame[column].astype("category")
    return frame.drop(columns=["Name", "Cabin"])


def train_folds(features, target, test_features, params, n_splits=5):
    oof = np.zeros(len(features))
    test_pred = np.zeros(len(test_features))
    kfold = KFold(n_splits=n_splits, shuffle=True, random_state=0)
    for train_idx, valid_idx in kfold.split(features):
        booster = lgb.train(
            params,
            lgb.Dataset(features.iloc[train_idx], target.iloc[train_idx]),
            num_boost_round=2000,
            valid_sets=[lgb.Dataset(features.iloc[valid_idx], target.iloc[valid_idx])],
            callbacks=[lgb.early_stopping(100, verbose=False)],
        )
        oof[valid_idx] = booster.predict(features.iloc[valid_idx])
        test_pred += booster.predict(test_features) / n_splits
    return oof, test_pred


if __name__ == "__main__":
    train = add_features(pd.read_csv("/kaggle/input/spaceship-titanic/train.csv"))
    test = add_features(pd.read_csv("/kaggle/input/spaceship-titanic/test.csv"))
    target = train.pop("Transported").astype(int)
    columns = [c for c in train.columns if c != "PassengerId"]
    params = {"objective": "binary", "learning_rate": 0.02, "num_leaves": 31,
              "feature_fraction": 0.8, "bagging_fraction": 0.8, "bagging_freq": 1, "verbose": -1}
    oof, test_pred = train_folds(train[columns], target, test[columns], params)
    print("accuracy", ((oof > 0.5) == target).mean())
    pd.DataFrame({"PassengerId": test["PassengerId"], "Transported": test_pred > 0.5}).to_csv(
        "submission.csv", index=False)
