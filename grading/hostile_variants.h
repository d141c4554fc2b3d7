// Hostile variants of a sample submission: the ways a careless or broken
// agent mangles it. They are the hostile corpus of
// //tools:hostile_submissions_test and the seeds of every grader's fuzz
// target (grading/grade_fuzzing.h).
#ifndef MLEBENCH_GRADING_HOSTILE_VARIANTS_H_
#define MLEBENCH_GRADING_HOSTILE_VARIANTS_H_

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "base/table.h"

namespace mlebench::testing {

// A deterministic byte soup of `size` bytes with NULs, invalid UTF-8, quotes
// and newlines.
std::string BinaryGarbage(size_t size);

// Named hostile variants of a sample submission, in a fixed order. `sample`
// is the sample's text, `table` the same read as the grader reads
// submissions, `answers` the text of the answers file (itself a variant).
// Variants: empty and binary files, a header only, an unterminated quote, a
// byte-order mark, CRLF line ends, the answers file; rows reversed, repeated,
// dropped, none; every value after the first column NaN, inf, -inf, 1e308,
// -1, text, empty text or 2**70; a 100 kB cell; foreign ids; columns
// reversed, extra, each one missing, all renamed.
std::vector<std::pair<std::string, std::string>> HostileVariants(const std::string& sample,
                                                                 const Table& table,
                                                                 const std::string& answers);

}  // namespace mlebench::testing

#endif  // MLEBENCH_GRADING_HOSTILE_VARIANTS_H_
