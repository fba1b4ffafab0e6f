// Packet captures through libpcap (DCQCN_HAVE_PCAP).
#include "output/pcap_capture.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "core/error.h"

#ifdef DCQCN_HAVE_PCAP
#include <pcap/pcap.h>
#endif

namespace dcqcn {

#ifdef DCQCN_HAVE_PCAP
struct PcapCapture::Handles {
  pcap_t* dead = nullptr;
  pcap_dumper_t* dumper = nullptr;
};
bool BuiltWithPcap() { return true; }
#else
struct PcapCapture::Handles {};
bool BuiltWithPcap() { return false; }
#endif

PcapCapture::PcapCapture(const PcapConfig& config, Engine* engine, const std::string& path)
    : config_(config),
      net_(&engine->net()),
      ack_interval_(net_->config().host.ack_interval),
      pcap_(std::make_unique<Handles>()) {
#ifdef DCQCN_HAVE_PCAP
  if (!path.empty()) Open(path);  // empty: another rank's, which taps while rank 0's writes
#else
  throw InputError(
      "output.pcap: this dcqcn was built without libpcap (install libpcap-dev, which "
      "scripts/setup.sh does, and rebuild)");
#endif
  // A point sees what its port sends (this end to the peer) and receives (the peer to it).
  for (const auto& [node, port] : config.taps) {
    const auto [peer, peer_port] = net_->peer(node, port);
    const MacAddress mine = PortMac(node, port);
    const MacAddress theirs = PortMac(peer, peer_port);
    taps_.push_back(std::make_unique<LinkTap>(this, mine, theirs));
    LinkTap* send = taps_.back().get();
    taps_.push_back(std::make_unique<LinkTap>(this, theirs, mine));
    engine->Tap(node, port, send, taps_.back().get());
  }
}

void PcapCapture::Open(const std::string& path) {
#ifdef DCQCN_HAVE_PCAP
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent);
  pcap_->dead =
      pcap_open_dead_with_tstamp_precision(DLT_EN10MB, config_.snaplen, PCAP_TSTAMP_PRECISION_NANO);
  pcap_->dumper = pcap_->dead ? pcap_dump_open(pcap_->dead, path.c_str()) : nullptr;
  if (pcap_->dumper == nullptr) {
    const std::string why = pcap_->dead ? pcap_geterr(pcap_->dead) : "libpcap failed";
    if (pcap_->dead) pcap_close(pcap_->dead);
    throw std::runtime_error(fmt::format("cannot write {}: {}", path, why));
  }
#endif
}

PcapCapture::~PcapCapture() {
  Close();
  // The network may outlive the capture: leave no tap pointing at it.
  for (const auto& [node, port] : config_.taps) net_->Tap(node, port, nullptr, nullptr);
}

void PcapCapture::Close() {
#ifdef DCQCN_HAVE_PCAP
  if (pcap_->dumper == nullptr) return;
  pcap_dump_close(pcap_->dumper);
  pcap_close(pcap_->dead);
  pcap_->dumper = nullptr;
#endif
}

void PcapCapture::Write(const Packet& p, Time now, const MacAddress& src, const MacAddress& dst) {
  if (full() || now < config_.from || now >= config_.until) return;
  if ((config_.kinds & (1u << static_cast<unsigned>(p.type))) == 0) return;
#ifdef DCQCN_HAVE_PCAP
  if (pcap_->dumper == nullptr) return;
  FrameContext c;
  c.src_mac = src;
  c.dst_mac = dst;
  c.ack_interval = ack_interval_;
  if (p.type == PacketType::kData) {
    // From its spec: over ranks, the flow may never have reached this one.
    const Bytes mtu = net_->config().host.mtu;
    c.total_packets = static_cast<uint32_t>((net_->flow_spec(p.flow).size + mtu - 1) / mtu);
  }
  const std::vector<uint8_t> frame = EncodeFrame(p, c);
  pcap_pkthdr header{};
  const Time ns = now / kNanosecond;
  header.ts.tv_sec = static_cast<time_t>(ns / 1000000000);
  header.ts.tv_usec = static_cast<suseconds_t>(ns % 1000000000);  // nanoseconds in this file
  header.len = static_cast<uint32_t>(frame.size());
  header.caplen = std::min<uint32_t>(header.len, static_cast<uint32_t>(config_.snaplen));
  pcap_dump(reinterpret_cast<u_char*>(pcap_->dumper), &header, frame.data());
  ++packets_;
#endif
}

}  // namespace dcqcn
