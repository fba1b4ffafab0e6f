// A NIC's pause storm: begin, refresh, recovery.
#include "net/pause_storm.h"

#include <algorithm>
#include <utility>

#include "net/headers.h"

namespace dcqcn {

// The longest pause 802.1Qbb allows: what a stuck NIC's hardware sends (SIGCOMM'16 4.3).
constexpr int kStormQuanta = 65535;

PauseStorm::PauseStorm(Simulator* sim, RdmaNic* nic, Time at, Time until, std::vector<int> classes)
    : sim_(sim), nic_(nic), until_(until), classes_(std::move(classes)) {
  sim->Enroll(*this);
  Simulator::ActingAs as(*sim, *this);
  sim->Schedule(at, this, kBegin, 0);
  sim->Schedule(until, this, kEnd, 0);
}

void PauseStorm::Pause() {
  for (int c : classes_) nic_->SendPfcFrame(c, kStormQuanta);
  // Refreshed at half its time, as switches refresh theirs: the pause never lapses (on the
  // fastest port, whose quanta are the shortest, either).
  Rate fastest = 0;
  for (int p = 0; p < nic_->num_ports(); ++p) fastest = std::max(fastest, nic_->port(p).rate());
  const Time refresh = sim_->Now() + PauseQuantaToTime(kStormQuanta, fastest) / 2;
  if (refresh < until_) sim_->Schedule(refresh, this, kRefresh, 0);
}

void PauseStorm::HandleEvent(uint32_t kind, uint64_t) {
  switch (kind) {
    case kBegin:
      nic_->Hold();
      Pause();
      break;
    case kRefresh:
      Pause();
      break;
    case kEnd:
      for (int c : classes_) nic_->SendPfcFrame(c, 0);
      nic_->Release();
      break;
    default:
      break;
  }
}

}  // namespace dcqcn
