// RDMA NIC: QP scheduling and pacing, RC transport, PFC and congestion-control hooks.
#include "net/rdma_nic.h"

#include <algorithm>

#include "net/headers.h"
#include "net/pfc_frame.h"
#include "net/round_robin.h"

namespace dcqcn {

Packet* NicPort::NextPacket(Time now, Time* wake_at) {
  return nic_->NextPacket(index(), now, wake_at);
}
Time NicPort::NextReadyTime(Time now) const { return nic_->NextReadyTime(index(), now); }

bool RdmaNic::WindowBound(const Flow& f) const {
  if (f.window == 0) return false;
  Bytes window = f.window;
  if (config_.window_scales_with_rate) {
    // As HPCC ns-3's GetWin: an integer share of the window, at least one byte.
    window = static_cast<Bytes>(static_cast<__int128>(f.window) * f.rate / f.line_rate);
    if (window == 0) window = 1;
  }
  Bytes in_flight = f.BytesBefore(f.snd_nxt, config_.mtu) - f.BytesBefore(f.snd_una, config_.mtu);
  if (f.connection != Flow::kNoConnection) in_flight += EarlierInFlight(f);
  return in_flight >= window;
}

Bytes RdmaNic::EarlierInFlight(const Flow& f) const {
  // A transfer handed over is itself an earlier one: the newest counts it.
  if (f.handed_over) return 0;
  const auto it = connections_.find(f.connection);
  if (it == connections_.end()) return 0;
  Bytes sum = 0;
  for (const uint32_t id : it->second.earlier) {
    const Flow* e = flows_->find(id);
    if (e != nullptr && !e->sender_done) {
      sum += e->BytesBefore(e->snd_nxt, config_.mtu) - e->BytesBefore(e->snd_una, config_.mtu);
    }
  }
  return sum;
}

Flow& RdmaNic::CcOwner(Flow& f) {
  if (!f.handed_over) return f;
  const auto it = connections_.find(f.connection);
  Flow* newest = it == connections_.end() ? nullptr : flows_->find(it->second.newest);
  return newest != nullptr ? *newest : f;
}

void RdmaNic::EndConnection(const Flow& f) {
  const auto it = connections_.find(f.connection);
  if (it != connections_.end() && it->second.newest == f.id) connections_.erase(it);
}

Time RdmaNic::NextReadyTime(int port, Time now) const {
  const PortQueues& q = ports_[port];
  if (!q.control.empty()) return now;
  if (q.ready_mask != 0) return now;
  return q.pacer.empty() ? kTimeNever : q.pacer.top().time;
}

size_t RdmaNic::control_queued() const {
  size_t n = 0;
  for (const PortQueues& q : ports_) n += q.control.size();
  return n;
}

NicPort& RdmaNic::AddPort() {
  const int index = static_cast<int>(ports_.size());
  ports_.emplace_back();
  ports_.back().port = std::make_unique<NicPort>(sim_, stats_, this, host_id_, index);
  return *ports_.back().port;
}

RdmaNic::RdmaNic(Simulator* sim, NetStats* stats, PacketPool* pool, const HostConfig& config,
                 int host_id, FlowTable* flows, bool pause_until_resume, const WireFormat& wire)
    : sim_(sim),
      stats_(stats),
      pool_(pool),
      config_(config),
      wire_(wire),
      flows_(flows),
      pause_until_resume_(pause_until_resume),
      host_id_(host_id) {
  sim->Enroll(*this);
  AddPort();
}

void RdmaNic::StartFlow(Flow& f) {
  f.line_rate = port(f.nic_port).rate();
  f.next_avail = sim_->Now();
  const auto [it, fresh] = f.connection == Flow::kNoConnection
                               ? std::pair{connections_.end(), true}
                               : connections_.try_emplace(f.connection, Connection{f.id, {}});
  if (fresh) {
    cc_->OnFlowStart(f);
    Activate(f);
    return;
  }
  // The next transfer on a queue pair: it continues the pacing, byte stream and congestion
  // state of the one before, which stayed in flight (awaiting_successor) until now.
  Connection& c = it->second;
  Flow& before = (*flows_)[c.newest];
  f.stream_offset = before.stream_offset + before.size;
  f.next_avail = std::max(f.next_avail, before.next_avail);
  f.last_tx = before.last_tx;
  f.last_frame = before.last_frame;
  before.awaiting_successor = false;
  before.handed_over = true;
  if (!before.sender_done) c.earlier.push_back(before.id);
  c.newest = f.id;
  cc_->OnFlowContinue(before, f);
  Activate(f);
}

void RdmaNic::HandleEvent(uint32_t kind, uint64_t arg) {
  Flow* flow = flows_->find(static_cast<uint32_t>(arg));
  if (flow == nullptr) return;  // retired: it was done
  Flow& f = *flow;
  // Retransmission timer: the deadline moves with ACK progress, so re-arm if it moved.
  f.rto_timer_pending = false;
  if (f.sender_done || f.snd_una == f.snd_nxt) return;
  if (sim_->Now() < f.rto_deadline) {
    ArmRto(f);
    return;
  }
  ++stats_->timeouts;
  f.snd_nxt = f.snd_una;  // go back N
  f.rto_deadline = sim_->Now() + config_.rto;
  ArmRto(f);
  Activate(f);
}

void RdmaNic::ArmRto(Flow& f) {
  if (f.rto_timer_pending) return;
  f.rto_timer_pending = true;
  sim_->Schedule(f.rto_deadline, this, kRto, f.id);
}

void RdmaNic::Activate(Flow& f) {
  if (f.sched != Flow::kIdle || !MaySend(f)) return;
  Time now = sim_->Now();
  PortQueues& q = QueuesOf(f);
  if (f.next_avail <= now) {
    MakeReady(f);
  } else {
    f.sched = Flow::kPacing;
    q.pacer.push({f.next_avail, f.id});
  }
  q.port->Kick();
}

void RdmaNic::MoveToPort(Flow& f, uint8_t port) {
  if (f.nic_port == port) return;
  if (f.sched == Flow::kReady) {
    // Out of the old port's ready ring. (An entry in its pacer may stay: whichever port's pacer
    // takes it first makes it ready on the new port, whose own entry wakes it at that time.)
    PortQueues& old = ports_[f.nic_port];
    Ring<uint32_t>& ring = old.ready[f.priority];
    for (size_t n = ring.size(); n > 0; --n) {
      const uint32_t id = ring.pop_front();
      if (id != f.id) ring.push_back(id);
    }
    if (ring.empty()) old.ready_mask &= ~(1u << f.priority);
  }
  f.nic_port = port;
  f.sched = Flow::kIdle;
  Activate(f);
}

void RdmaNic::MakeReady(Flow& f) {
  f.sched = Flow::kReady;
  PortQueues& q = QueuesOf(f);
  q.ready[f.priority].push_back(f.id);
  q.ready_mask |= 1u << f.priority;
}

void RdmaNic::SetRate(CcFlow& cc_flow, Rate rate) {
  Flow& f = static_cast<Flow&>(cc_flow);
  f.rate = rate;
  if (f.sched != Flow::kPacing || f.last_frame == 0) return;
  // Re-time the pending departure from the last one at the new rate; the old heap entry
  // becomes stale (its time no longer matches next_avail). The last one is the packet that
  // left last, not PSN snd_nxt - 1: go-back-N may have moved snd_nxt back since.
  Time t = std::max(sim_->Now(), f.last_tx + wire_.TxTime(f.last_frame, rate));
  if (t == f.next_avail) return;
  f.next_avail = t;
  PortQueues& q = QueuesOf(f);
  q.pacer.push({t, f.id});
  q.port->Kick();
}

Packet* RdmaNic::NextPacket(int port_index, Time now, Time* wake_at) {
  PortQueues& queues = ports_[port_index];
  const NicPort& port = *queues.port;
  if (!queues.control.empty()) {
    // With pause_acks, the ACK queue waits while its head's data class is paused (as HPCC
    // ns-3's NIC, whose one ACK queue obeys the pause of one class).
    if (!config_.pause_acks) return queues.control.pop_front();
    const Packet* head = queues.control.front();
    if (head->type == PacketType::kCnp || head->type == PacketType::kPause) {
      return queues.control.pop_front();
    }
    const int cls = (*flows_)[head->flow].priority;
    if (!port.paused(cls)) return queues.control.pop_front();
    *wake_at = std::min(*wake_at, port.paused_until(cls));
  }
  while (!queues.pacer.empty() && queues.pacer.top().time <= now) {
    PacerEntry e = queues.pacer.top();
    queues.pacer.pop();
    Flow* f = flows_->find(e.flow);
    if (f == nullptr || f->sched != Flow::kPacing || f->next_avail != e.time)
      continue;  // stale entry
    MakeReady(*f);
  }
  Flow* chosen = nullptr;
  int q = RoundRobin(queues.ready_mask, queues.rr_next, [&](int q) {
    if (port.paused(q)) {
      *wake_at = std::min(*wake_at, port.paused_until(q));
      return false;
    }
    Ring<uint32_t>& ring = queues.ready[q];
    while (!ring.empty() && chosen == nullptr) {
      Flow& f = (*flows_)[ring.pop_front()];
      f.sched = Flow::kIdle;
      // Else finished, acknowledged, or held by its window until an ACK.
      if (MaySend(f)) chosen = &f;
    }
    if (ring.empty()) queues.ready_mask &= ~(1u << q);
    return chosen != nullptr;
  });
  if (chosen != nullptr) {
    queues.rr_next = RoundRobinAfter(q);
    return MakeDataPacket(*chosen, now);
  }
  if (!queues.pacer.empty()) *wake_at = std::min(*wake_at, queues.pacer.top().time);
  return nullptr;
}

Packet* RdmaNic::NewPacket(PacketType type, Flow& f) {
  Packet* p = pool_->Allocate();
  p->type = type;
  p->flow = f.id;
  // Data comes from the flow's sender, ACK, NACK and CNP from its receiver.
  ++(type == PacketType::kData ? f.sender_packets : f.receiver_packets);
  return p;
}

Packet* RdmaNic::MakeDataPacket(Flow& f, Time now) {
  Packet* p = NewPacket(PacketType::kData, f);
  // A PSN a selective NACK asked for goes first; it leaves snd_nxt where it is.
  const bool resend = f.resend_psn != Flow::kNoResend;
  p->psn = resend ? f.resend_psn : f.snd_nxt;
  f.resend_psn = Flow::kNoResend;
  p->payload = static_cast<uint32_t>(f.PayloadOf(p->psn, config_.mtu));
  p->size = static_cast<uint32_t>(wire_.DataFrame(p->payload));
  p->src = f.src;
  p->dst = f.dst;
  p->sport = f.sport;
  p->priority = f.priority;
  if (needs_.timestamps || needs_.telemetry) {
    p->cc_header = pool_->NewCcHeader();
    pool_->cc_header(p->cc_header).sent_at = now;
  }
  ++stats_->data_packets_sent;
  stats_->payload_sent += p->payload;
  if (resend || f.snd_nxt < f.high_psn) {
    ++stats_->retransmitted_packets;
  } else {
    f.high_psn = f.snd_nxt + 1;
    if (f.high_psn == f.total_packets && f.awaiting_successor && on_flow_sent_) on_flow_sent_(f);
  }
  if (!resend) {
    if (f.snd_una == f.snd_nxt) f.rto_deadline = now + config_.rto;
    ++f.snd_nxt;
  }
  ArmRto(f);
  // Pace: the next packet may leave one packet time at rate Rc after this one starts.
  f.last_tx = now;
  f.last_frame = p->size;
  f.next_avail = now + wire_.TxTime(p->size, f.rate);
  cc_->OnPacketSent(CcOwner(f), p->size);
  if (MaySend(f)) {
    f.sched = Flow::kPacing;
    QueuesOf(f).pacer.push({f.next_avail, f.id});
  }
  return p;
}

void RdmaNic::SendControl(PacketType type, Flow& f, uint32_t psn, Packet* data) {
  // As in HPCC, only a packet that triggers an ACK can report its mark on it.
  const bool cnp_flag = data != nullptr && needs_.cnp_on_ack && data->ce;
  if (cnp_flag) ++stats_->cnps_sent;
  Packet* p = NewPacket(type, f);
  p->psn = psn;
  p->size = static_cast<uint32_t>(type == PacketType::kCnp ? wire_.cnp_frame : wire_.ack_frame);
  p->src = f.dst;  // from the receiver back to the sender
  p->dst = f.src;
  p->sport = f.sport;
  p->priority = type != PacketType::kCnp && config_.ack_in_data_class ? f.priority : kControlQueue;
  p->cnp_flag = cnp_flag;
  if (data != nullptr && data->cc_header != 0) {
    p->cc_header = data->cc_header;  // the ACK takes the header over
    data->cc_header = 0;
  }
  // The receiver answers on the port the flow's data comes in on.
  PortQueues& q = ports_[f.reply_port];
  q.control.push_back(p);
  q.port->Kick();
}

void RdmaNic::Release() {
  holding_ = false;
  std::vector<std::pair<Packet*, int>> held;
  held.swap(held_);
  for (const auto& [p, port] : held) Receive(p, port);
}

void RdmaNic::SendPfcFrame(int priority, int quanta) {
  for (PortQueues& q : ports_) {
    q.control.push_back(NewPfcFrame(*pool_, *stats_, priority, quanta, q.port->pause_hops()));
    q.port->Kick();
  }
}

void RdmaNic::SendCnp(CcFlow& cc_flow) {
  ++stats_->cnps_sent;
  SendControl(PacketType::kCnp, static_cast<Flow&>(cc_flow), 0);
}

void RdmaNic::Receive(Packet* p, int port_index) {
  if (p->type == PacketType::kPause) {
    port(port_index)
        .OnPauseFrame(p->pause_class, p->pause_quanta, pause_until_resume_, p->switch_hops);
    pool_->Free(p);
    return;
  }
  if (holding_) [[unlikely]] {
    held_.emplace_back(p, port_index);
    return;
  }
  Flow& f = (*flows_)[p->flow];  // in flight: this packet is one of its packets out
  --(p->type == PacketType::kData ? f.receiver_packets : f.sender_packets);
  switch (p->type) {
    case PacketType::kData:
      f.reply_port = static_cast<uint8_t>(port_index);
      ReceiveData(f, p);
      break;
    case PacketType::kAck:
    case PacketType::kNack:
      ReceiveAck(f, p);
      break;
    case PacketType::kCnp:
      ++stats_->cnps_received;
      cc_->OnCnp(CcOwner(f));
      break;
    case PacketType::kPause:  // handled above
      break;
  }
  pool_->Free(p);
}

void RdmaNic::ReceiveAck(Flow& f, Packet* p) {
  if (p->cnp_flag) {
    ++stats_->cnps_received;
    cc_->OnCnp(CcOwner(f));
  }
  OnAckProgress(f, p->psn);
  const bool nack = p->type == PacketType::kNack;
  if (nack && f.snd_nxt > p->psn && !f.sender_done) {
    if (config_.reorder == HostConfig::Reorder::kSelective) {
      f.resend_psn = p->psn;  // only the PSN asked for; new data follows it
    } else {
      f.snd_nxt = p->psn;  // go back N
    }
    Activate(f);
  }
  // ACK-driven congestion control runs last, as in HPCC ns-3's ReceiveAck.
  // (On a connection, the newest transfer's: an earlier one's last ACK still counts.)
  if (needs_.acks && !CcOwner(f).sender_done) RunAckCc(f, p, nack);
  if (f.window != 0) {
    // The ACK, or the rate it set, may have opened the window (the connection's).
    Activate(f);
    if (f.handed_over) Activate(CcOwner(f));
  }
}

void RdmaNic::RunAckCc(Flow& f, const Packet* p, bool nack) {
  // In the connection's byte stream: one sequence over its transfers.
  Flow& owner = CcOwner(f);
  AckEvent ack;
  ack.acked = f.stream_offset + f.BytesBefore(p->psn, config_.mtu);
  ack.sent = owner.stream_offset + owner.BytesBefore(owner.snd_nxt, config_.mtu);
  ack.echo = p->cnp_flag;
  ack.nack = nack;
  if (p->cc_header != 0) {
    const CcHeader& header = pool_->cc_header(p->cc_header);
    if (needs_.timestamps) ack.rtt = sim_->Now() - header.sent_at;
    if (needs_.telemetry) ack.telemetry = &header.telemetry;
  }
  cc_->OnAck(owner, ack);
}

void RdmaNic::OnAckProgress(Flow& f, uint32_t acked) {
  if (acked <= f.snd_una || f.sender_done) return;
  f.snd_una = acked;
  if (f.resend_psn != Flow::kNoResend && f.resend_psn < acked) f.resend_psn = Flow::kNoResend;
  if (f.snd_nxt < acked) f.snd_nxt = acked;
  f.rto_deadline = sim_->Now() + config_.rto;
  if (f.snd_una >= f.total_packets) {
    f.sender_done = true;
    f.finish = sim_->Now();
    if (f.handed_over) {
      if (const auto it = connections_.find(f.connection); it != connections_.end()) {
        std::erase(it->second.earlier, f.id);
      }
    }
    // A connection's state lives on while a later transfer may come (and the newest owns it).
    if (!f.awaiting_successor && !f.handed_over) cc_->OnFlowDone(f);
    if (on_flow_done_) on_flow_done_(f);
  }
}

void RdmaNic::DeliverNext(Flow& f, Bytes payload) {
  ++f.rcv_nxt;
  f.bytes_delivered += payload;
  stats_->payload_delivered += payload;
}

[[gnu::noinline]] bool RdmaNic::Place(Flow& f, uint32_t psn) {
  Placed& placed = placed_[f.id];
  if (placed.bits.empty()) placed.bits.assign((f.total_packets + 63) / 64, 0);
  uint64_t& word = placed.bits[psn / 64];
  const uint64_t bit = uint64_t{1} << (psn % 64);
  if ((word & bit) != 0) return false;
  word |= bit;
  ++placed.count;
  return true;
}

[[gnu::noinline]] bool RdmaNic::DeliverPlaced(Flow& f) {
  const auto it = placed_.find(f.id);
  if (it == placed_.end()) return false;
  Placed& placed = it->second;
  bool any = false;
  while (f.rcv_nxt < f.total_packets &&
         (placed.bits[f.rcv_nxt / 64] >> (f.rcv_nxt % 64) & 1) != 0) {
    --placed.count;
    DeliverNext(f, f.PayloadOf(f.rcv_nxt, config_.mtu));
    any = true;
  }
  if (placed.count == 0) placed_.erase(it);  // no hole left
  return any;
}

[[gnu::noinline]] void RdmaNic::ReceiveAhead(Flow& f, Packet* p) {
  using Reorder = HostConfig::Reorder;
  ++stats_->out_of_order_packets;
  const bool keep = config_.reorder == Reorder::kPlacement ||
                    (config_.reorder == Reorder::kSelective &&
                     p->psn - f.rcv_nxt < static_cast<uint32_t>(config_.reorder_window));
  if (keep && !Place(f, p->psn)) ++stats_->duplicate_packets;
  if (config_.reorder == Reorder::kPlacement) {
    // Placed: the ACK clock keeps its interval, with the cumulative PSN unchanged.
    if (++f.since_ack >= static_cast<uint32_t>(config_.ack_interval)) {
      f.since_ack = 0;
      SendControl(PacketType::kAck, f, f.rcv_nxt, p);
    }
  } else if (!f.nack_pending) {
    f.nack_pending = true;
    ++stats_->nacks;
    SendControl(PacketType::kNack, f, f.rcv_nxt, p);
  }
}

void RdmaNic::ReceiveData(Flow& f, Packet* p) {
  stats_->payload_received += p->payload;
  cc_->OnDataArrival(f, p->ce);
  using Reorder = HostConfig::Reorder;
  if (p->psn == f.rcv_nxt) [[likely]] {
    DeliverNext(f, p->payload);
    f.nack_pending = false;
    // A filled hole releases what was placed behind it: acknowledged at once; with selective
    // repeat, a hole still open behind placed packets is NACKed at once. (Go-back-N places
    // nothing: placed_ stays empty.)
    bool released = false;
    bool hole_behind = false;
    if (!placed_.empty()) [[unlikely]] {
      released = DeliverPlaced(f);
      hole_behind = config_.reorder == Reorder::kSelective && placed_.count(f.id) != 0;
    }
    if (++f.since_ack >= static_cast<uint32_t>(config_.ack_interval) || released ||
        f.rcv_nxt == f.total_packets) {
      f.since_ack = 0;
      SendControl(PacketType::kAck, f, f.rcv_nxt, p);
    }
    if (hole_behind) {
      f.nack_pending = true;
      ++stats_->nacks;
      SendControl(PacketType::kNack, f, f.rcv_nxt, nullptr);
    }
    if (f.rcv_nxt == f.total_packets && on_flow_delivered_) on_flow_delivered_(f);
  } else if (p->psn > f.rcv_nxt) {
    ReceiveAhead(f, p);
  } else {
    ++stats_->duplicate_packets;
    SendControl(PacketType::kAck, f, f.rcv_nxt, p);  // duplicate: re-acknowledge
  }
}

}  // namespace dcqcn
