// The built-in flow-size distributions, compiled into the binary so that it works without the
// source tree. Each text is byte for byte data/workloads/NAME.txt (a test checks this).
#include <string>
#include <string_view>
#include <vector>

#include "workload/cdf.h"

namespace dcqcn {
namespace {

constexpr std::string_view kWebSearch =
    R"cdf(# Flow sizes of a web-search cluster: the DCTCP paper's workload.
# Source: M. Alizadeh, A. Greenberg, D. A. Maltz, J. Padhye, P. Patel, B. Prabhakar, S. Sengupta,
# M. Sridharan, "Data Center TCP (DCTCP)", ACM SIGCOMM 2010 (figure 4, query and background
# traffic). Points as distributed with the HPCC ns-3 simulator (WebSearch_distribution.txt) and
# used by the HPCC paper (Y. Li et al., "HPCC: High Precision Congestion Control", SIGCOMM 2019).
# Format: one "<flow size in bytes> <cumulative percent>" per line; '#' starts a comment. The
# CDF is linear between points (a flow size is drawn uniformly within its segment).
0 0
10000 15
20000 20
30000 30
50000 40
80000 53
200000 60
1000000 70
2000000 80
5000000 90
10000000 97
30000000 100
)cdf";

constexpr std::string_view kHadoop =
    R"cdf(# Flow sizes of a Facebook Hadoop cluster.
# Source: A. Roy, H. Zeng, J. Bagga, G. Porter, A. C. Snoeren, "Inside the Social Network's
# (Datacenter) Network", ACM SIGCOMM 2015 (Hadoop cluster flow sizes). Points as distributed with
# the HPCC ns-3 simulator (FbHdp_distribution.txt) and used by the HPCC paper (Y. Li et al.,
# "HPCC: High Precision Congestion Control", SIGCOMM 2019).
# Format: one "<flow size in bytes> <cumulative percent>" per line; '#' starts a comment. The
# CDF is linear between points (a flow size is drawn uniformly within its segment).
0 0
100 1
200 2
300 5
350 15
400 20
500 30
600 40
700 50
1000 60
2000 67
7000 70
30000 72
50000 82
80000 87
120000 90
300000 95
1000000 97.5
2000000 99
10000000 100
)cdf";

}  // namespace

const std::vector<std::string>& BuiltinCdfNames() {
  static const std::vector<std::string> names = {"websearch", "hadoop"};
  return names;
}

std::string_view BuiltinCdfText(std::string_view name) {
  if (name == "websearch") return kWebSearch;
  if (name == "hadoop") return kHadoop;
  return {};
}

}  // namespace dcqcn
