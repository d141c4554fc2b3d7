// The kFastparquet layout of the Parquet writer, whole files in memory, for
// formats/parquet_writer.cc's SerializeParquet (FastparquetFileWriter, in
// the same file formats/fastparquet_writer.cc, writes it chunk by chunk).
// Not for other callers.
#ifndef MLEBENCH_FORMATS_INTERNAL_FASTPARQUET_WRITER_H_
#define MLEBENCH_FORMATS_INTERNAL_FASTPARQUET_WRITER_H_

#include <string>

#include "absl/status/statusor.h"
#include "base/table.h"
#include "formats/parquet.h"

namespace mlebench::parquet_internal {

// The file's bytes; `table` already passed CheckWritable.
absl::StatusOr<std::string> SerializeFastparquet(const Table& table,
                                                 const ParquetWriteOptions& options);

}  // namespace mlebench::parquet_internal

#endif  // MLEBENCH_FORMATS_INTERNAL_FASTPARQUET_WRITER_H_
