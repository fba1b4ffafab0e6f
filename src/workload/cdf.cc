// Parsing, exact mean and sampling of flow-size CDFs; the built-in distributions live in
// builtin_cdfs.cc.
#include "workload/cdf.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/error.h"
#include "core/input_file.h"

namespace dcqcn {

namespace {
constexpr double kMaxCdfFlowSize = 1e15;
}  // namespace
namespace {

// Parses a whole token as a finite double; false when it is not one.
bool ParseNumber(const std::string& token, double* out) {
  if (token.empty()) return false;
  char* end = nullptr;
  errno = 0;
  *out = std::strtod(token.c_str(), &end);
  return end == token.c_str() + token.size() && errno == 0 && std::isfinite(*out);
}

}  // namespace

FlowSizeCdf FlowSizeCdf::Parse(std::string_view text, const std::string& source) {
  FlowSizeCdf cdf;
  std::istringstream in{std::string(text)};
  std::string line;
  int line_no = 0;
  int last_line = 0;
  auto fail = [&](int at, const std::string& what) -> void {
    throw InputError(fmt::format("{}:{}: flow-size CDF: {}", source, at, what));
  };
  while (std::getline(in, line)) {
    ++line_no;
    const size_t hash = line.find('#');
    if (hash != std::string::npos) line.resize(hash);
    std::istringstream fields(line);
    std::string size_text, percent_text, extra;
    if (!(fields >> size_text)) continue;  // blank or comment-only line
    Point p{};
    if (!(fields >> percent_text) || (fields >> extra) || !ParseNumber(size_text, &p.size) ||
        !ParseNumber(percent_text, &p.percent)) {
      fail(line_no, fmt::format("expected \"<size bytes> <cumulative percent>\", got \"{}\"",
                                line.substr(0, line.find_last_not_of(" \t\r") + 1)));
    }
    if (p.size < 0) fail(line_no, fmt::format("expected a size >= 0 bytes, got {}", size_text));
    // Sizes become 64-bit byte counts (and packet counts, times): 1 PB is far beyond any flow.
    if (p.size > kMaxCdfFlowSize) {
      fail(line_no, fmt::format("expected a size of at most 1e15 bytes (1 PB), got {}", size_text));
    }
    if (p.percent < 0 || p.percent > 100) {
      fail(line_no, fmt::format("expected a cumulative percent in 0..100, got {}", percent_text));
    }
    if (!cdf.points_.empty()) {
      const Point& prev = cdf.points_.back();
      if (p.size < prev.size || p.percent < prev.percent) {
        fail(line_no, fmt::format("expected sizes and percents that never decrease, got {} {} "
                                  "after {} {}",
                                  size_text, percent_text, prev.size, prev.percent));
      }
    } else if (p.percent != 0) {
      fail(line_no, fmt::format("expected the first point at 0 percent, got {}", percent_text));
    }
    cdf.points_.push_back(p);
    last_line = line_no;
  }
  if (cdf.points_.size() < 2) {
    fail(std::max(line_no, 1), fmt::format("expected at least two points (0 and 100 percent), "
                                           "got {}",
                                           cdf.points_.size()));
  }
  if (cdf.points_.back().percent != 100) {
    fail(last_line,
         fmt::format("expected the last point at 100 percent, got {}", cdf.points_.back().percent));
  }
  if (cdf.points_.back().size < 1) {
    fail(last_line, "expected some flow sizes of at least 1 byte, got only 0");
  }
  return cdf;
}

double FlowSizeCdf::Mean() const {
  double mean = 0;
  for (size_t i = 1; i < points_.size(); ++i) {
    const Point& a = points_[i - 1];
    const Point& b = points_[i];
    mean += (a.size + b.size) / 2 * (b.percent - a.percent) / 100;
  }
  return mean;
}

Bytes FlowSizeCdf::Sample(Rng& rng) const {
  const double u = rng.Uniform() * 100;  // in [0, 100)
  // The first point above u exists because the last is at 100; segments of zero probability
  // (equal percents) are never chosen.
  auto it = std::upper_bound(points_.begin(), points_.end(), u,
                             [](double v, const Point& p) { return v < p.percent; });
  const Point& b = *it;
  const Point& a = *(it - 1);
  const double x = a.size + (b.size - a.size) * (u - a.percent) / (b.percent - a.percent);
  return std::max<Bytes>(1, static_cast<Bytes>(x));
}

FlowSizeCdf LoadFlowSizeCdf(const std::string& path_or_name) {
  if (std::string_view text = BuiltinCdfText(path_or_name); !text.empty()) {
    return FlowSizeCdf::Parse(text, fmt::format("<built-in {}>", path_or_name));
  }
  std::error_code ec;
  if (!std::filesystem::exists(path_or_name, ec)) {
    throw InputError(
        fmt::format("{}: cannot read flow-size CDF file: No such file or directory (built-in "
                    "distributions: {})",
                    path_or_name, fmt::join(BuiltinCdfNames(), ", ")));
  }
  const std::string text = ReadInputFile(path_or_name, "flow-size CDF file", size_t{64} << 20);
  return FlowSizeCdf::Parse(text, path_or_name);
}

}  // namespace dcqcn
