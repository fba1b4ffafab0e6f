// AgreeBeforeRun: every rank learns the lowest refusing rank's message, or that none refused.
#include "run/rank_refusal.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace dcqcn {
namespace {

// Rank `rank` of ranks whose refusals are `refusals` (this rank's own is passed to the call):
// AllToAll hands back what each would have sent this one.
class FakeRanks : public RankExchange {
 public:
  FakeRanks(int rank, std::vector<std::string> refusals)
      : rank_(rank), refusals_(std::move(refusals)) {}
  int rank() const override { return rank_; }
  int ranks() const override { return static_cast<int>(refusals_.size()); }
  std::vector<std::string> AllToAll(const std::vector<std::string>& out) override {
    EXPECT_EQ(out.size(), refusals_.size());
    std::vector<std::string> in = refusals_;
    in[static_cast<size_t>(rank_)] = out[static_cast<size_t>(rank_)];
    ++calls;
    return in;
  }
  std::vector<std::vector<int64_t>> AllGather(const std::vector<int64_t>& mine) override {
    return {mine};
  }
  int calls = 0;

 private:
  int rank_;
  std::vector<std::string> refusals_;
};

std::string RefusalOf(FakeRanks& ranks, const std::string& mine) {
  try {
    AgreeBeforeRun(ranks, mine);
  } catch (const RefusedOnEveryRank& e) {
    return e.what();
  }
  return "";
}

TEST(RankRefusalTest, NoneRefusedGoesOnAfterOneExchange) {
  FakeRanks ranks(1, {"", "", ""});
  EXPECT_EQ(RefusalOf(ranks, ""), "");
  EXPECT_EQ(ranks.calls, 1);
}

TEST(RankRefusalTest, EveryRankLearnsWhatRankZeroAloneRefused) {
  // The output folder: only rank 0 makes it, and the others must end as well.
  FakeRanks other(2, {"--out x: exists", "", ""});
  EXPECT_EQ(RefusalOf(other, ""), "--out x: exists");
  FakeRanks zero(0, {"", "", ""});
  EXPECT_EQ(RefusalOf(zero, "--out x: exists"), "--out x: exists");
}

TEST(RankRefusalTest, TheLowestRefusingRankIsReported) {
  FakeRanks ranks(2, {"", "rank 1's", ""});
  EXPECT_EQ(RefusalOf(ranks, "rank 2's"), "rank 1's");
}

TEST(RankRefusalTest, ARefusalIsAnInputError) {
  FakeRanks ranks(0, {"", ""});
  EXPECT_THROW(AgreeBeforeRun(ranks, "bad"), InputError);
}

}  // namespace
}  // namespace dcqcn
