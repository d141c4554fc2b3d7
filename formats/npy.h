#ifndef MLEBENCH_FORMATS_NPY_H_
#define MLEBENCH_FORMATS_NPY_H_

// numpy's .npy file format (numpy.lib.format): what np.load reads and
// np.save writes, for arrays of plain (non-structured, non-object) dtypes.
// Elements are kept as raw bytes: preparers only select and copy rows.

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace mlebench {

struct NpyArray {
  // numpy's `dtype.str`: a byte-order character ('<', '>' or '|'), a kind
  // ('b' bool, 'i'/'u' integers, 'f' floats, 'c' complex, 'S' bytes, 'U'
  // UCS-4 text, 'V' raw) and a size ("<f4", "|u1", "<U2", "|S7").
  std::string descr;
  bool fortran_order = false;
  std::vector<int64_t> shape;  // empty for a 0-d array
  // The elements' bytes in file order: product(shape) * NpyItemSize(descr).
  std::string data;
};

// Bytes per element of `descr`, for the descriptors described above (the
// size counts characters for 'U', so "<U2" is 8 bytes). InvalidArgumentError
// for any other descriptor (object, structured, datetime, zero-sized).
absl::StatusOr<int64_t> NpyItemSize(std::string_view descr);

// np.load of a .npy file's bytes (format versions 1.0, 2.0 and 3.0; header
// as a Python dict literal with exactly the keys 'descr', 'fortran_order'
// and 'shape'). `descr` comes back as numpy's dtype.str would print it
// ("=f4" and "|f4" become "<f4" on numpy's little-endian hosts, one-byte
// types get '|'). InvalidArgumentError with the reason for a bad magic
// string, a header numpy would not accept, an unsupported dtype, a header
// over numpy's 10000-character safety limit, or a data size other than
// product(shape) * itemsize (np.load raises on short data; trailing bytes are
// rejected here too, as a sign of a damaged file).
absl::StatusOr<NpyArray> ParseNpy(std::string_view bytes);

// np.save's bytes for `array`: version 1.0 (2.0 only when the header would
// not fit in 65535 bytes), the header dict with sorted keys, the spare
// spaces numpy leaves for growing the first axis, padding to 64 bytes and
// a final newline, then `data`. InvalidArgumentError if `data` does not
// have the size that `descr` and `shape` imply, or `descr` is unsupported.
absl::StatusOr<std::string> SerializeNpy(const NpyArray& array);

// ParseNpy / SerializeNpy on a file. Reading refuses files over `max_bytes`.
absl::StatusOr<NpyArray> ReadNpyFile(const std::filesystem::path& path,
                                     int64_t max_bytes = int64_t{1} << 32);
absl::Status WriteNpyFile(const NpyArray& array, const std::filesystem::path& path);

// `array[rows]` (numpy's fancy indexing along the first axis, with a list of
// positions): a C-ordered array of shape (rows.size(), *shape[1:]).
// Positions may repeat; negative ones count from the end, as in numpy.
// InvalidArgumentError for a 0-d array (numpy's "too many indices") or a
// Fortran-ordered one with more than one axis (not supported here);
// OutOfRangeError for a position outside [-shape[0], shape[0]).
absl::StatusOr<NpyArray> TakeNpyRows(const NpyArray& array, std::span<const int64_t> rows);

}  // namespace mlebench

#endif  // MLEBENCH_FORMATS_NPY_H_
