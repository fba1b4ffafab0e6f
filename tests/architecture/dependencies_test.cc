// The model parts take plain parameter structs and never include the layers that build them:
// net/ may use cc/ and core/; cc/ and fluid/ only each other's parameter types and core/.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>

namespace dcqcn {
namespace {

namespace fs = std::filesystem;

// Every "part/..." a file under src/`part` includes, as "file -> part/header".
std::vector<std::string> ForbiddenIncludes(const std::string& part,
                                           const std::set<std::string>& allowed) {
  std::vector<std::string> bad;
  const std::regex include(R"(^\s*#\s*include\s+"([a-z_]+)/([^"]+)\")");
  for (const auto& entry : fs::directory_iterator(fs::path(DCQCN_SOURCE_DIR) / "src" / part)) {
    std::ifstream in(entry.path());
    std::string line;
    while (std::getline(in, line)) {
      std::smatch m;
      if (std::regex_search(line, m, include) && m[1] != part && !allowed.count(m[1])) {
        bad.push_back(entry.path().filename().string() + " -> " + m[1].str() + "/" + m[2].str());
      }
    }
  }
  return bad;
}

TEST(Dependencies, ModelPartsNeverIncludeTheLayersThatBuildThem) {
  const std::map<std::string, std::set<std::string>> allowed = {
      {"core", {}}, {"cc", {"core"}}, {"fluid", {"core", "cc"}}, {"net", {"core", "cc"}}};
  for (const auto& [part, deps] : allowed) {
    EXPECT_EQ(ForbiddenIncludes(part, deps), std::vector<std::string>{}) << "src/" << part;
  }
}

}  // namespace
}  // namespace dcqcn
