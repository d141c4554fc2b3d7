#ifndef MLEBENCH_GRADING_METRICS_CLASSIFICATION_JIGSAW_BIAS_AUC_H_
#define MLEBENCH_GRADING_METRICS_CLASSIFICATION_JIGSAW_BIAS_AUC_H_

#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace mlebench {

// The bias-weighted AUC of Jigsaw Unintended Bias in Toxicity Classification,
// as upstream's grade.py computes it from its thresholded inputs:
//
//   w * AUC(all rows)
//     + w * M_p(subgroup AUCs) + w * M_p(BPSN AUCs) + w * M_p(BNSP AUCs)
//
// where, for identity column g, the subgroup AUC is taken over the rows in g,
// the BPSN AUC over non-toxic rows in g and toxic rows outside it, the BNSP
// AUC over toxic rows in g and non-toxic rows outside it, and
// M_p(s) = (sum_g s_g^p / G)^(1/p) is the power mean over the G identities.
// Every AUC is RocAucScore (scikit-learn's roc_auc_score, bit for bit), and
// the arithmetic follows upstream's order: Python's left-to-right sum from 0,
// C pow. With scikit-learn 1.5 the AUCs are numpy float64s, so an AUC of 0
// makes 0^p = inf and that power mean 0 (numpy warns, does not raise).
//
// `toxic[i]` is row i's label, 0 or 1; `score[i]` its prediction;
// `identities[g][i]` whether row i belongs to identity g.
//
// InvalidArgumentError: sizes differ; a label is not 0 or 1; no identities;
// `power` is 0; any AUC fails (RocAucScore's message, e.g. "Only one class
// present in y_true...", prefixed with which AUC: "subgroup AUC of identity
// 2: ..."), checked in upstream's order (overall, then per identity subgroup,
// BPSN, BNSP).
absl::StatusOr<double> JigsawBiasAuc(absl::Span<const double> toxic,
                                     absl::Span<const double> score,
                                     const std::vector<std::vector<bool>>& identities,
                                     double power = -5.0, double weight = 0.25);

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_METRICS_CLASSIFICATION_JIGSAW_BIAS_AUC_H_
