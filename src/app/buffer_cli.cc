// `dcqcn buffer`'s options.
#include "app/buffer_cli.h"

namespace dcqcn {

CLI::App* AddBufferCommand(CLI::App& app, BufferOptions& o) {
  CLI::App* cmd = app.add_subcommand(
      "buffer", "the paper's switch-buffer rules: headroom, PFC threshold, ECN Kmin bounds");
  cmd->add_option("--ports", o.ports, "switch ports (n)")->capture_default_str();
  cmd->add_option("--buffer", o.buffer, "shared buffer (B), e.g. 12MB")->capture_default_str();
  cmd->add_option("--rate", o.rate, "port rate")->capture_default_str();
  cmd->add_option("--cable", o.cable, "cable length (m, km), 5 ns/m")->capture_default_str();
  cmd->add_option("--mtu", o.mtu, "Ethernet MTU in bytes")->capture_default_str();
  cmd->add_option("--headroom", o.headroom,
                  "headroom per port per priority (default: from rate, cable and MTU)");
  cmd->add_option("--beta", o.beta, "dynamic-threshold factor (alpha = beta / 8)")
      ->capture_default_str();
  cmd->add_option("--kmin", o.kmin, "ECN Kmin to check")->capture_default_str();
  return cmd;
}

}  // namespace dcqcn
