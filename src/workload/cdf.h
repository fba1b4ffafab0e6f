// Flow-size distributions given as a cumulative distribution: the HPCC ns-3 CDF format, one
// "<size bytes> <cumulative percent>" per line, linear between points, plus '#' comments.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/rng.h"
#include "core/units.h"

namespace dcqcn {

class FlowSizeCdf {
 public:
  struct Point {
    double size;     // bytes
    double percent;  // cumulative, 0..100
  };

  // Parses CDF text. The first point must be at 0 percent and the last at 100; both columns
  // never decrease. Blank lines and '#' comments are skipped. `source` names the text in messages.
  // Throws InputError "SOURCE:LINE: what was expected, got what".
  static FlowSizeCdf Parse(std::string_view text, const std::string& source);

  // Exact mean of the distribution the CDF describes (uniform within each segment), in bytes:
  // the sum over segments of the segment's midpoint times its probability.
  double Mean() const;

  // A flow size drawn by inverse transform, interpolating linearly between points as HPCC's
  // traffic generator does; like it, the size is truncated to whole bytes and at least 1.
  Bytes Sample(Rng& rng) const;

  const std::vector<Point>& points() const { return points_; }

 private:
  std::vector<Point> points_;
};

// Names of the distributions built into the binary ("websearch", "hadoop").
const std::vector<std::string>& BuiltinCdfNames();

// The text of a built-in distribution (the contents of data/workloads/NAME.txt), or empty when
// `name` is not built in.
std::string_view BuiltinCdfText(std::string_view name);

// A built-in distribution by name, or else the file at `path_or_name`. Throws InputError naming
// the file (and line) when it cannot be read or is not a valid CDF.
FlowSizeCdf LoadFlowSizeCdf(const std::string& path_or_name);

}  // namespace dcqcn
