// [output.pcap]: the packets seen at some ports, written as they pass to capture.pcap (libpcap,
// nanosecond time stamps, Ethernet link type) with the bytes output/roce_frame.h gives them.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "net/network.h"
#include "net/packet_tap.h"
#include "output/output_config.h"
#include "output/roce_frame.h"

namespace dcqcn {

// Whether this binary was built with libpcap ([output.pcap] is an error otherwise).
bool BuiltWithPcap();

class PcapCapture {
 public:
  // Opens `path` (none if empty: another rank of a run spread over several, whose taps show
  // rank 0's what they see) and taps the ports `config.taps` of `net` (until destroyed). Throws
  // InputError without libpcap, std::runtime_error when the file cannot be written.
  PcapCapture(const PcapConfig& config, Engine* engine, const std::string& path);
  ~PcapCapture();
  PcapCapture(const PcapCapture&) = delete;
  PcapCapture& operator=(const PcapCapture&) = delete;

  // Writes what is buffered and closes the file.
  void Close();
  int64_t packets() const { return packets_; }
  // The capture stopped at max_packets.
  bool full() const { return packets_ >= config_.max_packets; }

 private:
  // One direction of one link at a capture point: it knows both ends' MACs.
  class LinkTap : public PacketTap {
   public:
    LinkTap(PcapCapture* capture, MacAddress src, MacAddress dst)
        : capture_(capture), src_(src), dst_(dst) {}
    void OnPacket(const Packet& p, Time now) override { capture_->Write(p, now, src_, dst_); }

   private:
    PcapCapture* capture_;
    MacAddress src_;
    MacAddress dst_;
  };
  void Write(const Packet& p, Time now, const MacAddress& src, const MacAddress& dst);
  // Opens the file (throws std::runtime_error when it cannot be written).
  void Open(const std::string& path);

  PcapConfig config_;
  Network* net_;
  int ack_interval_;
  std::vector<std::unique_ptr<LinkTap>> taps_;
  struct Handles;
  std::unique_ptr<Handles> pcap_;
  int64_t packets_ = 0;
};

}  // namespace dcqcn
