// Links that fail and come back during a run ([[event]] link_down, link_up), and the switches'
// reconvergence after each.
//
// What is modelled (docs/pfc-pathologies.md): a cable that goes down loses what is on it and
// everything sent into it until it is back, both ways; neither end obeys a PAUSE sent across it
// before (the sender's pause is cleared, as a port that loses its link clears its PFC state);
// `reconvergence` after the event every switch routes by shortest paths over the links up then,
// as a routing protocol would once it has heard, and static routes keep their live next hops.
// Until then the switches keep routing into the dead link: their ports keep sending into it,
// so what is queued for it is lost at line rate rather than at once. When the cable comes back,
// each switch end PAUSEs again every class it holds paused there. Left out: the time a port
// takes to notice the loss of its link (a real port stops sending after a few ms without
// signal), and local fast reroute (switches dropping a dead port from their ECMP groups before
// the routing protocol reconverges): both come down to a shorter `reconvergence`.
#include <tuple>

#include "net/network.h"

namespace dcqcn {

void Network::LinkEvents::HandleEvent(uint32_t kind, uint64_t arg) {
  if (net_->link_events_ended_) return;
  if (kind == kApply) {
    net_->ApplyLinkEvent(net_->config_.events[arg]);
  } else {
    net_->Reconverge();
  }
}

void Network::ScheduleLinkEvents() {
  const std::vector<NetworkEvent>& events = config_.events;
  Time last_reconvergence = -1;
  for (size_t i = 0; i < events.size(); ++i) {
    if (!events[i].changes_links()) continue;
    if (link_events_ == nullptr) {
      link_events_ = std::make_unique<LinkEvents>(this);
      sim().EnrollObserver(*link_events_);
    }
    Simulator::ActingAs as(sim(), *link_events_);
    sim().Schedule(events[i].at, link_events_.get(), LinkEvents::kApply, i);
    // Events come in time order: one reconvergence per instant does for all of its events.
    const Time reconverge = events[i].at + config_.reconvergence;
    if (reconverge != last_reconvergence) {
      sim().Schedule(reconverge, link_events_.get(), LinkEvents::kReconverge, 0);
      last_reconvergence = reconverge;
    }
  }
}

void Network::ApplyLinkEvent(const NetworkEvent& e) {
  for (size_t cable : CablesOf(e, config_.topology.links)) {
    SetCableDown(cable, e.kind == NetworkEvent::Kind::kLinkDown);
  }
}

std::pair<int, int> Network::CablePorts(size_t cable) const {
  // A node's ports are numbered in the order of its cables (the constructor).
  const std::vector<LinkSpec>& links = config_.topology.links;
  const LinkSpec& l = links[cable];
  int port_a = 0;
  int port_b = 0;
  for (size_t c = 0; c < cable; ++c) {
    for (int end : {links[c].a, links[c].b}) {
      if (end == l.a) ++port_a;
      if (end == l.b) ++port_b;
    }
  }
  return {port_a, port_b};
}

void Network::SetCableDown(size_t cable, bool down) {
  const LinkSpec& l = config_.topology.links[cable];
  const auto [port_a, port_b] = CablePorts(cable);
  const int hosts = config_.topology.hosts;
  for (const auto& [from, port, to] :
       {std::tuple{l.a, port_a, l.b}, std::tuple{l.b, port_b, l.a}}) {
    // The cut stands where the packets arrive: in the receiving node's thread, freed there.
    LinkAt(from, port).receiving_half().SetDown(down, &part_of(to).pool);
    Simulator& sim = part_of(from).sim;
    if (down) {
      // What the sender was told across the link no longer holds.
      EgressPort& egress = EgressAt(from, port);
      Simulator::ActingAs as(sim, egress);
      for (int prio = 0; prio < kNumPriorities; ++prio) egress.EndPause(prio);
    } else if (from >= hosts) {
      // What the switch keeps paused, it tells the other end again.
      SwitchNode& sw = *switches_[from - hosts];
      Simulator::ActingAs as(sim, sw.port(port));
      sw.PauseAgain(port);
    }
  }
}

void Network::Reconverge() {
  // The paths of the flows in flight (started, not finished), both ways, before and after, and
  // after, whether they reach their other end.
  struct FlowPaths {
    std::vector<std::pair<int, int>> ports;
    bool reaches = true;
  };
  auto paths = [&](bool after) {
    std::vector<FlowPaths> all;
    for (uint32_t id = 0; id < num_flows(); ++id) {
      const Flow* f = flows_.find(id);
      if (f == nullptr || f->finish >= 0 || OverNvlink(id)) continue;
      FlowPaths p{PortPathOf(id, 0), !after || PathStateOf(id) == PathState::kReaches};
      const std::vector<std::pair<int, int>> back = PortPathOf(id, 1);
      p.ports.insert(p.ports.end(), back.begin(), back.end());
      all.push_back(std::move(p));
    }
    return all;
  };
  const std::vector<FlowPaths> before = paths(false);
  // A cable is down both ways at once: each port whose own link is cut leads nowhere.
  Adjacency live = adjacency_;
  for (size_t node = 0; node < live.size(); ++node) {
    for (size_t port = 0; port < live[node].size(); ++port) {
      if (PortDown(static_cast<int>(node), static_cast<int>(port))) {
        live[node][port].first = -1;
      }
    }
  }
  routes_ = ComputeRoutes(live);
  for (size_t sw = 0; sw < switches_.size(); ++sw) {
    switches_[sw]->SetRoutes(routes_.get(), static_cast<int>(sw));
  }
  // Packets in flight count their hops along the paths their flows' caches hold, which may
  // have changed: from now on every switch reads its table.
  flows_.StopRouteCaches();
  MoveOffDeadPorts();
  Reconvergence r{sim().Now(), 0, 0};
  const std::vector<FlowPaths> after = paths(true);
  for (size_t i = 0; i < after.size(); ++i) {
    if (!after[i].reaches) {
      ++r.flows_cut_off;
    } else if (after[i].ports != before[i].ports) {
      ++r.flows_rerouted;
    }
  }
  reconvergences_.push_back(r);
}

}  // namespace dcqcn
