// Upstream's text-normalization-challenge-russian-language/grade.py: accuracy of the
// normalised tokens (`after`, compared as text), aligned on `id`. Shared
// with the other text-normalization competition.
#include "competitions/families/text_normalization/text_normalization.h"
#include "grading/grader.h"

namespace mlebench {
namespace {

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade = &GradeTextNormalization,
});

}  // namespace
}  // namespace mlebench
