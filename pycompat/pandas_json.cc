#include "pycompat/pandas_json.h"

#include <cmath>
#include <cstdint>
#include <cstdio>

namespace mlebench {
namespace {

void AppendHex4(uint32_t unit, std::string& out) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += "\\u";
  for (int shift = 12; shift >= 0; shift -= 4) out.push_back(kHex[(unit >> shift) & 0xF]);
}

}  // namespace

std::string PandasJsonDouble(double value, int precision) {
  if (std::isnan(value) || std::isinf(value)) return "null";
  if (precision < 0) precision = 0;
  if (precision > 15) precision = 15;
  const double kThresMax = 1e16 - 1;
  const double kThresMin = 1e-15;
  const bool neg = value < 0;
  if (neg) value = -value;
  if (value > kThresMax || (value != 0.0 && value < kThresMin)) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*g", precision, neg ? -value : value);
    return buf;
  }
  double pow10 = 1;
  for (int i = 0; i < precision; ++i) pow10 *= 10;
  uint64_t whole = static_cast<uint64_t>(value);
  const double tmp = (value - static_cast<double>(whole)) * pow10;
  uint64_t frac = static_cast<uint64_t>(tmp);
  const double diff = tmp - static_cast<double>(frac);
  if (diff > 0.5) {
    ++frac;
  } else if (diff == 0.5 && (frac == 0 || (frac & 1))) {
    ++frac;
  }
  if (static_cast<double>(frac) >= pow10) {
    frac = 0;
    ++whole;
  }
  std::string fraction;
  if (precision == 0) {
    const double whole_diff = value - static_cast<double>(whole);
    if (whole_diff > 0.5 || (whole_diff == 0.5 && (whole & 1))) ++whole;
    // ultrajson writes neither a point nor digits after it here.
  } else if (frac != 0) {
    int count = precision;
    while (frac % 10 == 0) {
      --count;
      frac /= 10;
    }
    std::string digits = std::to_string(frac);
    fraction = "." + std::string(count - static_cast<int>(digits.size()), '0') + digits;
  } else {
    fraction = ".0";
  }
  return (neg ? "-" : "") + std::to_string(whole) + fraction;
}

std::string PandasJsonString(std::string_view utf8) {
  std::string out = "\"";
  size_t i = 0;
  while (i < utf8.size()) {
    const uint8_t c = static_cast<uint8_t>(utf8[i]);
    if (c < 0x80) {
      switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '/': out += "\\/"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
          if (c < 0x20) {
            AppendHex4(c, out);
          } else {
            out.push_back(static_cast<char>(c));
          }
      }
      ++i;
      continue;
    }
    // Decode one UTF-8 (or WTF-8) sequence; a stray byte is written as its
    // own code point rather than dropped.
    int extra = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
    uint32_t cp = extra == 3 ? (c & 0x07) : extra == 2 ? (c & 0x0F) : extra == 1 ? (c & 0x1F) : c;
    if (i + extra >= utf8.size()) {
      extra = 0;
      cp = c;
    }
    for (int k = 1; k <= extra; ++k) cp = (cp << 6) | (static_cast<uint8_t>(utf8[i + k]) & 0x3F);
    i += 1 + extra;
    if (cp >= 0x10000) {
      cp -= 0x10000;
      AppendHex4(0xD800 + (cp >> 10), out);
      AppendHex4(0xDC00 + (cp & 0x3FF), out);
    } else {
      AppendHex4(cp, out);
    }
  }
  out.push_back('"');
  return out;
}

void AppendPandasJson(const JsonValue& value, std::string& out) {
  switch (value.type) {
    case JsonValue::Type::kNull: out += "null"; return;
    case JsonValue::Type::kBool: out += value.boolean ? "true" : "false"; return;
    case JsonValue::Type::kInt: out += value.text; return;
    case JsonValue::Type::kFloat: out += PandasJsonDouble(value.number); return;
    case JsonValue::Type::kString: out += PandasJsonString(value.text); return;
    case JsonValue::Type::kArray:
      out.push_back('[');
      for (size_t i = 0; i < value.items.size(); ++i) {
        if (i > 0) out.push_back(',');
        AppendPandasJson(value.items[i], out);
      }
      out.push_back(']');
      return;
    case JsonValue::Type::kObject:
      out.push_back('{');
      for (size_t i = 0; i < value.members.size(); ++i) {
        if (i > 0) out.push_back(',');
        out += PandasJsonString(value.members[i].key);
        out.push_back(':');
        AppendPandasJson(value.members[i].value, out);
      }
      out.push_back('}');
      return;
  }
}

std::string PandasToJsonRecordsLines(const std::vector<std::string>& columns,
                                     const std::vector<std::vector<JsonValue>>& rows) {
  if (rows.empty()) return "\n";
  std::string out;
  for (const std::vector<JsonValue>& row : rows) {
    out.push_back('{');
    for (size_t c = 0; c < columns.size() && c < row.size(); ++c) {
      if (c > 0) out.push_back(',');
      out += PandasJsonString(columns[c]);
      out.push_back(':');
      AppendPandasJson(row[c], out);
    }
    out += "}\n";
  }
  return out;
}

}  // namespace mlebench
