#include "net/flow_keys.h"

namespace dcqcn {
namespace {

using K = KeyKind;

constexpr KeyRow<FlowSpec> kFlowKeys[] = {
    // The host range depends on the topology: the loader gives the max.
    {.doc = {"src", K::kValue, "host", "", "required",
             "Sending host: its index (2) or its name (\"h2\")."}},
    {.doc = {"dst", K::kValue, "host", "", "required",
             "Receiving host, other than src: its index or its name."}},
    {.doc = {"size", K::kValue, "size", "", "required", "Bytes the flow sends."},
     .field = &FlowSpec::size,
     .min = 1},
    {.doc = {"start", K::kValue, "time", "", "\"0us\"", "When the flow starts."},
     .field = &FlowSpec::start},
    {.doc = {"priority", K::kValue, "integer", "802.1p class", "3",
             "Priority of the data, 1..7 (0 is the control queue)."},
     .field = &FlowSpec::priority,
     .min = 1,
     .max = 7,
     .expected = "an 802.1p priority"},
    // A 16-bit port: read and written by hand.
    {.doc =
         {"dport", K::kValue, "integer", "UDP port", "4791",
          "UDP destination port (RoCEv2: 4791; HPCC flow files: 100). Only the \"hpcc\" ECMP hash "
          "reads it."}},
    // Into the scenario's tag names: read and written by hand.
    {.doc =
         {"tag", K::kValue, "string", "", "none",
          "A label for the flow (1 to 64 letters, digits, `_` or `-`); summary.json and sweep.csv "
          "report per tag."}},
    // Beside the flow (only some algorithms read it): read and written by hand.
    {.doc = {"rate", K::kValue, "rate", "", "none",
             "The flow's own sending rate, for algorithms that pin rates (see `[cc]` algorithm); "
             "at most the line rate. Other algorithms refuse it."}},
    // Beside the flow, and made up for a prerequisite without one: read and written by hand.
    {.doc = {"id", K::kValue, "string", "", "none",
             "A name for the flow (1 to 64 letters, digits, `_`, `-`, `.` or `:`), unique, for "
             "`after` "
             "and flows.csv."}},
    // Flow ids, resolved once every flow is read: read and written by hand.
    {.doc =
         {"after", K::kValue, "list of strings", "flow ids", "[]",
          "The flows this one waits for: it starts `after_delay` after the last of them completes, "
          "and not before `start`. Each must be received by this flow's source host (complete when "
          "its last byte is delivered) or sent by it (complete when its last byte is "
          "acknowledged)."}},
    // Only with after: read and written by hand.
    {.doc = {"after_delay", K::kValue, "time", "", "\"0ps\"",
             "With `after`: the time from the last prerequisite's completion to this flow's start "
             "(e.g. "
             "compute time)."}},
};

}  // namespace

std::span<const KeyRow<FlowSpec>> FlowKeys() { return kFlowKeys; }

}  // namespace dcqcn
