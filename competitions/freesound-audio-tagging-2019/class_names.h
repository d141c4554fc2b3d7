#ifndef MLEBENCH_COMPETITIONS_FREESOUND_AUDIO_TAGGING_2019_CLASS_NAMES_H_
#define MLEBENCH_COMPETITIONS_FREESOUND_AUDIO_TAGGING_2019_CLASS_NAMES_H_

#include <string>
#include <vector>

namespace mlebench::freesound {

// The competition's 80 sound classes (FSDKaggle2019's label vocabulary), in
// the order of the submission's and the answers' columns after `fname`.
const std::vector<std::string>& ClassNames();

}  // namespace mlebench::freesound

#endif  // MLEBENCH_COMPETITIONS_FREESOUND_AUDIO_TAGGING_2019_CLASS_NAMES_H_
