// The key reference: the committed docs/scenario-keys.md is what `dcqcn keys` renders, it lists
// exactly the keys the loader accepts, and its defaults are the ones the loader applies.
#include "scenario/key_reference.h"

#include <gtest/gtest.h>
#include <toml++/toml.h>

#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cc/dcqcn/dcqcn_params.h"
#include "cc/registry.h"
#include "cli_util.h"
#include "core/error.h"
#include "scenario/resolved_toml.h"
#include "scenario/scenario_loader.h"
#include "scenario/scenario_schema.h"
#include "topology/topology_type.h"

namespace dcqcn {
namespace {

namespace fs = std::filesystem;

const fs::path kSourceDir = DCQCN_SOURCE_DIR;
constexpr const char* kRegenerate =
    "regenerate it with `build/dcqcn keys > docs/scenario-keys.md` and commit the result";

// Key paths the reference documents, read back from its Markdown: "topology.hosts",
// "switch.pfc.kmin", "flow[].size" (a [[flow]] key), "cc.rai" (a DCQCN parameter).
std::set<std::string> DocumentedKeys(const std::string& markdown) {
  std::set<std::string> keys;
  std::string prefix;
  std::istringstream in(markdown);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("## ", 0) == 0) {
      const size_t open = line.find("`[");
      if (open == std::string::npos) {
        prefix = "";  // Top level
      } else {
        std::string table = line.substr(open + 1, line.rfind('`') - open - 1);
        const bool array = table.rfind("[[", 0) == 0;
        table = table.substr(array ? 2 : 1, table.size() - (array ? 4 : 2));
        prefix = table + (array ? "[]." : ".");
      }
    } else if (line.rfind("### DCQCN parameters", 0) == 0) {
      prefix = "cc.";
    } else if (line.rfind("| `", 0) == 0) {
      const size_t end = line.find('`', 3);
      keys.insert(prefix + line.substr(3, end - 3));
    }
  }
  return keys;
}

// Every key the loader accepts: the schema's tables and the DCQCN parameters.
std::set<std::string> AcceptedKeys() {
  std::set<std::string> keys;
  for (const TableSchema* table : ScenarioTables()) {
    const std::string prefix = table->path.empty() ? "" : std::string(table->path) + ".";
    for (const KeySchema& k : *table) keys.insert(prefix + std::string(k.name));
  }
  for (const CcAlgorithm& algorithm : CcAlgorithms()) {
    for (const CcParamDoc& doc : algorithm.docs) keys.insert("cc." + std::string(doc.name));
  }
  return keys;
}

// Key paths used in a TOML document, spelled as DocumentedKeys spells them.
void CollectKeys(const toml::table& table, const std::string& prefix, std::set<std::string>* out) {
  for (auto&& [key, value] : table) {
    const std::string path = prefix + std::string(key.str());
    out->insert(path);
    if (const toml::table* sub = value.as_table(); sub && path != "cc") {
      CollectKeys(*sub, path + ".", out);
    } else if (const toml::table* sub = value.as_table()) {
      for (auto&& [param, v] : *sub) out->insert("cc." + std::string(param.str()));
    } else if (const toml::array* array = value.as_array();
               // A by_rate list is one value whose tables its meaning documents.
               array && array->is_array_of_tables() && !path.ends_with("by_rate")) {
      for (const toml::node& element : *array) {
        CollectKeys(*element.as_table(), path + "[].", out);
      }
    }
  }
}

std::vector<fs::path> ExampleFiles() {
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(kSourceDir / "examples")) {
    if (entry.path().extension() == ".toml") files.push_back(entry.path());
  }
  return files;
}

TEST(KeyReference, MatchesTheCommittedDoc) {
  const fs::path doc = kSourceDir / kKeyReferencePath;
  ASSERT_TRUE(fs::exists(doc)) << doc << " is missing: " << kRegenerate;
  const std::string committed = testing::ReadFile(doc);
  const std::string rendered = KeyReferenceMarkdown();
  if (committed == rendered) return;
  // Name the first line that differs rather than printing both documents.
  std::istringstream a(committed), b(rendered);
  std::string la, lb;
  int line = 1;
  while (std::getline(a, la) && std::getline(b, lb) && la == lb) ++line;
  ADD_FAILURE() << kKeyReferencePath << " is out of date (line " << line
                << " differs: committed\n  " << la << "\nrendered\n  " << lb
                << "\n): " << kRegenerate;
}

TEST(KeyReference, TheKeysCommandPrintsIt) {
  const testing::Result r = testing::RunCli("keys", "2>/dev/null");
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out, KeyReferenceMarkdown());
}

TEST(KeyReference, ListsExactlyTheKeysTheLoaderAccepts) {
  const std::set<std::string> documented = DocumentedKeys(KeyReferenceMarkdown());
  const std::set<std::string> accepted = AcceptedKeys();
  for (const std::string& key : accepted) EXPECT_TRUE(documented.count(key)) << key;
  for (const std::string& key : documented) EXPECT_TRUE(accepted.count(key)) << key;
  // The new keys of flow tags and the convergence metric in particular.
  for (const char* key : {"flow[].tag", "workload.tag", "output.convergence_window",
                          "output.convergence_tolerance"}) {
    EXPECT_TRUE(documented.count(key)) << key;
  }
}

// The other direction, through the loader itself: every key of every example and of every
// resolved.toml is documented, and --set accepts every documented key.
TEST(KeyReference, EveryKeyTheLoaderReadsIsDocumented) {
  const std::set<std::string> documented = DocumentedKeys(KeyReferenceMarkdown());
  std::vector<std::pair<std::string, toml::table>> docs;
  for (const fs::path& file : ExampleFiles()) {
    docs.emplace_back(file.string(), toml::parse_file(file.string()));
    const Scenario s = LoadScenarioFile(file.string());
    docs.emplace_back(file.string() + " resolved", toml::parse(ResolvedToml(s)));
  }
  ASSERT_GT(docs.size(), 8u);
  docs.emplace_back("built-in resolved", toml::parse(ResolvedToml(DefaultScenario())));
  for (const auto& [name, table] : docs) {
    std::set<std::string> used;
    CollectKeys(table, "", &used);
    for (const std::string& key : used) EXPECT_TRUE(documented.count(key)) << name << ": " << key;
  }

  const std::string base = "[[flow]]\nsrc = 1\ndst = 0\nsize = \"1MB\"\n";
  for (std::string key : documented) {
    if (key.rfind("flow[].", 0) == 0) key = "flow.0." + key.substr(7);
    if (key.rfind("collective[].", 0) == 0) key = "collective.0." + key.substr(13);
    try {
      LoadScenarioText(base, "base.toml", {key + "=1"});
    } catch (const InputError& e) {
      // Wrong values and keys of another topology type are fine here; unknown keys are not.
      EXPECT_EQ(std::string(e.what()).find("unknown key"), std::string::npos) << e.what();
    }
  }
}

// The scenario that checks a key's default: `key = default` set on top of `context` must give
// the same resolved scenario as `context` alone.
struct DefaultCase {
  std::string base;
  std::vector<std::string> context;
};

DefaultCase CaseFor(const std::string& key) {
  DefaultCase c{"[[flow]]\nsrc = 1\ndst = 0\nsize = \"1MB\"\n", {}};
  // A key of one topology type: the first type (from the registry) that takes it.
  if (key.rfind("topology.", 0) == 0) {
    for (const TopologyType* t : TopologyTypes()) {
      for (const TopologyKey* k : t->keys) {
        if (c.context.empty() && "topology." + std::string(k->doc.name) == key) {
          c.context = {"topology.type=" + std::string(t->name)};
        }
      }
    }
  }
  if (key == "topology.switches") {  // custom's, with links for its switch
    c.context = {"topology.type=custom", "topology.hosts=2",
                 R"(topology.links=[["h0", "s0"], ["h1", "s0"]])"};
  }
  if (key.rfind("workload.", 0) == 0) c.base += "[workload]\ntype = \"incast\"\nsize = \"1MB\"\n";
  if (key.rfind("collective[].", 0) == 0) {
    c.base += "[[collective]]\nop = \"allreduce\"\nsize = \"1MB\"\n";
  }
  if (key.rfind("job[].", 0) == 0) {
    c.base += "[[job]]\n[[job.layer]]\nname = \"block\"\n";
  }
  if (key.rfind("output.pcap.", 0) == 0) c.base += "[output.pcap]\npoints = [\"h1\"]\n";
  if (key.rfind("switch.pfc.watchdog.", 0) == 0) c.base += "[switch.pfc.watchdog]\n";
  if (key == "flow[].after_delay") {
    // Only with `after`: flow 0 (from h1) waits for a flow h1 sends.
    c.base += "[[flow]]\nid = \"x\"\nsrc = 1\ndst = 2\nsize = \"1MB\"\n";
    c.context = {"flow.0.after=[\"x\"]"};
  }
  return c;
}

TEST(KeyReference, LiteralDefaultsAreTheLoadersDefaults) {
  int checked = 0;
  for (const TableSchema* table : ScenarioTables()) {
    for (const KeySchema& k : *table) {
      if (!IsLiteralDefault(k.default_value)) continue;
      std::string key =
          std::string(table->path) + (table->path.empty() ? "" : ".") + std::string(k.name);
      const DefaultCase c = CaseFor(key);
      if (key.rfind("flow[].", 0) == 0) key = "flow.0." + key.substr(7);
      if (key.rfind("collective[].", 0) == 0) key = "collective.0." + key.substr(13);
      if (key.rfind("job[].layer[].", 0) == 0) key = "job.0.layer.0." + key.substr(14);
      if (key.rfind("job[].", 0) == 0) key = "job.0." + key.substr(6);
      std::vector<std::string> with = c.context;
      with.push_back(key + "=" + std::string(k.default_value));
      try {
        const bool same = ResolvedToml(LoadScenarioText(c.base, "base.toml", with)) ==
                          ResolvedToml(LoadScenarioText(c.base, "base.toml", c.context));
        EXPECT_TRUE(same) << key << " = " << k.default_value
                          << " is not what leaving the key out gives (scenario.h's default)";
      } catch (const InputError& e) {
        ADD_FAILURE() << key << " = " << k.default_value << ": " << e.what();
      }
      ++checked;
    }
  }
  EXPECT_GT(checked, 30);
}

TEST(KeyReference, ProseDefaultsSayWhy) {
  for (const TableSchema* table : ScenarioTables()) {
    for (const KeySchema& k : *table) {
      EXPECT_FALSE(k.type.empty()) << k.name;
      EXPECT_FALSE(k.meaning.empty()) << k.name;
      EXPECT_FALSE(k.default_value.empty()) << k.name;
    }
  }
  EXPECT_TRUE(IsLiteralDefault("\"40Gbps\""));
  EXPECT_TRUE(IsLiteralDefault("[]"));
  EXPECT_TRUE(IsLiteralDefault("0.15"));
  EXPECT_FALSE(IsLiteralDefault("required"));
  EXPECT_FALSE(IsLiteralDefault("depends on `type`: `\"incast\"`, `\"permutation\"`"));
}

TEST(KeyReference, EveryCcParameterHasADocAndEveryProfileResolves) {
  for (const CcAlgorithm& algorithm : CcAlgorithms()) {
    for (const CcParamDoc& d : algorithm.docs) {
      EXPECT_FALSE(d.type.empty()) << d.name;
      EXPECT_FALSE(d.meaning.empty()) << d.name;
    }
    for (const CcProfileInfo& p : algorithm.profiles) {
      CcConfig cc;
      cc.algorithm = algorithm.name;
      cc.profile = p.name;
      EXPECT_EQ(algorithm.resolve(cc, "x")->ParamsText().size(), algorithm.docs.size()) << p.name;
    }
  }
}

}  // namespace
}  // namespace dcqcn
