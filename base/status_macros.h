// Status propagation in one line, for functions returning absl::Status or
// absl::StatusOr<T> (abseil has no public macros for it).
//
//   RETURN_IF_ERROR(WriteFile(path, text));
//       // returns the status of WriteFile when it is not OK
//
//   ASSIGN_OR_RETURN(Table table, ReadCsvFile(path));
//       // returns the StatusOr's status when it is not OK, else moves its
//       // value into the left side: one declaration (`Table table`,
//       // `auto& x` is not allowed: the value is a temporary) or one
//       // assignable expression (`table`, `*out`). Structured bindings and
//       // left sides holding a top-level comma need a declared variable.
//
// ASSIGN_OR_RETURN declares a hidden variable named after the line, so two
// uses may not share a line.
//
// Both evaluate their expression exactly once. The returned status is the
// original one, unchanged (no message is added), so callers that match on
// codes or payloads (e.g. IsInvalidSubmission) see what the callee produced.
#ifndef MLEBENCH_BASE_STATUS_MACROS_H_
#define MLEBENCH_BASE_STATUS_MACROS_H_

#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

#define RETURN_IF_ERROR(expr)                                                \
  do {                                                                       \
    if (::absl::Status mlebench_status_macros_status = (expr);               \
        !mlebench_status_macros_status.ok()) {                               \
      return mlebench_status_macros_status;                                  \
    }                                                                        \
  } while (false)

#define ASSIGN_OR_RETURN(lhs, expr) \
  MLEBENCH_ASSIGN_OR_RETURN_IMPL_(  \
      MLEBENCH_STATUS_MACROS_CONCAT_(mlebench_status_or_, __LINE__), lhs, expr)

// Implementation details; not for callers.
#define MLEBENCH_STATUS_MACROS_CONCAT_INNER_(a, b) a##b
#define MLEBENCH_STATUS_MACROS_CONCAT_(a, b) MLEBENCH_STATUS_MACROS_CONCAT_INNER_(a, b)
#define MLEBENCH_ASSIGN_OR_RETURN_IMPL_(statusor, lhs, expr) \
  auto statusor = (expr);                                    \
  if (!statusor.ok()) return std::move(statusor).status();   \
  lhs = *std::move(statusor)

#endif  // MLEBENCH_BASE_STATUS_MACROS_H_
