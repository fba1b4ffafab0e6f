// docs/architecture.md against the code: its layer table is src/layers.txt, and it lists every
// registered congestion-control algorithm with its folder and CC_MODE, and every topology type and
// collective algorithm with its file.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "cc/registry.h"
#include "topology/topology_type.h"
#include "workload/collective_algorithm.h"

namespace dcqcn {
namespace {

std::string Read(const std::string& path) {
  std::ifstream in(std::string(DCQCN_SOURCE_DIR) + "/" + path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The table rows "| a | b |" of `text` whose first cell is one of the table's folders.
std::vector<std::string> LayerRows(const std::string& text) {
  std::vector<std::string> rows;
  std::istringstream in(text);
  bool in_table = false;
  for (std::string line; std::getline(in, line);) {
    if (line == "| folder | may include |") {
      in_table = true;
      continue;
    }
    if (!in_table) continue;
    if (line.rfind("|---", 0) == 0) continue;
    if (line.empty() || line[0] != '|') break;
    // "| net | core cc |" -> "net: core cc"
    const size_t second = line.find('|', 1);
    auto trim = [](std::string s) {
      s.erase(0, s.find_first_not_of(' '));
      s.erase(s.find_last_not_of(' ') + 1);
      return s;
    };
    const std::string folder = trim(line.substr(1, second - 1));
    const std::string deps = trim(line.substr(second + 1, line.size() - second - 2));
    rows.push_back(deps.empty() ? folder + ":" : folder + ": " + deps);
  }
  return rows;
}

TEST(ArchitectureDoc, TheLayerTableIsSrcLayersTxt) {
  std::vector<std::string> table;
  std::istringstream in(Read("src/layers.txt"));
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line[0] != '#') table.push_back(line);
  }
  EXPECT_EQ(LayerRows(Read("docs/architecture.md")), table)
      << "docs/architecture.md's layer table must list src/layers.txt's lines in order";
}

TEST(ArchitectureDoc, ListsEveryAlgorithmWithItsFolderAndMode) {
  const std::string doc = Read("docs/architecture.md");
  for (const CcAlgorithm& a : CcAlgorithms()) {
    const std::string mode = a.ns3_cc_mode != 0 ? std::to_string(a.ns3_cc_mode) : "-";
    const std::string row =
        "| " + std::string(a.name) + " | `cc/" + std::string(a.name) + "/` | " + mode + " |";
    EXPECT_NE(doc.find(row), std::string::npos) << "missing row: " << row;
  }
}

// A topology type is its file in topology/types/ and one registry line; a collective algorithm
// its file in workload/collective/ and one line. The doc lists each with its file, and nothing
// else in src/ asks for a type by name.
TEST(ArchitectureDoc, ListsEveryTopologyTypeAndCollectiveAlgorithmWithItsFile) {
  const std::string doc = Read("docs/architecture.md");
  for (const TopologyType* t : TopologyTypes()) {
    const std::string file = "src/topology/types/" + std::string(t->name) + ".cc";
    EXPECT_FALSE(Read(file).empty()) << file;
    const std::string row = "| " + std::string(t->name) + " | `" + file.substr(4) + "` |";
    EXPECT_NE(doc.find(row), std::string::npos) << "missing row: " << row;
  }
  for (const CollectiveAlgorithm* a : CollectiveAlgorithms()) {
    const std::string file = "src/workload/collective/" + std::string(a->name) + ".cc";
    EXPECT_FALSE(Read(file).empty()) << file;
    const std::string row = "| " + std::string(a->name) + " | `" + file.substr(4) + "` |";
    EXPECT_NE(doc.find(row), std::string::npos) << "missing row: " << row;
  }
  const std::regex by_name(R"((topology|topo|t)\.type == ")");
  for (const auto& entry : std::filesystem::recursive_directory_iterator(
           std::filesystem::path(DCQCN_SOURCE_DIR) / "src")) {
    if (!entry.is_regular_file()) continue;
    const std::string text = Read(std::filesystem::relative(entry.path(), DCQCN_SOURCE_DIR));
    EXPECT_FALSE(std::regex_search(text, by_name))
        << entry.path() << " compares a topology type by name; give the type a flag instead";
  }
}

}  // namespace
}  // namespace dcqcn
