#include "agent_runner/admission.h"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "absl/strings/str_cat.h"
#include "agent_runner/processes.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

namespace fs = std::filesystem;

std::string ReadAll(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class AdmissionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* tmp = std::getenv("TEST_TMPDIR");
    ledger_ = fs::path(tmp != nullptr ? tmp : "/tmp") /
              absl::StrCat("ledger-", ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove(ledger_);
  }
  // Four CPUs, 8 GiB, two GPUs.
  MachineResources machine_{.cpu_ids = {0, 1, 2, 3}, .memory_bytes = int64_t{8} << 30,
                            .gpu_ids = {0, 1}};
  fs::path ledger_;
};

TEST(CpuListText, RangesAndSingles) {
  EXPECT_EQ(CpuListText({}), "");
  EXPECT_EQ(CpuListText({3}), "3");
  EXPECT_EQ(CpuListText({0, 1, 2, 3}), "0-3");
  EXPECT_EQ(CpuListText({6, 0, 2, 1}), "0-2,6");
}

TEST_F(AdmissionTest, TakesWhatOtherLiveRunsLeaveAndIgnoresDeadOnes) {
  // pid 1 lives (whatever pid namespace this runs in); pid 999999 with a
  // made-up start time does not; a torn line means nothing.
  {
    std::ofstream out(ledger_);
    out << "1 " << StartTimeOf(1).value() << " 0,1 1073741824 0\n"
        << "999999 5 2,3 1073741824 1\n"
        << "garbage line\n";
  }
  absl::StatusOr<Admission> admission =
      Admission::Reserve(ledger_, machine_, {.cpus = 2, .memory_bytes = int64_t{2} << 30,
                                             .gpus = 1}, {});
  ASSERT_TRUE(admission.ok()) << admission.status();
  EXPECT_THAT(admission->grant().cpu_ids, ElementsAre(2, 3));
  EXPECT_THAT(admission->grant().gpu_ids, ElementsAre(1));
  EXPECT_EQ(admission->grant().memory_bytes, int64_t{2} << 30);
  // An entry is a line that starts with its pid ("12 " alone would also
  // match a start time that ends in 12).
  const std::string entry = absl::StrCat("\n", getpid(), " ");
  const std::string held = "\n" + ReadAll(ledger_);
  EXPECT_THAT(held, HasSubstr(entry));
  EXPECT_THAT(held, Not(HasSubstr("999999")));
  EXPECT_THAT(held, Not(HasSubstr("garbage")));
  ASSERT_TRUE(admission->Release().ok());
  const std::string released = "\n" + ReadAll(ledger_);
  EXPECT_THAT(released, Not(HasSubstr(entry)));
  EXPECT_THAT(released, HasSubstr("\n1 "));  // the other run's entry stays
}

TEST_F(AdmissionTest, MoreThanTheMachineIsAnErrorAtOnce) {
  for (const ResourceRequest& request :
       {ResourceRequest{.cpus = 5}, ResourceRequest{.memory_bytes = int64_t{9} << 30},
        ResourceRequest{.gpus = 3}}) {
    absl::StatusOr<Admission> admission = Admission::Reserve(ledger_, machine_, request, {});
    ASSERT_FALSE(admission.ok());
    EXPECT_EQ(admission.status().code(), absl::StatusCode::kResourceExhausted);
    EXPECT_THAT(admission.status().message(), HasSubstr("more than this machine has"));
  }
}

TEST_F(AdmissionTest, WaitsUntilAnotherRunIsDoneAndSaysSo) {
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    absl::StatusOr<Admission> held = Admission::Reserve(ledger_, machine_, {.cpus = 0}, {});
    if (!held.ok()) _exit(1);
    char byte = 1;
    if (write(ready[1], &byte, 1) != 1) _exit(1);
    std::this_thread::sleep_for(std::chrono::milliseconds(700));
    _exit(0);  // no release: the entry of a process that is gone is dropped
  }
  close(ready[1]);
  char byte;
  ASSERT_EQ(read(ready[0], &byte, 1), 1);
  std::string said;
  absl::StatusOr<Admission> admission = Admission::Reserve(
      ledger_, machine_, {.cpus = 1}, [&](const std::string& line) { said = line; });
  int status;
  waitpid(child, &status, 0);
  ASSERT_TRUE(admission.ok()) << admission.status();
  EXPECT_GE(admission->grant().waited_s, 0.3);
  EXPECT_THAT(said, HasSubstr("waiting for 1 CPU(s)"));
  EXPECT_THAT(said, HasSubstr("hold 4 CPU(s)"));
}

TEST_F(AdmissionTest, RefusesALedgerThatIsNotARegularFile) {
  ASSERT_EQ(mkfifo(ledger_.c_str(), 0666), 0);
  absl::StatusOr<Admission> admission = Admission::Reserve(ledger_, machine_, {.cpus = 1}, {});
  ASSERT_FALSE(admission.ok());
  EXPECT_THAT(admission.status().message(), HasSubstr("not a regular file"));
}

}  // namespace
}  // namespace mlebench
