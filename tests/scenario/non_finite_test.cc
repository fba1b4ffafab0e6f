// NaN and the infinities are refused for every key that takes a number, naming the key: a NaN
// passes every range check (nan > 1 and nan < 0 are both false), so it must be caught where the
// text is read. Every [cc] parameter of every algorithm, and every number-typed scenario key.
#include <gtest/gtest.h>

#include <string>

#include "cc/registry.h"
#include "scenario/scenario_loader.h"
#include "scenario/scenario_schema.h"
#include "test_util.h"

namespace dcqcn {
namespace {

constexpr const char* kBad[] = {"nan", "inf", "-inf", "+nan", "\"nan\"", "\"inf\""};

TEST(NonFinite, EveryCcParameterRefusesNanAndInfinities) {
  int checked = 0;
  for (const CcAlgorithm& algorithm : CcAlgorithms()) {
    for (const CcParamDoc& doc : algorithm.docs) {
      for (const char* bad : kBad) {
        CcConfig cc;
        cc.algorithm = algorithm.name;
        cc.params[std::string(doc.name)] = {bad, 3};
        const std::string message = testing::InputErrorOf([&] { ResolveCc(cc, "f.toml"); });
        EXPECT_NE(message.find("cc." + std::string(doc.name)), std::string::npos)
            << algorithm.name << " " << doc.name << " = " << bad << ": " << message;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 6 * 30);
}

TEST(NonFinite, TheSameThroughTheLoaderAndSet) {
  const std::string flow = "[[flow]]\nsrc = 1\ndst = 0\nsize = \"1MB\"\n";
  for (const char* bad : {"nan", "inf", "-inf"}) {
    for (const char* key : {"g", "initial_alpha", "min_dec_factor"}) {
      // The loader keeps [cc] as written; resolving it (as building a network does) checks it.
      const std::string message = testing::InputErrorOf([&] {
        const Scenario s = LoadScenarioText(flow, "f.toml", {std::string("cc.") + key + "=" + bad});
        ResolveCc(s.cc, s.source);
      });
      EXPECT_NE(message.find(std::string("cc.") + key), std::string::npos) << message;
    }
    const std::string timely = testing::InputErrorOf([&] {
      const Scenario s =
          LoadScenarioText(flow, "f.toml", {"cc.algorithm=timely", std::string("cc.beta=") + bad});
      ResolveCc(s.cc, s.source);
    });
    EXPECT_NE(timely.find("cc.beta"), std::string::npos) << timely;
  }
}

TEST(NonFinite, EveryNumberKeyOfTheScenarioRefusesThem) {
  // A poisson workload on a leaf-spine fabric, so that every number key applies.
  const std::string base =
      "[topology]\ntype = \"leaf_spine\"\n[workload]\ntype = \"poisson\"\ncdf = \"websearch\"\n"
      "load = 0.3\nwindow = \"10us\"\n";
  int checked = 0;
  for (const TableSchema* table : ScenarioTables()) {
    if (table->path.find("[]") != std::string_view::npos) continue;  // [[flow]]: no numbers
    for (const KeySchema& key : *table) {
      if (key.kind != KeyKind::kValue || key.type != "number") continue;
      const std::string path = table->path.empty()
                                   ? std::string(key.name)
                                   : std::string(table->path) + "." + std::string(key.name);
      for (const char* bad : {"nan", "inf"}) {
        const std::string message =
            testing::InputErrorOf([&] { LoadScenarioText(base, "f.toml", {path + "=" + bad}); });
        EXPECT_NE(message.find(std::string(key.name)), std::string::npos)
            << path << " = " << bad << ": " << message;
        ++checked;
      }
    }
  }
  EXPECT_GE(checked, 12);
}

}  // namespace
}  // namespace dcqcn
