// Max-min fair shares of flows over links: the reference against which the normalised Jain index
// (output/metrics.h) reads the flows' throughputs, and how an NVLink crossbar shares its ports
// (net/nvlink_fabric.h).
#pragma once

#include <cstdint>
#include <vector>

namespace dcqcn {

// Each flow's max-min fair rate when every flow of `paths` sends at once over the links it
// crosses (indices into `capacity`, in any unit): progressive filling (Bertsekas and Gallager,
// "Data Networks", 6.5.2) raises every flow's rate together and fixes the flows of a link when
// it fills. A flow that crosses no link gets 0 (it has no share). A flow's own rate limit is a
// link of its own.
std::vector<double> MaxMinShares(const std::vector<std::vector<uint32_t>>& paths,
                                 const std::vector<double>& capacity);

}  // namespace dcqcn
