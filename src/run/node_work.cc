// links.csv's bytes, by node.
#include "run/node_work.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <sstream>

#include "core/error.h"
#include "core/input_file.h"
#include "core/token_file.h"

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
      const std::optional<int> n = topo.node_named(f[col]);
      if (!n) fail(number, fmt::format("node `{}` is not in this topology", f[col]));
      return *n;
    };
    const int from = node(node_col);
    const int to = node(peer_col);
    int64_t bytes = 0;
    if (!TokenFile::ParseInt(f[bytes_col], 0, INT64_MAX, &bytes)) {
      fail(number, fmt::format("bytes: `{}` is not a number of bytes", f[bytes_col]));
    }
    int64_t port = 0;
    if (!TokenFile::ParseInt(f[port_col], 0, ports[from] - 1, &port)) {
      fail(number, fmt::format("{} has no port `{}` in this topology", f[node_col], f[port_col]));
    }
    ++seen[from];
    work[from] += static_cast<double>(bytes);
    work[to] += static_cast<double>(bytes);
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
