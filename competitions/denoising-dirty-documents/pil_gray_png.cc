#include "competitions/denoising-dirty-documents/pil_gray_png.h"

#include <png.h>

#include <csetjmp>
#include <cstring>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace mlebench {
namespace {

struct PngSource {
  const unsigned char* data;
  size_t size;
  size_t offset;
  char error[256];
};

void ReadBytes(png_structp png, png_bytep out, png_size_t count) {
  PngSource* source = static_cast<PngSource*>(png_get_io_ptr(png));
  if (count > source->size - source->offset) png_error(png, "file is truncated");
  std::memcpy(out, source->data + source->offset, count);
  source->offset += count;
}

void OnError(png_structp png, png_const_charp message) {
  PngSource* source = static_cast<PngSource*>(png_get_error_ptr(png));
  std::snprintf(source->error, sizeof(source->error), "%s", message);
  png_longjmp(png, 1);
}

void OnWarning(png_structp, png_const_charp) {}

// Decodes into `rgb_or_gray` (1 or 3 channels per pixel, set in `channels`).
// Only plain C objects live in this frame, as longjmp skips destructors; the
// vectors it fills belong to the caller.
bool Decode(PngSource* source, std::vector<uint8_t>* pixels, std::vector<png_bytep>* rows,
            int* width, int* height, int* channels) {
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, source, &OnError, &OnWarning);
  if (png == nullptr) {
    std::snprintf(source->error, sizeof(source->error), "cannot allocate a libpng reader");
    return false;
  }
  png_infop info = png_create_info_struct(png);
  if (info == nullptr || setjmp(png_jmpbuf(png))) {
    png_destroy_read_struct(&png, &info, nullptr);
    return false;
  }
  png_set_read_fn(png, source, &ReadBytes);
  png_read_info(png, info);
  const int bit_depth = png_get_bit_depth(png, info);
  const int color_type = png_get_color_type(png, info);
  if (bit_depth > 8) png_error(png, "16-bit images are not supported (PIL reads them as I;16)");
  if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
  if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
  if (color_type & PNG_COLOR_MASK_ALPHA) png_set_strip_alpha(png);
  png_set_interlace_handling(png);
  png_read_update_info(png, info);
  *width = static_cast<int>(png_get_image_width(png, info));
  *height = static_cast<int>(png_get_image_height(png, info));
  *channels = png_get_channels(png, info);
  if (*channels != 1 && *channels != 3) png_error(png, "unexpected channel layout");
  if (static_cast<uint64_t>(*width) * *height > (uint64_t{1} << 28)) png_error(png, "image too large");
  pixels->assign(static_cast<size_t>(*width) * *height * *channels, 0);
  rows->assign(*height, nullptr);
  for (int y = 0; y < *height; ++y) {
    (*rows)[y] = pixels->data() + static_cast<size_t>(y) * *width * *channels;
  }
  png_read_image(png, rows->data());
  png_read_end(png, nullptr);
  png_destroy_read_struct(&png, &info, nullptr);
  return true;
}

}  // namespace

absl::StatusOr<GrayImage> DecodePngAsPilGray(std::string_view bytes, std::string_view name) {
  PngSource source{reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), 0, {0}};
  if (bytes.size() < 8 || png_sig_cmp(source.data, 0, 8) != 0) {
    return absl::InvalidArgumentError(absl::StrCat(std::string(name), " is not a PNG file"));
  }
  std::vector<uint8_t> pixels;
  std::vector<png_bytep> rows;
  int width = 0, height = 0, channels = 0;
  if (!Decode(&source, &pixels, &rows, &width, &height, &channels)) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot decode PNG ", std::string(name), ": ", source.error));
  }
  GrayImage image{width, height, {}};
  if (channels == 1) {
    image.pixels = std::move(pixels);
    return image;
  }
  image.pixels.resize(static_cast<size_t>(width) * height);
  for (size_t i = 0; i < image.pixels.size(); ++i) {
    const uint32_t luma = pixels[3 * i] * 19595u + pixels[3 * i + 1] * 38470u +
                          pixels[3 * i + 2] * 7471u + 0x8000u;
    image.pixels[i] = static_cast<uint8_t>(luma >> 16);
  }
  return image;
}

}  // namespace mlebench
