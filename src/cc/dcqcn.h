// DCQCN on a NIC: the reaction point of every flow it sends and the notification point of every
// flow it receives, driving the pure state machines (DcqcnRp, DcqcnNp) from the simulator with
// at most one pending event per flow and role, and the NIC's CNP generator: one server shared by
// all its flows, which takes cnp_service_time per CNP and serves due CNPs first come, first
// served (0 = unlimited: a CNP leaves when it is due). State is created only for flows that
// need it.
#pragma once

#include <memory>
#include <vector>

#include "cc/congestion_control.h"
#include "cc/dcqcn_np.h"
#include "cc/dcqcn_params.h"
#include "cc/dcqcn_rp.h"
#include "core/simulator.h"

namespace dcqcn {

class DcqcnCc : public CongestionControl, public EventHandler {
 public:
  DcqcnCc(Simulator* sim, CcHost* host, const DcqcnParams* params)
      : sim_(sim), host_(host), p_(params) {}

  void OnFlowStart(CcFlow& f) override { host_->SetRate(f, f.line_rate); }
  void OnPacketSent(CcFlow& f, Bytes bytes) override;
  void OnCnp(CcFlow& f) override;
  void OnFlowDone(CcFlow& f) override;
  void OnDataArrival(CcFlow& f, bool ce) override;
  RateSample Sample(const CcFlow& f) const override;
  CcCounters counters() const override;

  void HandleEvent(uint32_t kind, uint64_t slot) override;

 private:
  enum Kind : uint32_t { kRpTimer = 0, kNpTimer = 1, kCnpGenerated = 2 };
  struct RpSlot {
    DcqcnRp rp;
    CcFlow* flow;
    Time scheduled_at;  // the pending event that is live; others are stale
  };
  struct NpSlot {
    DcqcnNp np;
    CcFlow* flow;
    Time scheduled_at;
    Time cnp_due = 0;  // when its CNP waiting for the generator became due
  };
  // Hands Rc to the pacer and makes sure an event is pending at the RP's next deadline.
  void Apply(uint32_t slot);
  // The NP of `slot` has a CNP due now: send it, or queue it for the generator.
  void GenerateCnp(uint32_t slot);

  Simulator* sim_;
  CcHost* host_;
  const DcqcnParams* p_;
  std::vector<RpSlot> rps_;
  std::vector<NpSlot> nps_;
  // NP slots with a CNP due, in the order they became due, from cnp_head_ on (at most one per
  // slot); the head is in service and leaves at the pending kCnpGenerated event. Only used
  // when cnp_service_time > 0, so it allocates nothing otherwise.
  std::vector<uint32_t> cnp_queue_;
  size_t cnp_head_ = 0;
  CcCounters cnp_counters_;  // the generator's fields only
};

}  // namespace dcqcn
