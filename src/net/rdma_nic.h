// A host's RDMA NIC: queue pairs with per-QP pacers, a scheduler per port that finds the next QP
// to send without scanning (a QP is bound to one port: its flow's nic_port), RoCEv2 RC transport
// (PSN, ACK every N, NACK and go-back-N, timeout), PFC pause honoured per priority, and the
// congestion-control hooks.
#pragma once

#include <array>
#include <functional>
#include <memory>
#include <queue>
#include <unordered_map>
#include <vector>

#include "cc/congestion_control.h"
#include "core/simulator.h"
#include "net/egress_port.h"
#include "net/flow.h"
#include "net/flow_table.h"
#include "net/headers.h"
#include "net/host_config.h"
#include "net/node.h"
#include "net/ring.h"

namespace dcqcn {

class RdmaNic;

class NicPort : public EgressPort {
 public:
  NicPort(Simulator* sim, NetStats* stats, RdmaNic* nic, int node_id, int index)
      : EgressPort(sim, stats, node_id, index), nic_(nic) {}

 protected:
  Packet* NextPacket(Time now, Time* wake_at) override;
  Time NextReadyTime(Time now) const override;

 private:
  RdmaNic* nic_;
};

class RdmaNic : public Node, public EventHandler, public CcHost {
 public:
  RdmaNic(Simulator* sim, NetStats* stats, PacketPool* pool, const HostConfig& config, int host_id,
          FlowTable* flows, bool pause_until_resume, const WireFormat& wire = {});

  // Its ports, one per cable (a GPU's NIC port and its NVLink port, a dual-ToR NIC's two):
  // port 0 exists from the start, the network adds the others.
  NicPort& AddPort();
  int num_ports() const { return static_cast<int>(ports_.size()); }
  NicPort& port(int i = 0) { return *ports_[i].port; }
  const NicPort& port(int i = 0) const { return *ports_[i].port; }
  void SetCongestionControl(std::unique_ptr<CongestionControl> cc, const CcNeeds& needs) {
    cc_ = std::move(cc);
    needs_ = needs;
  }
  CongestionControl& cc() { return *cc_; }
  const CongestionControl& cc() const { return *cc_; }
  // Starts a flow this NIC sends (now: the network calls it at f.start).
  void StartFlow(Flow& f);
  // Called once for every flow whose sender saw its last ACK.
  void SetOnFlowDone(std::function<void(Flow&)> cb) { on_flow_done_ = std::move(cb); }
  // Called once for every flow this NIC receives, when its last byte arrives in order.
  void SetOnFlowDelivered(std::function<void(Flow&)> cb) { on_flow_delivered_ = std::move(cb); }
  // Called once for every transfer a later one follows on its connection (awaiting_successor),
  // when its last packet leaves the first time.
  void SetOnFlowSent(std::function<void(Flow&)> cb) { on_flow_sent_ = std::move(cb); }
  // `f`, the newest transfer of its connection, retires: the connection ends.
  void EndConnection(const Flow& f);

  void Receive(Packet* p, int port) override;
  void HandleEvent(uint32_t kind, uint64_t arg) override;
  // Congestion control names a flow by its CcFlow part; the NIC works on the whole Flow.
  void SetRate(CcFlow& f, Rate rate) override;
  void SetRateAfterNextPacket(CcFlow& f, Rate rate) override { f.rate = rate; }
  void SendCnp(CcFlow& f) override;

  size_t control_queued() const;
  // Sender: flow `f`'s queue pair leaves by port `port` from now on (its port's link failed).
  void MoveToPort(Flow& f, uint8_t port);

  // A malfunctioning NIC (net/pause_storm.h). While holding, what arrives waits unreceived
  // (PFC frames still act on the port); Release receives it, in arrival order.
  void Hold() { holding_ = true; }
  void Release();
  size_t held() const { return held_.size(); }
  // Sends a PFC frame for `priority` (`quanta` 0: RESUME) ahead of the data, on every port.
  void SendPfcFrame(int priority, int quanta);
  Packet* NextPacket(int port, Time now, Time* wake_at);
  Time NextReadyTime(int port, Time now) const;

 private:
  enum Kind : uint32_t { kRto = 1 };
  struct PacerEntry {
    Time time;
    uint32_t flow;
    bool operator>(const PacerEntry& o) const {
      return time > o.time || (time == o.time && flow > o.flow);
    }
  };

  // One port's scheduler: what it sends next.
  struct PortQueues {
    std::unique_ptr<NicPort> port;
    Ring<Packet*> control;                             // ACK, NACK, CNP: strict priority
    std::array<Ring<uint32_t>, kNumPriorities> ready;  // flows eligible now, per class
    std::priority_queue<PacerEntry, std::vector<PacerEntry>, std::greater<>> pacer;
    int rr_next = 1;
    uint32_t ready_mask = 0;  // bit q set: ready[q] is not empty
  };
  PortQueues& QueuesOf(const Flow& f) { return ports_[f.nic_port]; }

  void Activate(Flow& f);
  void MakeReady(Flow& f);  // eligible to send now: into its class's ready ring
  // A packet of `f` from the pool, counted among the flow's packets out.
  Packet* NewPacket(PacketType type, Flow& f);
  Packet* MakeDataPacket(Flow& f, Time now);
  // An ACK, NACK or CNP of `f`; an ACK or NACK answers the data packet `data`, whose mark,
  // time stamp and telemetry it echoes.
  void SendControl(PacketType type, Flow& f, uint32_t psn, Packet* data = nullptr);
  void ReceiveAck(Flow& f, Packet* p);
  // Hands an ACK or NAK to ACK-driven congestion control.
  void RunAckCc(Flow& f, const Packet* p, bool nack);
  // The flow may not send: its bytes in flight reached its window.
  bool WindowBound(const Flow& f) const;
  void OnAckProgress(Flow& f, uint32_t acked);
  void ArmRto(Flow& f);
  void ReceiveData(Flow& f, Packet* p);
  // A data packet ahead of the one expected, as host.reorder says (out of line: the in-order
  // path stays as small as it was).
  void ReceiveAhead(Flow& f, Packet* p);
  // A data packet ahead of the one expected, kept (host.reorder selective or placement): false
  // when it was there already.
  bool Place(Flow& f, uint32_t psn);
  // Takes the packets placed from rcv_nxt on as delivered; true if any were.
  bool DeliverPlaced(Flow& f);
  // Accepts PSN rcv_nxt (`payload` bytes).
  void DeliverNext(Flow& f, Bytes payload);
  // The sender has something to send: new data, or a PSN a selective NACK asked for.
  static bool HasToSend(const Flow& f) {
    return !f.sender_done && (f.snd_nxt < f.total_packets || f.resend_psn != Flow::kNoResend);
  }
  // ... and may send it now: its window holds new data back, not a resend (an ACK re-activates
  // a flow its window holds).
  bool MaySend(const Flow& f) const {
    return HasToSend(f) && (f.resend_psn != Flow::kNoResend || !WindowBound(f));
  }
  // The transfer whose congestion-control state acts for `f`: the newest of its connection.
  Flow& CcOwner(Flow& f);
  // The bytes in flight of the transfers before `f` on its connection.
  Bytes EarlierInFlight(const Flow& f) const;

  Simulator* sim_;
  NetStats* stats_;
  PacketPool* pool_;
  HostConfig config_;
  WireFormat wire_;
  FlowTable* flows_;
  bool pause_until_resume_;
  bool holding_ = false;  // a pause storm: see Hold
  int host_id_;
  std::vector<PortQueues> ports_;
  std::unique_ptr<CongestionControl> cc_;
  CcNeeds needs_;
  std::function<void(Flow&)> on_flow_done_;
  std::function<void(Flow&)> on_flow_delivered_;
  std::function<void(Flow&)> on_flow_sent_;
  // The connections this NIC sends on (by their first transfer's id): the newest transfer,
  // which owns the congestion-control state, and the earlier ones with bytes still unacknowledged.
  struct Connection {
    uint32_t newest;
    std::vector<uint32_t> earlier;
  };
  std::unordered_map<uint32_t, Connection> connections_;
  std::vector<std::pair<Packet*, int>> held_;  // and the port each came in on
  // Receiver: per flow with packets placed ahead of rcv_nxt, a bitmap by PSN (host.reorder
  // selective or placement); a flow leaves it when its holes are filled.
  struct Placed {
    std::vector<uint64_t> bits;
    uint32_t count = 0;  // bits set: packets placed beyond rcv_nxt
  };
  std::unordered_map<uint32_t, Placed> placed_;
};

}  // namespace dcqcn
