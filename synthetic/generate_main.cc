// The synthetic-data generator of one competition (linked with exactly one
// generator library, see synthetic/defs.bzl): writes the competition's
// synthetic raw Kaggle download into DIR, which must be empty or absent.
//
//   generate --competition ID --seed N --out DIR
#include <cstdio>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/baseline_libm.h"
#include "base/command_line.h"
#include "base/status_macros.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

absl::Status Run(const std::vector<std::string>& args) {
  ASSIGN_OR_RETURN(CommandLine cl, (ParseCommandLine(args, {"competition", "seed", "out"})));
  if (!cl.positional.empty() || !cl.after_dash_dash.empty()) {
    return absl::InvalidArgumentError("unexpected positional arguments");
  }
  RETURN_IF_ERROR(RequireFlags(cl, {"competition", "seed", "out"}));

  const std::string id = cl.Get("competition");
  const SyntheticDataset* dataset = SyntheticRegistry::Find(id);
  if (dataset == nullptr) {
    std::vector<std::string> known;
    for (const SyntheticDataset* d : SyntheticRegistry::All()) known.push_back(d->id);
    return absl::NotFoundError(
        absl::StrCat("no synthetic generator for '", id,
                     "' in this binary (it has: ", absl::StrJoin(known, ", "), ")"));
  }
  uint64_t seed = 0;
  if (!absl::SimpleAtoi(cl.Get("seed"), &seed)) {
    return absl::InvalidArgumentError(
        absl::StrCat("--seed must be a non-negative integer, not '", cl.Get("seed"), "'"));
  }

  const fs::path out = cl.Get("out");
  std::error_code ec;
  if (fs::exists(fs::symlink_status(out, ec))) {
    if (!fs::is_directory(out, ec)) {
      return absl::InvalidArgumentError(
          absl::StrCat("--out '", out.string(), "' exists and is not a directory"));
    }
    if (!fs::is_empty(out, ec)) {
      return absl::InvalidArgumentError(absl::StrCat("--out '", out.string(), "' is not empty"));
    }
  } else {
    fs::create_directories(out, ec);
    if (ec) {
      return absl::PermissionDeniedError(
          absl::StrCat("cannot create '", out.string(), "': ", ec.message()));
    }
  }
  if (absl::Status s = dataset->generate(out, seed); !s.ok()) {
    return absl::Status(s.code(), absl::StrCat("generating '", id, "': ", s.message()));
  }
  return absl::OkStatus();
}

}  // namespace
}  // namespace mlebench

int main(int argc, char** argv) {
  mlebench::UseBaselineLibm(argv);
  return mlebench::RunToolMain(argc, argv, "generate", &mlebench::Run);
}
