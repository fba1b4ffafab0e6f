// docs/architecture.md against the code: its layer table is src/layers.txt, and it lists every
// registered congestion-control algorithm with its folder and CC_MODE.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cc/registry.h"

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

}  // namespace
}  // namespace dcqcn
