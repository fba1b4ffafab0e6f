#include "net/wire_keys.h"

namespace dcqcn {
namespace {

using K = KeyKind;

constexpr int64_t kMaxFrame = 65535;
constexpr std::string_view kOneFrame = "at most 65535 bytes (one frame)";

constexpr KeyRow<WireFormat> kWireKeys[] = {
    {.doc = {"data_headers", K::kValue, "size", "", "\"66B\"",
             "Bytes around every data payload: RoCEv2's Ethernet 14 + 802.1Q 4 + IPv4 20 + UDP 8 "
             "+ BTH 12 + ICRC 4 + FCS 4. HPCC ns-3: 48 (PPP 14, IPv4 20, UDP 8, SeqTs 6)."},
     .field = &WireFormat::data_headers,
     .max = kMaxFrame,
     .expected = kOneFrame},
    {.doc = {"ack_frame", K::kValue, "size", "", "\"70B\"",
             "Bytes of an ACK or NACK frame (RoCEv2 headers + AETH 4). HPCC ns-3: 60 (padded)."},
     .field = &WireFormat::ack_frame,
     .min = 1,
     .max = kMaxFrame,
     .expected = kOneFrame},
    {.doc = {"ack_headers", K::kValue, "size", "", "\"70B\"",
             "Bytes of an ACK before padding to ack_frame: with congestion control that adds a "
             "header to data and ACKs (HPCC's INT 42 B, TIMELY's time stamp 8 B), an ACK is the "
             "larger of ack_frame and ack_headers + that header. HPCC ns-3: 46 (PPP 14, IPv4 20, "
             "qbb 12)."},
     .field = &WireFormat::ack_headers,
     .min = 1,
     .max = kMaxFrame,
     .expected = kOneFrame},
    {.doc = {"cnp_frame", K::kValue, "size", "", "\"82B\"",
             "Bytes of a CNP frame (RoCEv2 headers + 16 reserved bytes). HPCC ns-3 sends none: "
             "its CNP is a bit on the ACK (`cc.cnp_on_ack`)."},
     .field = &WireFormat::cnp_frame,
     .min = 1,
     .max = kMaxFrame,
     .expected = kOneFrame},
    {.doc = {"min_frame", K::kValue, "size", "", "\"64B\"",
             "Data frames are padded up to this (Ethernet's minimum). HPCC ns-3: 60."},
     .field = &WireFormat::min_frame,
     .max = kMaxFrame,
     .expected = kOneFrame},
    {.doc = {"gap", K::kValue, "size", "", "\"20B\"",
             "Wire bytes per frame that no buffer holds: preamble 8 + inter-frame gap 12. HPCC "
             "ns-3: 0."},
     .field = &WireFormat::gap,
     .max = kMaxFrame,
     .expected = kOneFrame},
    {.doc = {"whole_ns", K::kValue, "boolean", "", "false",
             "Truncate every transmit time to whole nanoseconds, as ns-3's Time does (HPCC ns-3: "
             "true; 1048 B at 100 Gb/s then take 83 ns instead of 83.84)."},
     .field = &WireFormat::whole_ns},
    {.doc = {"ns_rounding", K::kValue, "string", "", "\"down\"",
             "How whole_ns rounds: `\"down\"` (HPCC's ns-3, whose Time keeps the whole ns) or "
             "`\"nearest\"` (newer ns-3, as SimAI's ns-3-alibabacloud: a 9048 B frame at "
             "400 Gb/s takes 181 ns, not 180.96)."},
     .field = ByName<&WireFormat::ns_rounding>(kNsRoundingNames)},
};

}  // namespace

std::span<const KeyRow<WireFormat>> WireKeys() { return kWireKeys; }

}  // namespace dcqcn
