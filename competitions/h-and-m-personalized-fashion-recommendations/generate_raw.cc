// Synthetic raw download of h-and-m-personalized-fashion-recommendations as
// upstream's prepare.py reads it: transactions_train.csv (t_dat "YYYY-MM-DD",
// customer_id 64 hex digits, article_id an integer, price, sales_channel_id),
// articles.csv (article_id written with Kaggle's leading zero), customers.csv,
// sample_submission.csv (every customer, one constant list of 12 article ids)
// and images/<first 3 digits>/<article_id>.jpg for some articles.
// 12 weeks of purchases by 250 customers among 180 articles, sorted by date.
// Each customer keeps going back to a few favourite articles, so the articles
// a customer bought most often before the last week are a good guess for
// what they buy in it.

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/status_macros.h"
#include "synthetic/csv_text.h"
#include "synthetic/jpeg_writer.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr int kNumCustomers = 250;
constexpr int kNumArticles = 180;
constexpr int kNumDays = 84;
constexpr int kImageSize = 16;

const std::vector<std::string> kProductTypes = {"Trousers", "Sweater", "T-shirt", "Dress", "Socks",
                                                "Jacket"};
const std::vector<std::string> kColours = {"Black", "White", "Dark Blue", "Light Pink", "Grey",
                                           "Beige"};

struct Article {
  std::string id;  // ten digits, leading zero
  int type;
  int colour;
  double price;
};

struct Transaction {
  int day;
  int customer;
  int article;
  int channel;
};

// "2020-06-30" plus `day` days.
std::string DateText(int day) {
  static constexpr int kDaysInMonth[] = {31, 31, 30, 31, 30};  // Jul..Nov
  int month = 7, date = day;  // day 0 is 2020-07-01
  for (int i = 0; date >= kDaysInMonth[i]; ++i) {
    date -= kDaysInMonth[i];
    ++month;
  }
  return absl::StrFormat("2020-%02d-%02d", month, date + 1);
}

std::string CustomerId(SyntheticRng& rng) {
  while (true) {
    std::string id = rng.Hex(64);
    // Real ids are hex digests; one without a letter would read as a number.
    if (id.find_first_of("abcdef") != std::string::npos) return id;
  }
}

absl::Status Generate(const fs::path& raw_dir, uint64_t seed) {
  SyntheticRng rng(seed);
  std::vector<Article> articles;
  std::set<std::string> article_ids;
  while (static_cast<int>(articles.size()) < kNumArticles) {
    Article article;
    article.id = absl::StrFormat("0%09d", static_cast<int>(rng.UniformInt(100000000, 999999999)));
    if (!article_ids.insert(article.id).second) continue;
    article.type = static_cast<int>(rng.UniformInt(kProductTypes.size()));
    article.colour = static_cast<int>(rng.UniformInt(kColours.size()));
    article.price = static_cast<double>(rng.UniformInt(5, 300)) / 5900.0;
    articles.push_back(article);
  }
  std::sort(articles.begin(), articles.end(),
            [](const Article& a, const Article& b) { return a.id < b.id; });

  std::vector<std::string> customers;
  std::set<std::string> customer_ids;
  while (static_cast<int>(customers.size()) < kNumCustomers) {
    std::string id = CustomerId(rng);
    if (customer_ids.insert(id).second) customers.push_back(id);
  }

  // Popular articles are bought more by everyone.
  std::vector<double> popularity;
  for (int i = 0; i < kNumArticles; ++i) popularity.push_back(1.0 / (1.0 + i % 60));
  std::vector<Transaction> transactions;
  for (int c = 0; c < kNumCustomers; ++c) {
    std::vector<int> favourites;
    const int num_favourites = static_cast<int>(rng.UniformInt(2, 4));
    for (int i = 0; i < num_favourites; ++i) {
      favourites.push_back(static_cast<int>(rng.UniformInt(kNumArticles)));
    }
    const int num_purchases = static_cast<int>(rng.UniformInt(4, 24));
    const int channel = static_cast<int>(rng.UniformInt(1, 2));
    for (int i = 0; i < num_purchases; ++i) {
      const int article = rng.Bernoulli(0.75) ? favourites[rng.UniformInt(favourites.size())]
                                              : static_cast<int>(rng.Categorical(popularity));
      transactions.push_back({static_cast<int>(rng.UniformInt(kNumDays)), c, article,
                              rng.Bernoulli(0.8) ? channel : 3 - channel});
    }
  }
  std::stable_sort(transactions.begin(), transactions.end(),
                   [](const Transaction& a, const Transaction& b) { return a.day < b.day; });

  CsvTextBuilder csv;
  csv.Row({"t_dat", "customer_id", "article_id", "price", "sales_channel_id"});
  for (const Transaction& t : transactions) {
    const Article& article = articles[t.article];
    // Kaggle's file writes article ids without the leading zero.
    csv.String(DateText(t.day))
        .String(customers[t.customer])
        .Int(std::stoll(article.id))
        .Float(article.price)
        .Int(t.channel)
        .EndRow();
  }
  RETURN_IF_ERROR(WriteStringToFile(raw_dir / "transactions_train.csv", csv.text()));

  CsvTextBuilder articles_csv;
  articles_csv.Row({"article_id", "product_code", "prod_name", "product_type_name",
                    "colour_group_name", "detail_desc"});
  for (const Article& article : articles) {
    articles_csv.String(article.id)
        .String(article.id.substr(0, 7))
        .String(absl::StrCat(kColours[article.colour], " ", kProductTypes[article.type]))
        .String(kProductTypes[article.type])
        .String(kColours[article.colour])
        .String(absl::StrCat("A ", kProductTypes[article.type], ", in ", kColours[article.colour],
                             ", size ", rng.UniformInt(1, 5)))
        .EndRow();
  }
  RETURN_IF_ERROR(WriteStringToFile(raw_dir / "articles.csv", articles_csv.text()));

  CsvTextBuilder customers_csv;
  customers_csv.Row({"customer_id", "FN", "Active", "club_member_status", "fashion_news_frequency",
                     "age", "postal_code"});
  for (const std::string& id : customers) {
    const bool news = rng.Bernoulli(0.4);
    customers_csv.String(id);
    if (news) {
      customers_csv.Float(1.0).Float(1.0);
    } else {
      customers_csv.Missing().Missing();
    }
    customers_csv.String(rng.Bernoulli(0.9) ? "ACTIVE" : "PRE-CREATE")
        .String(news ? "Regularly" : "NONE")
        .Int(rng.UniformInt(18, 75))
        .String(rng.Hex(64))
        .EndRow();
  }
  RETURN_IF_ERROR(WriteStringToFile(raw_dir / "customers.csv", customers_csv.text()));

  std::vector<std::string> sample_ids;
  for (int i = 0; i < 12; ++i) sample_ids.push_back(articles[i].id);
  CsvTextBuilder sample;
  sample.Row({"customer_id", "prediction"});
  for (const std::string& id : customers) sample.String(id).String(absl::StrJoin(sample_ids, " ")).EndRow();
  RETURN_IF_ERROR(WriteStringToFile(raw_dir / "sample_submission.csv", sample.text()));

  // Kaggle has no photo for some articles; these have one in four.
  for (const Article& article : articles) {
    if (!rng.Bernoulli(0.25)) continue;
    RgbImage image{kImageSize, kImageSize, std::vector<uint8_t>(kImageSize * kImageSize * 3)};
    for (size_t i = 0; i < image.pixels.size(); ++i) {
      image.pixels[i] = static_cast<uint8_t>(40 * article.colour + rng.UniformInt(0, 30));
    }
    ASSIGN_OR_RETURN(std::string jpeg, EncodeJpeg(image, 80));
    const fs::path folder = raw_dir / "images" / article.id.substr(0, 3);
    std::error_code error;
    fs::create_directories(folder, error);
    if (error) return absl::InternalError(absl::StrCat("cannot create ", folder.string()));
    RETURN_IF_ERROR(WriteStringToFile(folder / (article.id + ".jpg"), jpeg));
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{
    .id = MLEBENCH_COMPETITION_ID, .generate = &Generate});

}  // namespace
}  // namespace mlebench
