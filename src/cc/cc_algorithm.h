// What a congestion-control algorithm registers, once, in its own folder: its name, profiles,
// parameter table, counters, what it needs of NICs and switches, its HPCC ns-3 CC_MODE, and a
// resolver that turns a [cc] table into a ready factory. The scenario layer resolves; a Network
// only calls the factory, so the model never names an algorithm.
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cc/cc_config.h"
#include "cc/cc_counters.h"
#include "cc/congestion_control.h"
#include "cc/param_table.h"
#include "core/simulator.h"

namespace dcqcn {

// What one NIC's instance is built with.
struct CcEnv {
  Simulator* sim = nullptr;
  CcHost* host = nullptr;
  Bytes mtu = 0;  // payload bytes per packet (window-based algorithms count in packets)
  // Flows' own rates ([[flow]] rate), by flow id; 0 or past the end: none. Only algorithms
  // that pin rates (CcAlgorithm::reads_flow_rate) read them.
  std::span<const Rate> flow_rates = {};
};

// An algorithm with its parameters resolved: every NIC's instance shares them.
class CcFactory {
 public:
  virtual ~CcFactory() = default;
  virtual std::unique_ptr<CongestionControl> Make(const CcEnv& env) const = 0;
  // What the algorithm needs of NICs and switches (the same for every instance).
  virtual CcNeeds needs() const = 0;
  // Every parameter as (name, value text in the form [cc] accepts), in table order.
  virtual std::vector<std::pair<std::string, std::string>> ParamsText() const = 0;
  // The rate parameters that must not exceed a NIC's line rate, with their values (ResolveCc
  // checks them against the slowest NIC's).
  virtual std::vector<std::pair<std::string_view, Rate>> LineBoundedRates() const { return {}; }
};

// How one HPCC ns-3 config.txt key sets a parameter under the algorithm's CC_MODE (the reader,
// src/ns3/, interprets the kinds).
struct Ns3CcKey {
  enum class Kind {
    kMicros,    // a number of microseconds
    kRate,      // an ns-3 data rate ("100Mb/s")
    kGain,      // a number in (0, 1]
    kNumber,    // a number in [min, max]
    kInteger,   // an integer in [min, max]
    kFlag,      // 0 or 1
    kMinRate,   // MIN_RATE, read once for every mode
    kRequired,  // must not be 0 (`ns3_default` if missing); sets nothing; `broken` says why
  };
  std::string_view ns3_key = {};  // "RATE_AI"
  std::string_view param = {};    // the [cc] parameter it sets: "rai"
  Kind kind = Kind::kNumber;
  // That simulator's default when the key is missing, in the key's unit (us, bit/s, the number).
  double ns3_default = 0;
  // Non-empty when that default is broken (why): then the profile's value is used, with a warning.
  std::string_view broken = {};
  double min = 0;  // kNumber and kInteger
  double max = 0;
  std::string_view expected = {};  // kNumber and kInteger: what a bad value is told to be
};

struct CcAlgorithm {
  std::string_view name = {};     // the value of [cc] algorithm
  std::string_view label = {};    // for messages: "DCQCN"
  std::string_view summary = {};  // one line for the key reference
  // The first is the default. Empty: the algorithm takes no parameters and any profile.
  std::span<const CcProfileInfo> profiles = {};
  std::vector<CcParamDoc> docs = {};  // every parameter, in resolved.toml's order
  std::span<const CcCounterSpec> counters = {};
  // Whether ECN marks change what it does (the buffer rules check ECN settings only then).
  bool reacts_to_ecn = false;
  // Whether it reads a flow's own `rate` ([[flow]] rate); other algorithms refuse one.
  bool reads_flow_rate = false;
  // HPCC ns-3's CC_MODE for it (0: none), the profile that emulates that simulator, and the
  // config.txt keys that set its parameters there.
  int ns3_cc_mode = 0;
  std::string_view ns3_profile = {};
  std::span<const Ns3CcKey> ns3_keys = {};
  // Checks the algorithm, profile and overrides of `cc` and resolves them; throws InputError
  // naming the file (`source`), line and key.
  std::function<std::unique_ptr<const CcFactory>(const CcConfig& cc, std::string_view source)>
      resolve = {};
};

// The usual factory: a parameter struct P shared by instances of Cc, built as Cc(env, &params).
// Cc::Needs(const P&) says what it needs.
template <class P, class Cc>
class ParamsFactory : public CcFactory {
 public:
  ParamsFactory(P params, const std::vector<ParamSpec<P>>& table)
      : params_(std::move(params)), table_(table) {}
  std::unique_ptr<CongestionControl> Make(const CcEnv& env) const override {
    return std::make_unique<Cc>(env, &params_);
  }
  CcNeeds needs() const override { return Cc::Needs(params_); }
  std::vector<std::pair<std::string, std::string>> ParamsText() const override {
    return CcParamsText(table_, params_);
  }
  std::vector<std::pair<std::string_view, Rate>> LineBoundedRates() const override {
    return CcLineBoundedRates(table_, params_);
  }

 private:
  P params_;
  const std::vector<ParamSpec<P>>& table_;
};

// A resolver for CcAlgorithm::resolve: the profile `profile(name)` names (after checking it is
// one of `profiles`; the first when cc.profile is empty), with the [cc] overrides applied
// through `table`.
template <class P, class Cc>
auto ParamsResolver(std::string_view label, std::span<const CcProfileInfo> profiles,
                    const std::vector<ParamSpec<P>>& (*table)(), P (*profile)(std::string_view)) {
  return [=](const CcConfig& cc, std::string_view source) -> std::unique_ptr<const CcFactory> {
    CheckCcProfile(profiles, cc, source, label);
    const std::string_view name = cc.profile.empty() ? profiles.front().name : cc.profile;
    P p = ApplyCcOverrides(table(), profile(name), cc, source, label);
    return std::make_unique<ParamsFactory<P, Cc>>(std::move(p), table());
  };
}

}  // namespace dcqcn
