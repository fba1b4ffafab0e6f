// links.csv's bytes, by node.
#include "run/node_work.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <sstream>

#include "core/error.h"
#include "core/input_file.h"

namespace dcqcn {

namespace {

std::vector<std::string> Fields(const std::string& line) {
  std::vector<std::string> fields;
  std::stringstream in(line);
  std::string field;
  while (std::getline(in, field, ',')) fields.push_back(field);
  if (!line.empty() && line.back() == ',') fields.emplace_back();
  return fields;
}

}  // namespace

std::vector<double> ReadNodeWork(const std::string& run_dir, const Topology& topo) {
  const std::string path = run_dir + "/links.csv";
  constexpr size_t kMaxBytes = size_t{1} << 30;
  const std::string text = ReadInputFile(path, "an earlier run's links", kMaxBytes);
  const auto fail = [&](int line, const std::string& message) {
    throw InputError(fmt::format(
        "{}:{}: {} (--placement-from takes the folder of an earlier run of the same topology)",
        path, line, message));
  };
  std::map<std::string, int> node_of;
  for (int n = 0; n < topo.num_nodes(); ++n) node_of[topo.node_name(n)] = n;
  std::vector<int> ports(topo.num_nodes(), 0);  // each node's cables
  for (const LinkSpec& l : topo.links) {
    ++ports[l.a];
    ++ports[l.b];
  }
  std::vector<double> work(topo.num_nodes(), 0);
  std::vector<int> seen(topo.num_nodes(), 0);
  std::stringstream in(text);
  std::string line;
  int number = 0;
  size_t node_col = 0, port_col = 0, peer_col = 0, bytes_col = 0, columns = 0;
  while (std::getline(in, line)) {
    ++number;
    const std::vector<std::string> f = Fields(line);
    if (number == 1) {
      const auto col = [&](const std::string& name) {
        const auto it = std::find(f.begin(), f.end(), name);
        if (it == f.end()) fail(1, fmt::format("no column `{}`", name));
        return static_cast<size_t>(it - f.begin());
      };
      node_col = col("node");
      port_col = col("port");
      peer_col = col("peer");
      bytes_col = col("bytes");
      columns = f.size();
      continue;
    }
    if (line.empty()) continue;
    if (f.size() != columns)
      fail(number, fmt::format("{} fields, the header has {}", f.size(), columns));
    const auto node = [&](size_t col) {
      const auto it = node_of.find(f[col]);
      if (it == node_of.end())
        fail(number, fmt::format("node `{}` is not in this topology", f[col]));
      return it->second;
    };
    const int from = node(node_col);
    const int to = node(peer_col);
    double bytes = 0;
    size_t used = 0;
    try {
      bytes = std::stod(f[bytes_col], &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != f[bytes_col].size() || !(bytes >= 0)) {
      fail(number, fmt::format("bytes: `{}` is not a number of bytes", f[bytes_col]));
    }
    const std::string& port = f[port_col];
    if (port.empty() || port.size() > 9 || !std::all_of(port.begin(), port.end(), ::isdigit) ||
        std::stoll(port) >= ports[from]) {
      fail(number, fmt::format("{} has no port `{}` in this topology", f[node_col], port));
    }
    ++seen[from];
    work[from] += bytes;
    work[to] += bytes;
  }
  for (int n = 0; n < topo.num_nodes(); ++n) {
    if (seen[n] != ports[n]) {
      fail(number, fmt::format("{} ports of {} listed, this topology gives it {}", seen[n],
                               topo.node_name(n), ports[n]));
    }
  }
  return work;
}

}  // namespace dcqcn
