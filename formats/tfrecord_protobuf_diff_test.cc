// Differential test: SerializeExample and ExampleFirstBytesValue against the
// protobuf library itself (libprotobuf 3.21, DynamicMessage built from a
// hand-written descriptor of tf.train.Example), on random Examples and on
// randomly damaged ones: our bytes must be protobuf's deterministic
// serialization, and we must read (or reject) exactly what protobuf parses.

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "synthetic/rng.h"
#include "formats/tfrecord.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/descriptor.pb.h"
#include "google/protobuf/dynamic_message.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "google/protobuf/message.h"
#include "google/protobuf/text_format.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

namespace pb = ::google::protobuf;

// tensorflow/core/example/{example,feature}.proto, as a descriptor.
constexpr char kExampleProto[] = R"pb(
  name: "example.proto"
  package: "tf"
  syntax: "proto3"
  message_type {
    name: "BytesList"
    field { name: "value" number: 1 label: LABEL_REPEATED type: TYPE_BYTES }
  }
  message_type {
    name: "FloatList"
    field {
      name: "value"
      number: 1
      label: LABEL_REPEATED
      type: TYPE_FLOAT
      options { packed: true }
    }
  }
  message_type {
    name: "Int64List"
    field {
      name: "value"
      number: 1
      label: LABEL_REPEATED
      type: TYPE_INT64
      options { packed: true }
    }
  }
  message_type {
    name: "Feature"
    field {
      name: "bytes_list"
      number: 1
      label: LABEL_OPTIONAL
      type: TYPE_MESSAGE
      type_name: ".tf.BytesList"
      oneof_index: 0
    }
    field {
      name: "float_list"
      number: 2
      label: LABEL_OPTIONAL
      type: TYPE_MESSAGE
      type_name: ".tf.FloatList"
      oneof_index: 0
    }
    field {
      name: "int64_list"
      number: 3
      label: LABEL_OPTIONAL
      type: TYPE_MESSAGE
      type_name: ".tf.Int64List"
      oneof_index: 0
    }
    oneof_decl { name: "kind" }
  }
  message_type {
    name: "Features"
    field {
      name: "feature"
      number: 1
      label: LABEL_REPEATED
      type: TYPE_MESSAGE
      type_name: ".tf.Features.FeatureEntry"
    }
    nested_type {
      name: "FeatureEntry"
      field { name: "key" number: 1 label: LABEL_OPTIONAL type: TYPE_STRING }
      field {
        name: "value"
        number: 2
        label: LABEL_OPTIONAL
        type: TYPE_MESSAGE
        type_name: ".tf.Feature"
      }
      options { map_entry: true }
    }
  }
  message_type {
    name: "Example"
    field {
      name: "features"
      number: 1
      label: LABEL_OPTIONAL
      type: TYPE_MESSAGE
      type_name: ".tf.Features"
    }
  }
)pb";

class ProtobufExample {
 public:
  ProtobufExample() {
    pb::FileDescriptorProto file;
    EXPECT_TRUE(pb::TextFormat::ParseFromString(kExampleProto, &file));
    EXPECT_NE(pool_.BuildFile(file), nullptr);
    prototype_ = factory_.GetPrototype(pool_.FindMessageTypeByName("tf.Example"));
  }

  std::unique_ptr<pb::Message> Parse(const std::string& bytes) const {
    std::unique_ptr<pb::Message> message(prototype_->New());
    if (!message->ParseFromString(bytes)) return nullptr;
    return message;
  }

  static std::string Deterministic(const pb::Message& message) {
    std::string out;
    pb::io::StringOutputStream stream(&out);
    pb::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    message.SerializeToCodedStream(&coded);
    coded.Trim();
    return out;
  }

  // features.feature[name].bytes_list.value[0], or nullopt where Python
  // raises IndexError (no such feature, another kind, no value).
  static std::optional<std::string> FirstBytesValue(const pb::Message& example,
                                                    const std::string& name) {
    const pb::Reflection* r = example.GetReflection();
    const pb::Message& features =
        r->GetMessage(example, example.GetDescriptor()->FindFieldByName("features"));
    const pb::FieldDescriptor* map = features.GetDescriptor()->FindFieldByName("feature");
    const pb::Reflection* fr = features.GetReflection();
    for (int i = fr->FieldSize(features, map) - 1; i >= 0; --i) {
      const pb::Message& entry = fr->GetRepeatedMessage(features, map, i);
      const pb::Reflection* er = entry.GetReflection();
      if (er->GetString(entry, entry.GetDescriptor()->FindFieldByName("key")) != name) continue;
      const pb::Message& feature =
          er->GetMessage(entry, entry.GetDescriptor()->FindFieldByName("value"));
      const pb::FieldDescriptor* bytes_list =
          feature.GetDescriptor()->FindFieldByName("bytes_list");
      if (!feature.GetReflection()->HasField(feature, bytes_list)) return std::nullopt;
      const pb::Message& list = feature.GetReflection()->GetMessage(feature, bytes_list);
      const pb::FieldDescriptor* value = list.GetDescriptor()->FindFieldByName("value");
      if (list.GetReflection()->FieldSize(list, value) == 0) return std::nullopt;
      return list.GetReflection()->GetRepeatedString(list, value, 0);
    }
    return std::nullopt;
  }

 private:
  pb::DescriptorPool pool_;
  pb::DynamicMessageFactory factory_;
  const pb::Message* prototype_ = nullptr;
};

std::map<std::string, ExampleFeature> RandomFeatures(SyntheticRng& rng) {
  const std::vector<std::string> names = {"image_name", "image", "target", "", "é", "x"};
  std::map<std::string, ExampleFeature> features;
  const int count = static_cast<int>(rng.UniformInt(0, 4));
  for (int i = 0; i < count; ++i) {
    const int size = static_cast<int>(rng.UniformInt(0, 3));
    switch (rng.UniformInt(3)) {
      case 0: {
        std::vector<std::string> values;
        for (int k = 0; k < size; ++k) {
          std::string value;
          for (int c = static_cast<int>(rng.UniformInt(0, 6)); c > 0; --c) {
            value.push_back(rng.Bernoulli(0.1) ? static_cast<char>(0x80 + rng.UniformInt(64))
                                               : static_cast<char>('a' + rng.UniformInt(26)));
          }
          values.push_back(value);
        }
        features[rng.Choice(names)] = values;
        break;
      }
      case 1: {
        std::vector<float> values;
        for (int k = 0; k < size; ++k) values.push_back(static_cast<float>(rng.Normal()));
        features[rng.Choice(names)] = values;
        break;
      }
      default: {
        std::vector<int64_t> values;
        for (int k = 0; k < size; ++k)
          values.push_back(rng.UniformInt(-1000000, 1000000) << rng.UniformInt(0, 40));
        features[rng.Choice(names)] = values;
        break;
      }
    }
  }
  return features;
}

TEST(TfRecordProtobufDiffTest, MatchesProtobuf) {
  ProtobufExample protobuf;
  SyntheticRng rng(11);
  int parsed = 0, rejected = 0, found = 0;
  for (int i = 0; i < 20000; ++i) {
    SCOPED_TRACE(i);
    std::string bytes = SerializeExample(RandomFeatures(rng));
    if (i % 2 == 0) {
      std::unique_ptr<pb::Message> message = protobuf.Parse(bytes);
      ASSERT_NE(message, nullptr);
      ASSERT_EQ(ProtobufExample::Deterministic(*message), bytes);
    } else {
      // Damage: flip, insert, delete or truncate bytes.
      for (int k = static_cast<int>(rng.UniformInt(1, 3)); k > 0 && !bytes.empty(); --k) {
        const size_t at = rng.UniformInt(bytes.size());
        switch (rng.UniformInt(4)) {
          case 0:
            bytes[at] = static_cast<char>(bytes[at] ^ (1 << rng.UniformInt(8)));
            break;
          case 1:
            bytes.insert(at, 1, static_cast<char>(rng.UniformInt(256)));
            break;
          case 2:
            bytes.erase(at, 1);
            break;
          default:
            bytes.resize(at);
            break;
        }
      }
    }
    std::unique_ptr<pb::Message> message = protobuf.Parse(bytes);
    for (const std::string name : {"image_name", "é", "x"}) {
      absl::StatusOr<std::string> ours = ExampleFirstBytesValue(bytes, name);
      if (message == nullptr) {
        ASSERT_FALSE(ours.ok()) << "protobuf rejects, we read " << *ours;
        continue;
      }
      std::optional<std::string> theirs = ProtobufExample::FirstBytesValue(*message, name);
      // Python's .decode("utf-8") on top of protobuf's value.
      if (theirs.has_value() &&
          ExampleFirstBytesValue(SerializeExample({{"v", std::vector<std::string>{*theirs}}}), "v")
              .ok()) {
        ++found;
        ASSERT_TRUE(ours.ok()) << ours.status();
        ASSERT_EQ(*ours, *theirs);
      } else {
        ASSERT_FALSE(ours.ok());
      }
    }
    (message == nullptr ? rejected : parsed)++;
  }
  EXPECT_GT(parsed, 10000);
  EXPECT_GT(rejected, 3000);
  EXPECT_GT(found, 1000);
}

}  // namespace
}  // namespace mlebench
