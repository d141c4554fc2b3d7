#ifndef MLEBENCH_SYNTHETIC_MP4_WRITER_H_
#define MLEBENCH_SYNTHETIC_MP4_WRITER_H_

// Tiny placeholder MP4 files for synthetic raw data whose videos upstream's
// prepare.py only copies (never decodes). The file is a structurally valid
// ISO base media file (ISO/IEC 14496-12) holding no tracks: an `ftyp` box
// (major brand "isom", compatible "isom", "iso2", "mp41"), a `moov` box with
// just a version-0 `mvhd` (timescale 1000, the given duration, identity
// matrix, rate 1.0, volume 1.0, next_track_ID 1), and a `free` box carrying
// `note` so that different videos have different bytes. No timestamps: the
// same arguments always give the same bytes.

#include <cstdint>
#include <string>
#include <string_view>

namespace mlebench {

std::string EncodePlaceholderMp4(uint32_t duration_ms, std::string_view note);

}  // namespace mlebench

#endif  // MLEBENCH_SYNTHETIC_MP4_WRITER_H_
