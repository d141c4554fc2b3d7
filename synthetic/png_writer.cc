#include "synthetic/png_writer.h"

#include <png.h>

#include <csetjmp>
#include <cstring>

#include "absl/strings/str_cat.h"

namespace mlebench {
namespace {

// libpng reports errors through a callback that must not return; ours
// records the message and longjmps back to Compress.
struct WriteState {
  std::string* out;
  char message[256];
};

void AppendToString(png_structp png, png_bytep data, png_size_t length) {
  auto* state = static_cast<WriteState*>(png_get_io_ptr(png));
  state->out->append(reinterpret_cast<const char*>(data), length);
}

void FlushNothing(png_structp) {}

void RecordErrorAndJump(png_structp png, png_const_charp message) {
  auto* state = static_cast<WriteState*>(png_get_error_ptr(png));
  std::strncpy(state->message, message, sizeof(state->message) - 1);
  state->message[sizeof(state->message) - 1] = '\0';
  png_longjmp(png, 1);
}

void IgnoreWarning(png_structp, png_const_charp) {}

// Plain C-style function: nothing with a destructor is created between setjmp
// and a possible longjmp. Returns false and fills state->message on failure.
bool Compress(const PngImage& image, WriteState* state) {
  png_structp png =
      png_create_write_struct(PNG_LIBPNG_VER_STRING, state, RecordErrorAndJump, IgnoreWarning);
  if (png == nullptr) {
    std::strcpy(state->message, "png_create_write_struct failed");
    return false;
  }
  png_infop info = png_create_info_struct(png);
  if (info == nullptr) {
    png_destroy_write_struct(&png, nullptr);
    std::strcpy(state->message, "png_create_info_struct failed");
    return false;
  }
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    return false;
  }
  png_set_write_fn(png, state, AppendToString, FlushNothing);
  png_set_compression_level(png, 6);
  png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_ALL_FILTERS);
  const int bytes_per_pixel = static_cast<int>(image.color);
  png_set_IHDR(png, info, static_cast<png_uint_32>(image.width),
               static_cast<png_uint_32>(image.height), 8,
               image.color == PngColor::kGray ? PNG_COLOR_TYPE_GRAY : PNG_COLOR_TYPE_RGB,
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
  png_write_info(png, info);
  const size_t stride = static_cast<size_t>(image.width) * bytes_per_pixel;
  for (int y = 0; y < image.height; ++y) {
    png_write_row(png, const_cast<png_bytep>(image.pixels.data() + y * stride));
  }
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  return true;
}

}  // namespace

absl::StatusOr<std::string> EncodePng(const PngImage& image) {
  if (image.color != PngColor::kGray && image.color != PngColor::kRgb) {
    return absl::InvalidArgumentError("PNG color must be gray or RGB");
  }
  // PNG allows up to 2^31-1, but no synthetic image needs more than this.
  constexpr int kMaxSide = 1 << 16;
  if (image.width <= 0 || image.height <= 0 || image.width > kMaxSide || image.height > kMaxSide) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot encode a ", image.width, "x", image.height, " image as PNG"));
  }
  const size_t expected =
      static_cast<size_t>(image.width) * image.height * static_cast<int>(image.color);
  if (image.pixels.size() != expected) {
    return absl::InvalidArgumentError(absl::StrCat(
        "a ", image.width, "x", image.height, image.color == PngColor::kGray ? " gray" : " RGB",
        " image needs ", expected, " bytes, not ", image.pixels.size()));
  }
  std::string png;
  WriteState state{&png, {}};
  if (!Compress(image, &state)) return absl::InternalError(absl::StrCat("libpng: ", state.message));
  return png;
}

}  // namespace mlebench
