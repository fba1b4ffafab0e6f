// `dcqcn buffer`: the paper's switch-buffer threshold rules (spec 4.2) for a given switch, with
// a verdict on an ECN Kmin.
#pragma once

#include <string>

namespace CLI {
class App;
}

namespace dcqcn {

// Options as typed, validated by BufferReport so that a bad value is an InputError (exit 1)
// naming the option. Defaults: the paper's testbed (Arista 7050QX32, 32 x 40G, 12 MB).
struct BufferOptions {
  std::string ports = "32";
  std::string buffer = "12000KB";
  std::string rate = "40Gbps";
  std::string cable = "100m";
  std::string mtu = "1500";
  std::string headroom{};  // empty: estimated from rate, cable and MTU
  std::string beta = "8";
  std::string kmin = "5KB";
};

// Registers the subcommand and its options (bound to `options`) on `app`.
CLI::App* AddBufferCommand(CLI::App& app, BufferOptions& options);

// The report `dcqcn buffer` prints. Throws InputError for a bad option value.
std::string BufferReport(const BufferOptions& options);

}  // namespace dcqcn
