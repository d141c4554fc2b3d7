#ifndef MLEBENCH_COMPETITIONS_DOG_BREED_IDENTIFICATION_CLASSES_H_
#define MLEBENCH_COMPETITIONS_DOG_BREED_IDENTIFICATION_CLASSES_H_

#include <string>
#include <vector>

namespace mlebench::dog_breed_identification {

// The 120 breeds, in the order of upstream's dog-breed-identification/dogs.py
// (alphabetical): the class columns of the answers and of submissions, in
// that order, and the values of the `breed` column in labels.csv.
const std::vector<std::string>& Breeds();

}  // namespace mlebench::dog_breed_identification

#endif  // MLEBENCH_COMPETITIONS_DOG_BREED_IDENTIFICATION_CLASSES_H_
