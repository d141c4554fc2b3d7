#include "synthetic/mp4_writer.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace mlebench {
namespace {

void AppendU32(std::string& out, uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<char>((v >> shift) & 0xff));
}

void AppendU16(std::string& out, uint16_t v) {
  out.push_back(static_cast<char>(v >> 8));
  out.push_back(static_cast<char>(v & 0xff));
}

// A box: 32-bit big-endian size (header included), 4-byte type, payload.
std::string Box(std::string_view type, std::string_view payload) {
  std::string box;
  AppendU32(box, static_cast<uint32_t>(8 + payload.size()));
  box.append(type);
  box.append(payload);
  return box;
}

}  // namespace

std::string EncodePlaceholderMp4(uint32_t duration_ms, std::string_view note) {
  std::string ftyp;
  ftyp.append("isom");
  AppendU32(ftyp, 0x200);  // minor version
  ftyp.append("isomiso2mp41");

  std::string mvhd;
  AppendU32(mvhd, 0);  // version 0, flags 0
  AppendU32(mvhd, 0);  // creation_time: none, for reproducible bytes
  AppendU32(mvhd, 0);  // modification_time
  AppendU32(mvhd, 1000);  // timescale: milliseconds
  AppendU32(mvhd, duration_ms);
  AppendU32(mvhd, 0x00010000);  // rate 1.0 (16.16)
  AppendU16(mvhd, 0x0100);  // volume 1.0 (8.8)
  AppendU16(mvhd, 0);  // reserved
  AppendU32(mvhd, 0);
  AppendU32(mvhd, 0);
  // Identity transformation matrix {a b u; c d v; x y w} in 16.16 / 2.30.
  for (uint32_t v : {0x00010000u, 0u, 0u, 0u, 0x00010000u, 0u, 0u, 0u, 0x40000000u}) AppendU32(mvhd, v);
  for (int i = 0; i < 6; ++i) AppendU32(mvhd, 0);  // pre_defined
  AppendU32(mvhd, 1);  // next_track_ID

  return Box("ftyp", ftyp) + Box("moov", Box("mvhd", mvhd)) + Box("free", note);
}

}  // namespace mlebench
