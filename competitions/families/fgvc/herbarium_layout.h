#ifndef MLEBENCH_COMPETITIONS_FAMILIES_FGVC_HERBARIUM_LAYOUT_H_
#define MLEBENCH_COMPETITIONS_FAMILIES_FGVC_HERBARIUM_LAYOUT_H_

// What differs between the Kaggle downloads of herbarium-2020-fgvc7 and
// herbarium-2021-fgvc8 (one generator, herbarium_raw.h, and one upstream
// prepare.py, herbarium_prepare.h), for the tests both competitions share.

namespace mlebench {

struct HerbariumLayout {
  const char* id;                // the competition id
  const char* root;              // folder holding train/ and test/ ("" for none)
  const char* encoding;          // of the metadata files, as upstream reads them
  const char* dropped_test_key;  // a metadata key the public test metadata drops
  const char* accented_e;        // "é" as the metadata files spell it
};

inline constexpr HerbariumLayout kHerbarium2020Layout = {
    "herbarium-2020-fgvc7", "nybg2020", "latin-1", "regions", "\xe9"};
inline constexpr HerbariumLayout kHerbarium2021Layout = {
    "herbarium-2021-fgvc8", "", "utf-8", "institutions", "\xc3\xa9"};

}  // namespace mlebench

#endif  // MLEBENCH_COMPETITIONS_FAMILIES_FGVC_HERBARIUM_LAYOUT_H_
