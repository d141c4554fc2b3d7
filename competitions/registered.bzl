"""The competitions that have a package under //competitions (one line each).

Adding a competition: create competitions/<id>/ with its grader, preparer,
description and an `mle_competition` call, a synthetic generator under
testdata/<id>/, then add the id here (see docs/architecture.md).
"""

REGISTERED = [
    "aerial-cactus-identification",
    "spaceship-titanic",
    "spooky-author-identification",
]
