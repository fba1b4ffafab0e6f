#include "net/event_keys.h"

namespace dcqcn {
namespace {

using K = KeyKind;

// By NetworkEvent::Kind.
constexpr std::string_view kEventKindNames[] = {"pause_storm", "link_down", "link_up"};

constexpr KeyRow<NetworkEvent> kEventKeys[] = {
    {.doc = {"at", K::kValue, "time", "", "required",
             "When it happens, within the run's duration."},
     .field = &NetworkEvent::at},
    {.doc = {"kind", K::kValue, "string", "", "required",
             "\"pause_storm\": a malfunctioning NIC stops draining what it receives and sends "
             "PAUSE for every data class without pause until `until`, then recovers (what it held "
             "is received). \"link_down\" / \"link_up\": the cables of `link` fail or come back; "
             "what is on them or sent into them while down is lost, PFC state across them is "
             "cleared, and the switches route around them (or back) `topology.reconvergence` "
             "later."},
     .field = ByName<&NetworkEvent::kind>(kEventKindNames)},
    // A node name: read and written by hand.
    {.doc = {"host", K::kValue, "host", "", "required (pause_storm)",
             "The NIC that storms, `\"h3\"` or `3`."}},
    {.doc = {"until", K::kValue, "time", "", "required (pause_storm)",
             "When the NIC recovers, after `at` (beyond the duration: it never does)."},
     .field = &NetworkEvent::until,
     .min = 1},
    // Two node names: read and written by hand.
    {.doc = {"link", K::kValue, "list of two strings", "", "required (link_down, link_up)",
             "The two cabled nodes, `[\"s0\", \"s4\"]`: every cable between them."}},
    // Its range depends on the link: read and written by hand.
    {.doc =
         {"cable", K::kValue, "integer", "", "every cable",
          "link_down and link_up only: one of the cables between the two nodes, counted from 0 in "
          "the topology's order."}},
};

}  // namespace

std::span<const KeyRow<NetworkEvent>> EventKeys() { return kEventKeys; }

}  // namespace dcqcn
