"""An independent pure-Python reader of TFRecord files of tf.train.Examples.

Used by the cassava tests in place of TensorFlow, which Debian lacks: it
checks both masked CRC32Cs of every record and decodes the Example's
feature map (bytes_list / int64_list values) from the protobuf wire format.
"""
import struct


def _crc32c(data):
    crc = 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


def _masked(data):
    crc = _crc32c(data)
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def records(path):
    data = open(path, "rb").read()
    pos, out = 0, []
    while pos < len(data):
        header = data[pos:pos + 8]
        (length,) = struct.unpack("<Q", header)
        (length_crc,) = struct.unpack("<I", data[pos + 8:pos + 12])
        assert length_crc == _masked(header), f"{path}: bad length CRC"
        payload = data[pos + 12:pos + 12 + length]
        (payload_crc,) = struct.unpack("<I", data[pos + 12 + length:pos + 16 + length])
        assert len(payload) == length and payload_crc == _masked(payload), f"{path}: bad data CRC"
        out.append(payload)
        pos += 16 + length
    return out


def _fields(buf):
    pos = 0
    while pos < len(buf):
        key, pos = _varint(buf, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = _varint(buf, pos)
        elif wire == 2:
            length, pos = _varint(buf, pos)
            value, pos = buf[pos:pos + length], pos + length
        else:
            raise ValueError(f"unexpected wire type {wire}")
        yield number, value


def _varint(buf, pos):
    value, shift = 0, 0
    while True:
        byte = buf[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return value, pos


def features(record):
    """{name: list of bytes or list of int} of a serialized Example."""
    out = {}
    for number, features_buf in _fields(record):
        assert number == 1
        for _, entry in _fields(features_buf):
            entry = dict(_fields(entry))
            name = entry[1].decode("utf-8")
            (kind, values), = list(_fields(entry.get(2, b"")))
            if kind == 1:
                out[name] = [v for _, v in _fields(values)]
            elif kind == 3:
                ints, packed = [], dict(_fields(values)).get(1, b"")
                pos = 0
                while pos < len(packed):
                    v, pos = _varint(packed, pos)
                    ints.append(v - (1 << 64) if v >= 1 << 63 else v)
                out[name] = ints
    return out


def image_names(path):
    """upstream's get_ids_from_tf_records(path)."""
    return [features(r)["image_name"][0].decode("utf-8") for r in records(path)]
