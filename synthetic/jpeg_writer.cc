#include "synthetic/jpeg_writer.h"

#include <csetjmp>
#include <cstdlib>

// jpeglib.h needs FILE and size_t declared first.
// clang-format off
#include <stddef.h>
#include <stdio.h>
#include <jpeglib.h>
// clang-format on

#include "absl/strings/str_cat.h"

namespace mlebench {
namespace {

// libjpeg reports errors by calling error_exit, which by default exits the
// process; ours jumps back to Compress with the message instead.
struct ErrorManager {
  jpeg_error_mgr base;
  std::jmp_buf jump;
  char message[JMSG_LENGTH_MAX];
};

void ExitWithError(j_common_ptr cinfo) {
  auto* errors = reinterpret_cast<ErrorManager*>(cinfo->err);
  (*cinfo->err->format_message)(cinfo, errors->message);
  std::longjmp(errors->jump, 1);
}

// Plain C-style function: no object with a destructor lives across setjmp.
// Returns false and fills `errors->message` on failure; on success *out and
// *out_size hold a malloc'ed buffer.
bool Compress(const RgbImage& image, int quality, ErrorManager* errors, unsigned char** out,
              unsigned long* out_size) {
  jpeg_compress_struct cinfo;
  cinfo.err = jpeg_std_error(&errors->base);
  errors->base.error_exit = ExitWithError;
  if (setjmp(errors->jump)) {
    jpeg_destroy_compress(&cinfo);
    return false;
  }
  jpeg_create_compress(&cinfo);
  jpeg_mem_dest(&cinfo, out, out_size);
  cinfo.image_width = static_cast<JDIMENSION>(image.width);
  cinfo.image_height = static_cast<JDIMENSION>(image.height);
  cinfo.input_components = 3;
  cinfo.in_color_space = JCS_RGB;
  jpeg_set_defaults(&cinfo);
  jpeg_set_quality(&cinfo, quality, TRUE);
  cinfo.dct_method = JDCT_ISLOW;
  cinfo.optimize_coding = FALSE;
  jpeg_start_compress(&cinfo, TRUE);
  const int stride = image.width * 3;
  while (cinfo.next_scanline < cinfo.image_height) {
    JSAMPROW row = const_cast<JSAMPROW>(image.pixels.data() + cinfo.next_scanline * stride);
    jpeg_write_scanlines(&cinfo, &row, 1);
  }
  jpeg_finish_compress(&cinfo);
  jpeg_destroy_compress(&cinfo);
  return true;
}

}  // namespace

absl::StatusOr<std::string> EncodeJpeg(const RgbImage& image, int quality) {
  if (image.width <= 0 || image.height <= 0 || image.width > 65500 || image.height > 65500) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot encode a ", image.width, "x", image.height, " image as JPEG"));
  }
  const size_t expected = static_cast<size_t>(image.width) * image.height * 3;
  if (image.pixels.size() != expected) {
    return absl::InvalidArgumentError(absl::StrCat("a ", image.width, "x", image.height,
                                                   " RGB image needs ", expected, " bytes, not ",
                                                   image.pixels.size()));
  }
  if (quality < 1 || quality > 100) {
    return absl::InvalidArgumentError(absl::StrCat("JPEG quality ", quality, " is not in 1-100"));
  }
  ErrorManager errors;
  unsigned char* buffer = nullptr;
  unsigned long size = 0;
  const bool ok = Compress(image, quality, &errors, &buffer, &size);
  std::string jpeg;
  if (ok) jpeg.assign(reinterpret_cast<const char*>(buffer), size);
  std::free(buffer);
  if (!ok) return absl::InternalError(absl::StrCat("libjpeg: ", errors.message));
  return jpeg;
}

}  // namespace mlebench
