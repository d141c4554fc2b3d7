"""The competitions that have a package under //competitions (one line each).

Adding a competition: create competitions/<id>/ with its grader, preparer,
description and an `mle_competition` call, a synthetic generator under
testdata/<id>/, then add the id here (see docs/architecture.md).
"""

REGISTERED = [
    "aerial-cactus-identification",
    "aptos2019-blindness-detection",
    "billion-word-imputation",
    "bms-molecular-translation",
    "detecting-insults-in-social-commentary",
    "dog-breed-identification",
    "dogs-vs-cats-redux-kernels-edition",
    "google-quest-challenge",
    "histopathologic-cancer-detection",
    "hotel-id-2021-fgvc8",
    "invasive-species-monitoring",
    "jigsaw-toxic-comment-classification-challenge",
    "leaf-classification",
    "learning-agency-lab-automated-essay-scoring-2",
    "lmsys-chatbot-arena",
    "movie-review-sentiment-analysis-kernels-only",
    "new-york-city-taxi-fare-prediction",
    "nomad2018-predict-transparent-conductors",
    "paddy-disease-classification",
    "petfinder-pawpularity-score",
    "plant-pathology-2020-fgvc7",
    "playground-series-s3e18",
    "random-acts-of-pizza",
    "ranzcr-clip-catheter-line-classification",
    "spaceship-titanic",
    "spooky-author-identification",
    "tabular-playground-series-dec-2021",
    "tabular-playground-series-may-2022",
    "tensorflow-speech-recognition-challenge",
    "text-normalization-challenge-english-language",
    "text-normalization-challenge-russian-language",
    "the-icml-2013-whale-challenge-right-whale-redux",
    "tweet-sentiment-extraction",
    "us-patent-phrase-to-phrase-matching",
    "whale-categorization-playground",
]
