#include "grading/metrics/vision/geos_api.h"

#include <string>

#include "gtest/gtest.h"

namespace mlebench {
namespace {

// The system's GEOS loads, and its functions work: the area of a unit square.
TEST(GeosApiTest, LoadsTheSystemLibrary) {
  absl::StatusOr<const GeosApi*> geos = Geos();
  ASSERT_TRUE(geos.ok()) << geos.status();
  const GeosApi& api = **geos;
  GEOSContextHandle_t context = api.init();
  ASSERT_NE(context, nullptr);
  GEOSCoordSequence* ring = api.coord_seq_create(context, 5, 2);
  const double corners[5][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}, {0, 0}};
  for (unsigned i = 0; i < 5; ++i) api.coord_seq_set_xy(context, ring, i, corners[i][0], corners[i][1]);
  GEOSGeometry* square =
      api.create_polygon(context, api.create_linear_ring(context, ring), nullptr, 0);
  ASSERT_NE(square, nullptr);
  double area = 0;
  EXPECT_EQ(api.area(context, square, &area), 1);
  EXPECT_EQ(area, 1.0);
  api.destroy(context, square);
  api.finish(context);
  EXPECT_EQ(*Geos(), *geos);  // loaded once
}

TEST(GeosApiTest, AMissingLibraryIsAnErrorNamingIt) {
  const absl::StatusOr<GeosApi> api = LoadGeosApi("libgeos_c_not_here.so.1");
  ASSERT_FALSE(api.ok());
  EXPECT_EQ(api.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(std::string(api.status().message()).find("libgeos_c_not_here.so.1"), std::string::npos)
      << api.status();
}

TEST(GeosApiTest, ALibraryWithoutTheFunctionsIsAnErrorNamingOne) {
  const absl::StatusOr<GeosApi> api = LoadGeosApi("libz.so.1");
  ASSERT_FALSE(api.ok());
  EXPECT_NE(std::string(api.status().message()).find("has no function GEOS_init_r"),
            std::string::npos)
      << api.status();
}

}  // namespace
}  // namespace mlebench
