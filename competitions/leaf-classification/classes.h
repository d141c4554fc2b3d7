#ifndef MLEBENCH_COMPETITIONS_LEAF_CLASSIFICATION_CLASSES_H_
#define MLEBENCH_COMPETITIONS_LEAF_CLASSIFICATION_CLASSES_H_

#include <string>
#include <vector>

namespace mlebench::leaf_classification {

// The 99 species, in the order of upstream's leaf-classification/classes.py:
// the class columns of the answers and of submissions, in that order.
const std::vector<std::string>& Classes();

}  // namespace mlebench::leaf_classification

#endif  // MLEBENCH_COMPETITIONS_LEAF_CLASSIFICATION_CLASSES_H_
