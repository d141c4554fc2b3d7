#ifndef MLEBENCH_FORMATS_TFRECORD_H_
#define MLEBENCH_FORMATS_TFRECORD_H_

// TensorFlow's TFRecord files and the few tf.train.Example features that
// preparers read, written and parsed without TensorFlow.
//
// A TFRecord file is a sequence of records, each framed as
//   uint64 length (little-endian), uint32 masked CRC32C of those 8 bytes,
//   `length` payload bytes, uint32 masked CRC32C of the payload,
// where masking is ((crc >> 15) | (crc << 17)) + 0xa282ead8 (mod 2^32), as
// in tensorflow/core/lib/hash/crc32c.h. An Example's payload is the protocol
// buffer tf.train.Example { Features features = 1; } with
// Features { map<string, Feature> feature = 1; } and Feature { oneof kind {
// BytesList bytes_list = 1; FloatList float_list = 2; Int64List int64_list =
// 3; } }.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace mlebench {

// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78) of `bytes`.
uint32_t Crc32c(std::string_view bytes);
// TFRecord's masked form of Crc32c(bytes).
uint32_t MaskedCrc32c(std::string_view bytes);

// The framed bytes of `records`, in order.
std::string WriteTfRecords(const std::vector<std::string>& records);

// The payloads of a TFRecord file's bytes, in order, as
// tf.data.TFRecordDataset yields them. DataLossError naming the record for
// a truncated frame or a length or payload CRC that does not match.
absl::StatusOr<std::vector<std::string>> ReadTfRecords(std::string_view bytes);

// A feature's values: a BytesList, a FloatList or an Int64List.
using ExampleFeature =
    std::variant<std::vector<std::string>, std::vector<float>, std::vector<int64_t>>;

// A serialized tf.train.Example holding `features` (map entries in key
// order; numeric lists packed, as TensorFlow writes them).
std::string SerializeExample(const std::map<std::string, ExampleFeature>& features);

// `Example.FromString(record).features.feature[name].bytes_list.value[0]
// .decode("utf-8")`: the first bytes value of feature `name`.
// InvalidArgumentError where that raises: the record is not a valid Example
// (a varint or length running past the end, a group or unknown wire type,
// a string field that is not valid UTF-8), the feature is absent or holds no
// bytes value (IndexError), or the value is not UTF-8 (UnicodeDecodeError).
absl::StatusOr<std::string> ExampleFirstBytesValue(std::string_view record, std::string_view name);

}  // namespace mlebench

#endif  // MLEBENCH_FORMATS_TFRECORD_H_
