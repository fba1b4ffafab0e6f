// DCQCN on a NIC: the reaction point of every flow it sends and the notification point of every
// flow it receives, driving the pure state machines (DcqcnRp, DcqcnNp) from the simulator with
// at most one pending event per flow and role. State is created only for flows that need it.
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

  void OnFlowStart(Flow& f) override { host_->SetRate(f, f.line_rate); }
  void OnPacketSent(Flow& f, Bytes bytes) override;
  void OnCnp(Flow& f) override;
  void OnFlowDone(Flow& f) override;
  void OnDataArrival(Flow& f, bool ce) override;
  RateSample Sample(const Flow& f) const override;
  CcCounters counters() const override;
  bool cnp_on_ack() const override { return p_->cnp_on_ack; }

  void HandleEvent(uint32_t kind, uint64_t slot) override;

 private:
  enum Kind : uint32_t { kRpTimer = 0, kNpTimer = 1 };
  struct RpSlot {
    DcqcnRp rp;
    Flow* flow;
    Time scheduled_at;  // the pending event that is live; others are stale
  };
  struct NpSlot {
    DcqcnNp np;
    Flow* flow;
    Time scheduled_at;
  };
  // Hands Rc to the pacer and makes sure an event is pending at the RP's next deadline.
  void Apply(uint32_t slot);

  Simulator* sim_;
  CcHost* host_;
  const DcqcnParams* p_;
  std::vector<RpSlot> rps_;
  std::vector<NpSlot> nps_;
};

}  // namespace dcqcn
