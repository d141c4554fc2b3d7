#include "grading/metrics/vision/geos_api.h"

#include <dlfcn.h>

#include <type_traits>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace mlebench {

absl::StatusOr<GeosApi> LoadGeosApi(const char* library) {
  void* handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* reason = dlerror();
    return absl::FailedPreconditionError(absl::StrCat(
        "GEOS's C library ", library, " cannot be loaded (Debian's libgeos-c1v5 provides it): ",
        reason == nullptr ? "unknown reason" : reason));
  }
  GeosApi api{};
  absl::Status missing;
  const auto find = [&](auto& function, const char* name) {
    function = reinterpret_cast<std::remove_reference_t<decltype(function)>>(dlsym(handle, name));
    if (function == nullptr && missing.ok()) {
      missing = absl::FailedPreconditionError(
          absl::StrCat("GEOS's C library ", library, " has no function ", name));
    }
  };
  find(api.init, "GEOS_init_r");
  find(api.finish, "GEOS_finish_r");
  find(api.set_error_message_handler, "GEOSContext_setErrorMessageHandler_r");
  find(api.set_notice_message_handler, "GEOSContext_setNoticeMessageHandler_r");
  find(api.coord_seq_create, "GEOSCoordSeq_create_r");
  find(api.coord_seq_set_xy, "GEOSCoordSeq_setXY_r");
  find(api.create_linear_ring, "GEOSGeom_createLinearRing_r");
  find(api.create_polygon, "GEOSGeom_createPolygon_r");
  find(api.destroy, "GEOSGeom_destroy_r");
  find(api.intersection, "GEOSIntersection_r");
  find(api.area, "GEOSArea_r");
  // On failure too the library stays loaded (never dlclose'd): harmless, and
  // Geos() loads once per process.
  if (!missing.ok()) return missing;
  return api;
}

absl::StatusOr<const GeosApi*> Geos() {
  static const absl::StatusOr<GeosApi>* const api =
      new absl::StatusOr<GeosApi>(LoadGeosApi(kGeosLibrary));
  if (!api->ok()) return api->status();
  return &**api;
}

}  // namespace mlebench
