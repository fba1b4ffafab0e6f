// The layers of src/ (src/layers.txt): every #include of every file under src/FOLDER names only
// FOLDER itself or a folder the table allows it; the Python bindings use the run layer and what
// is below it, never app/. CMakeLists.txt links the libraries by the same table, so an include
// this test refuses would also be a link the build does not make.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace dcqcn {
namespace {

namespace fs = std::filesystem;
using Layers = std::map<std::string, std::set<std::string>>;

// "folder: dep dep ..." lines; '#' starts a comment.
Layers ReadLayers(const fs::path& file) {
  Layers layers;
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::istringstream deps(line.substr(colon + 1));
    std::set<std::string>& allowed = layers[line.substr(0, colon)];
    for (std::string dep; deps >> dep;) allowed.insert(dep);
  }
  return layers;
}

// Every "part/..." include of the files under `dir` (recursively) whose part is neither `self`
// nor in `allowed`, as "file -> part/header".
std::vector<std::string> ForbiddenIncludes(const fs::path& dir, const std::string& self,
                                           const std::set<std::string>& allowed) {
  std::vector<std::string> bad;
  const std::regex include(R"(^\s*#\s*include\s+"([a-z0-9_]+)/([^"]+)\")");
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    std::ifstream in(entry.path());
    std::string line;
    while (std::getline(in, line)) {
      std::smatch m;
      if (std::regex_search(line, m, include) && m[1] != self && !allowed.count(m[1])) {
        bad.push_back(fs::relative(entry.path(), dir.parent_path()).string() + " -> " + m[1].str() +
                      "/" + m[2].str());
      }
    }
  }
  return bad;
}

// Every folder's forbidden includes, and the folders the table does not name.
std::vector<std::string> CheckTree(const fs::path& src, const Layers& layers) {
  std::vector<std::string> problems;
  for (const auto& entry : fs::directory_iterator(src)) {
    if (!entry.is_directory()) continue;
    const std::string folder = entry.path().filename().string();
    const auto it = layers.find(folder);
    if (it == layers.end()) {
      problems.push_back("src/" + folder + " is not in src/layers.txt");
      continue;
    }
    for (std::string& b : ForbiddenIncludes(entry.path(), folder, it->second)) {
      problems.push_back(std::move(b));
    }
  }
  return problems;
}

const fs::path kSource = DCQCN_SOURCE_DIR;

TEST(Dependencies, EveryIncludeFollowsTheLayerTable) {
  const Layers layers = ReadLayers(kSource / "src/layers.txt");
  ASSERT_GE(layers.size(), 12u) << "src/layers.txt names every folder of src/";
  EXPECT_EQ(CheckTree(kSource / "src", layers), std::vector<std::string>{});
}

TEST(Dependencies, TheModelNeverIncludesTheLayersThatBuildIt) {
  // The table itself: the model parts (core, cc, fluid, net) use only each other.
  const Layers layers = ReadLayers(kSource / "src/layers.txt");
  const std::set<std::string> model = {"core", "cc", "fluid", "net"};
  for (const std::string& part : model) {
    ASSERT_TRUE(layers.count(part)) << part;
    for (const std::string& dep : layers.at(part)) {
      EXPECT_TRUE(model.count(dep)) << part << " may include " << dep;
    }
  }
  // Every arrow points down: a folder's allowed folders come before it in the table, so there
  // is no cycle.
  std::set<std::string> seen;
  std::ifstream in(kSource / "src/layers.txt");
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const std::string folder = line.substr(0, line.find(':'));
    for (const std::string& dep : layers.at(folder)) {
      EXPECT_TRUE(seen.count(dep)) << folder << " -> " << dep << " points up";
    }
    seen.insert(folder);
  }
}

TEST(Dependencies, TheNetworkNeverAsksWhichEngineRunsIt) {
  // The engines (threads, MPI ranks) sit above the model: net/ includes none of them, and no
  // file of net/ names a rank, a thread team or a window.
  const Layers layers = ReadLayers(kSource / "src/layers.txt");
  ASSERT_TRUE(layers.count("engine"));
  EXPECT_TRUE(layers.at("engine").count("net"));
  EXPECT_FALSE(layers.at("net").count("engine"));
  const std::regex engine_words(R"(\b(ranks_|rank_|ThreadTeam|RankExchange|window_parity_)\b)");
  std::vector<std::string> found;
  for (const auto& entry : fs::directory_iterator(kSource / "src/net")) {
    const std::string name = entry.path().filename().string();
    std::ifstream in(entry.path());
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
      if (std::regex_search(line, engine_words)) found.push_back(name + ":" + std::to_string(n));
    }
  }
  EXPECT_EQ(found, std::vector<std::string>{});
}

TEST(Dependencies, TheBindingsUseTheRunLayerNotTheCommandLine) {
  const Layers layers = ReadLayers(kSource / "src/layers.txt");
  std::set<std::string> allowed = layers.at("run");
  allowed.insert("run");
  EXPECT_EQ(ForbiddenIncludes(kSource / "bindings", "bindings", allowed),
            std::vector<std::string>{});
}

TEST(Dependencies, APlantedIncludeIsFound) {
  // The checker itself: a copy of the table over a tree with one include that points up.
  const fs::path root = fs::temp_directory_path() / ("dcqcn_layers_" + std::to_string(getpid()));
  fs::remove_all(root);
  fs::create_directories(root / "src/net/sub");
  fs::create_directories(root / "src/scenario");
  std::ofstream(root / "src/net/link.cc") << "#include \"net/link.h\"\n#include \"cc/x.h\"\n";
  std::ofstream(root / "src/net/sub/planted.h") << "  #  include \"scenario/scenario.h\"\n";
  std::ofstream(root / "src/scenario/s.cc") << "#include \"net/network.h\"\n";
  const Layers layers = {
      {"core", {}}, {"cc", {"core"}}, {"net", {"core", "cc"}}, {"scenario", {"core", "cc", "net"}}};
  EXPECT_EQ(CheckTree(root / "src", layers),
            std::vector<std::string>{"net/sub/planted.h -> scenario/scenario.h"});
  // A folder the table does not know is a problem too.
  fs::create_directories(root / "src/extra");
  const std::vector<std::string> problems = CheckTree(root / "src", layers);
  EXPECT_NE(std::find(problems.begin(), problems.end(), "src/extra is not in src/layers.txt"),
            problems.end());
  fs::remove_all(root);
}

}  // namespace
}  // namespace dcqcn
