#include "synthetic/csv_text.h"

#include <string>

#include "base/files.h"
#include "synthetic/rng.h"
#include "base/testing/test_util.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

TEST(CsvTextBuilderTest, MinimalQuotingQuotesOnlyWhatNeedsIt) {
  CsvTextBuilder csv;
  csv.Row({"id", "text", "x"});
  csv.String("a").String("plain words").Float(39.0).EndRow();
  csv.String("b").String("x, \"y\"").Missing().EndRow();
  csv.String("c").String("two\nlines").Int(-7).EndRow();
  csv.Bool(true).Bool(false).Float(1e-5).EndRow();
  EXPECT_EQ(csv.text(),
            "id,text,x\n"
            "a,plain words,39.0\n"
            "b,\"x, \"\"y\"\"\",\n"
            "c,\"two\nlines\",-7\n"
            "True,False,1e-05\n");
}

TEST(CsvTextBuilderTest, QuoteAllQuotesStringsButNotNumbers) {
  CsvTextBuilder csv(CsvStringQuoting::kAll);
  csv.Row({"id", "EAP"});
  csv.String("id1").Float(0.25).EndRow();
  csv.String("say \"hi\"").Missing().EndRow();
  EXPECT_EQ(csv.text(), "\"id\",\"EAP\"\n\"id1\",0.25\n\"say \"\"hi\"\"\",\n");
}

TEST(CsvTextBuilderTest, EmptyBuilderIsEmpty) { EXPECT_EQ(CsvTextBuilder().text(), ""); }

// pandas reads back every awkward string both quoting modes write.
TEST(CsvTextBuilderTest, PandasReadsRandomAwkwardStrings) {
  SyntheticRng rng(99);
  const std::string alphabet = "ab ,\"\n\r;'x\xc3\xa9";
  for (CsvStringQuoting quoting : {CsvStringQuoting::kMinimal, CsvStringQuoting::kAll}) {
    CsvTextBuilder csv(quoting);
    std::string expected;
    csv.Row({"id", "text"});
    for (int row = 0; row < 200; ++row) {
      std::string text = "t";  // never empty, which pandas would read as NaN
      const int length = static_cast<int>(rng.UniformInt(12));
      for (int i = 0; i < length; ++i) {
        const size_t k = rng.UniformInt(alphabet.size() - 1);
        // Keep the two-byte UTF-8 character whole.
        text += alphabet[k] == '\xc3' ? std::string("\xc3\xa9") : std::string(1, alphabet[k]);
      }
      csv.Int(row).String(text).EndRow();
      expected += text;
      expected += '\x1f';
    }
    const std::filesystem::path dir = testing::NewTempDir("csv");
    ASSERT_TRUE(WriteStringToFile(dir / "a.csv", csv.text()).ok());
    ASSERT_TRUE(WriteStringToFile(dir / "expected.bin", expected).ok());
    testing::CommandResult result =
        testing::RunPython(R"py(
import sys
import pandas as pd
df = pd.read_csv(sys.argv[1], keep_default_na=False)
assert list(df.columns) == ["id", "text"], df.columns
assert str(df["id"].dtype) == "int64"
assert df["id"].tolist() == list(range(200))
expected = open(sys.argv[2], "rb").read().decode().split("\x1f")[:-1]
got = df["text"].tolist()
for i, (g, e) in enumerate(zip(got, expected)):
    assert g == e, (i, g, e)
assert len(got) == len(expected)
)py",
                           {(dir / "a.csv").string(), (dir / "expected.bin").string()});
    EXPECT_EQ(result.exit_code, 0) << result.output;
  }
}

}  // namespace
}  // namespace mlebench
