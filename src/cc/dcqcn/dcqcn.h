// DCQCN on a NIC: the reaction point of every flow it sends and the notification point of every
// flow it receives, driving the pure state machines (DcqcnRp, DcqcnNp) from the simulator with
// at most one pending event per flow and role, and the NIC's CNP generator: one server shared by
// all its flows, which takes cnp_service_time per CNP and serves due CNPs first come, first
// served (0 = unlimited: a CNP leaves when it is due). State is created only for flows that
// need it and released when they retire; a slot's generation tells a released slot's pending
// timer from its new flow's.
#pragma once

#include <memory>
#include <vector>

#include "cc/cc_algorithm.h"
#include "cc/congestion_control.h"
#include "cc/dcqcn/dcqcn_np.h"
#include "cc/dcqcn/dcqcn_params.h"
#include "cc/dcqcn/dcqcn_rp.h"
#include "core/simulator.h"

namespace dcqcn {

class DcqcnCc : public CongestionControl, public EventHandler {
 public:
  DcqcnCc(const CcEnv& env, const DcqcnParams* params)
      : sim_(env.sim), host_(env.host), p_(params) {
    sim_->Enroll(*this);
  }
  // With cnp_on_ack (HPCC's DCQCN) the receiver reports marks as a bit on the ACK.
  static CcNeeds Needs(const DcqcnParams& p) { return {.cnp_on_ack = p.cnp_on_ack}; }
  // The counters summary.json shows under "cc", by their index.
  enum Counter : size_t {
    kRateCuts,
    kFastRecovery,
    kAdditiveIncrease,
    kHyperIncrease,
    kTimerEvents,
    kByteCounterEvents,
    kFlowsWithState,
    kCnpsDelayed,
    kCnpWaitTotal,
    kCnpWaitMax,
    kCnpQueueMax,
    kCnpMarksCoalesced,
  };
  static const CcCounterSpec kCounters[12];

  void OnFlowStart(CcFlow& f) override { host_->SetRate(f, f.line_rate); }
  void OnFlowContinue(CcFlow& from, CcFlow& to) override;
  void OnPacketSent(CcFlow& f, Bytes bytes) override;
  void OnCnp(CcFlow& f) override;
  void OnFlowDone(CcFlow& f) override;
  void OnDataArrival(CcFlow& f, bool ce) override;
  RateSample Sample(const CcFlow& f) const override;
  CcCounters counters() const override;
  bool ReceiverIdle(const CcFlow& f) const override;
  void ReleaseSender(CcFlow& f) override;
  void ReleaseReceiver(CcFlow& f) override;

  void HandleEvent(uint32_t kind, uint64_t arg) override;

 private:
  enum Kind : uint32_t { kRpTimer = 0, kNpTimer = 1, kCnpGenerated = 2 };
  struct RpSlot {
    DcqcnRp rp;
    CcFlow* flow;       // nullptr: released
    Time scheduled_at;  // the pending event that is live; others are stale
    uint32_t generation = 0;
    uint32_t next_free = UINT32_MAX;  // released: the next released slot
  };
  struct NpSlot {
    DcqcnNp np;
    CcFlow* flow;
    Time scheduled_at;
    Time cnp_due = 0;  // when its CNP waiting for the generator became due
    uint32_t generation = 0;
    uint32_t next_free = UINT32_MAX;
  };
  // A timer event's argument: the slot and its generation when scheduled.
  template <class Slot>
  static uint64_t TimerArg(uint32_t slot, const Slot& s) {
    return slot | static_cast<uint64_t>(s.generation) << 32;
  }
  // A slot holding `fresh`: the first released one (the list from `free_head` on, linked
  // through next_free), or a new one.
  template <class Slot>
  static uint32_t NewSlot(std::vector<Slot>& slots, uint32_t& free_head, Slot fresh);
  template <class Slot>
  static void FreeSlot(std::vector<Slot>& slots, uint32_t& free_head, uint32_t slot);
  // The CNP generator's counts and those of released RPs.
  struct Counts {
    DcqcnRpCounters rp;
    uint64_t flows_with_state = 0;  // RPs released
    uint64_t cnps_delayed = 0;
    Time cnp_wait_total = 0;
    Time cnp_wait_max = 0;
    uint64_t cnp_queue_max = 0;
    uint64_t cnp_marks_coalesced = 0;
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
  uint32_t free_rps_ = UINT32_MAX;  // the first released slot of rps_
  uint32_t free_nps_ = UINT32_MAX;
  // NP slots with a CNP due, in the order they became due, from cnp_head_ on (at most one per
  // slot); the head is in service and leaves at the pending kCnpGenerated event. Only used
  // when cnp_service_time > 0, so it allocates nothing otherwise.
  std::vector<uint32_t> cnp_queue_;
  size_t cnp_head_ = 0;
  // One per NIC of a 65,536-host fabric: kept in one struct.
  Counts counts_;
};

}  // namespace dcqcn
