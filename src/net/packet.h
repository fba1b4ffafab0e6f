// A compact packet record and the pool that recycles them: nothing is allocated per packet
// in steady state.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "cc/int_telemetry.h"
#include "core/error.h"
#include "core/units.h"

namespace dcqcn {

enum class PacketType : uint8_t { kData, kAck, kNack, kCnp, kPause };

// One cache line, aligned: a packet is touched on every hop, and the run loop fetches that line
// before its arrival.
struct alignas(64) Packet {
  uint32_t flow = 0;     // flow id (not used by PAUSE)
  uint32_t psn = 0;      // DATA: its sequence number; ACK/NACK: next expected PSN
  uint32_t size = 0;     // frame bytes (buffer accounting); wire time adds preamble and gap
  uint32_t payload = 0;  // DATA payload bytes
  int32_t src = 0;       // source host
  int32_t dst = 0;       // destination host
  uint16_t sport = 0;    // UDP source port: per-flow entropy for ECMP
  uint16_t in_port = 0;  // ingress port at the switch currently holding the packet
  PacketType type = PacketType::kData;
  uint8_t priority = 0;   // egress queue: data class 1..7, or kControlQueue
  bool ce = false;        // ECN congestion experienced
  bool cnp_flag = false;  // ACK carries a congestion notification (HPCC-style NP)
  // Switches it has passed (its place in Flow::route_cache); on a PAUSE frame, how far PAUSE
  // has spread: 1 from a node nothing paused, else 1 + the sender's PausedHops.
  uint8_t switch_hops = 0;
  uint8_t pause_class = 0;    // PAUSE: the priority it pauses
  uint16_t pause_quanta = 0;  // PAUSE: 0 = resume
  // Only for congestion control that asks for one (CcNeeds): DATA's congestion-control header
  // in the pool (send time, telemetry), handed on to its ACK; 0 = none. Kept out of the packet
  // so that algorithms without it pay nothing per packet.
  uint32_t cc_header = 0;
  // On a link (Link): the packet sent after this one, while both are in flight, and its arrival
  // time. The link's next arrival is read from the packet arriving now, whose line the run loop
  // has fetched, instead of from a queue of its own a cache miss away.
  Packet* next_on_link = nullptr;
  Time next_arrival = 0;
};

static_assert(sizeof(Packet) == 64, "a packet in flight is touched on every hop: one line");
static_assert(alignof(Packet) == 64, "aligned: its one line is never parts of two");

// What TIMELY's and HPCC's data packets carry for them, echoed on the ACK.
struct CcHeader {
  Time sent_at = 0;  // when the sender's NIC sent the data packet (time stamps)
  IntStack telemetry;
};

// Congestion-control headers, in chunks that never move: the pools of a run split over threads
// share one store, since a header allocated by one thread's pool is read by and freed into
// another's (each pool keeps its own free indices, so the store only hands out chunks).
class CcHeaderStore {
 public:
  static constexpr int kChunkBits = 12;
  static constexpr uint32_t kMaxChunks = 1 << 14;  // 2^26 headers in flight
  CcHeaderStore() : chunks_(kMaxChunks) {}
  CcHeader& operator[](uint32_t i) { return chunks_[i >> kChunkBits][i & kIndexMask]; }
  // A new chunk's indices, [first, first + kChunkSize); index 0 (none) is never handed out.
  uint32_t NewChunk() {
    const uint32_t c = next_chunk_.fetch_add(1, std::memory_order_relaxed);
    if (c >= kMaxChunks)
      throw InvariantError("more than 2^26 congestion-control headers in flight");
    chunks_[c] = std::make_unique<CcHeader[]>(kChunkSize);
    return c << kChunkBits;
  }
  static constexpr uint32_t kChunkSize = uint32_t{1} << kChunkBits;

 private:
  static constexpr uint32_t kIndexMask = kChunkSize - 1;
  std::vector<std::unique_ptr<CcHeader[]>> chunks_;  // sized once: never reallocated
  std::atomic<uint32_t> next_chunk_{0};
};

// Packets for one event loop (one thread of a split run, or the whole run). A packet may be freed
// into another loop's pool than the one it came from: pools only recycle.
class PacketPool {
 public:
  // `headers` may be shared with other pools; null: a store of its own.
  explicit PacketPool(CcHeaderStore* headers = nullptr)
      : own_headers_(headers == nullptr ? std::make_unique<CcHeaderStore>() : nullptr),
        headers_(headers == nullptr ? own_headers_.get() : headers) {}
  Packet* Allocate() {
    if (free_.empty()) Grow();
    Packet* p = free_.back();
    free_.pop_back();
    *p = Packet{};
    ++live_;
    return p;
  }
  void Free(Packet* p) {
    if (p->cc_header != 0) free_headers_.push_back(p->cc_header);
    free_.push_back(p);
    --live_;
  }
  // An empty congestion-control header for a data packet; it returns to the pool with the
  // packet that holds it last.
  uint32_t NewCcHeader() {
    if (free_headers_.empty()) {
      const uint32_t first = headers_->NewChunk();
      for (uint32_t i = first + CcHeaderStore::kChunkSize; i-- > first;) {
        if (i != 0) free_headers_.push_back(i);
      }
    }
    const uint32_t i = free_headers_.back();
    free_headers_.pop_back();
    (*headers_)[i].telemetry.nhop = 0;
    return i;
  }
  CcHeader& cc_header(uint32_t i) { return (*headers_)[i]; }
  // Packets handed out and not yet returned: in queues, on links or in a handler. (In a split
  // run, per pool: only the sum over the pools counts packets.)
  int64_t live() const { return live_; }

 private:
  void Grow() {
    constexpr size_t kChunk = 4096;
    chunks_.push_back(std::make_unique<Packet[]>(kChunk));
    Packet* c = chunks_.back().get();
    for (size_t i = kChunk; i-- > 0;) free_.push_back(&c[i]);
  }
  std::vector<std::unique_ptr<Packet[]>> chunks_;
  std::vector<Packet*> free_;
  int64_t live_ = 0;
  std::unique_ptr<CcHeaderStore> own_headers_;
  CcHeaderStore* headers_;
  std::vector<uint32_t> free_headers_;
};

}  // namespace dcqcn
