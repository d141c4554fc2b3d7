#ifndef MLEBENCH_GRADING_METRICS_VISION_GEOS_API_H_
#define MLEBENCH_GRADING_METRICS_VISION_GEOS_API_H_

// GEOS's C API (the library shapely wraps), loaded by name when a grader
// first needs it instead of linked into every binary: linked, libgeos_c and
// the libgeos it pulls in were ~5,500 symbol bindings, a millisecond of every
// `mlebench` start-up, for one grader (docs/performance.md, "Start-up").

#define GEOS_USE_ONLY_R_API
#include <geos_c.h>

#include "absl/status/statusor.h"

namespace mlebench {

// Debian 12's GEOS 3.11 C library (libgeos-c1v5), what the binary's NEEDED
// entry named when it was linked.
inline constexpr char kGeosLibrary[] = "libgeos_c.so.1";

// The reentrant functions the graders call, each GEOS's own.
struct GeosApi {
  decltype(&GEOS_init_r) init;
  decltype(&GEOS_finish_r) finish;
  decltype(&GEOSContext_setErrorMessageHandler_r) set_error_message_handler;
  decltype(&GEOSContext_setNoticeMessageHandler_r) set_notice_message_handler;
  decltype(&GEOSCoordSeq_create_r) coord_seq_create;
  decltype(&GEOSCoordSeq_setXY_r) coord_seq_set_xy;
  decltype(&GEOSGeom_createLinearRing_r) create_linear_ring;
  decltype(&GEOSGeom_createPolygon_r) create_polygon;
  decltype(&GEOSGeom_destroy_r) destroy;
  decltype(&GEOSIntersection_r) intersection;
  decltype(&GEOSArea_r) area;
};

// The functions of `library` (a name dlopen searches for, e.g.
// kGeosLibrary), which stays loaded; FailedPreconditionError naming the
// library, the missing function if one is, and dlopen's reason otherwise.
absl::StatusOr<GeosApi> LoadGeosApi(const char* library);

// LoadGeosApi(kGeosLibrary), once per process (thread-safe); its error each
// time if it failed.
absl::StatusOr<const GeosApi*> Geos();

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_METRICS_VISION_GEOS_API_H_
