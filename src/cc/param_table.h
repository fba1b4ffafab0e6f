// The [cc] parameters of one congestion-control algorithm as a table: each row documents a
// parameter, parses a value into the algorithm's parameter struct and prints it back, so the
// loader, resolved.toml and the key reference (`dcqcn keys`) all read the same definition.
#pragma once

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cc/cc_config.h"
#include "core/edit_distance.h"
#include "core/error.h"
#include "core/units.h"

namespace dcqcn {

// What the key reference says about one [cc] parameter.
struct CcParamDoc {
  std::string_view name;
  std::string_view type;     // as in scenario_schema.h: "time", "rate", "number", "boolean"...
  std::string_view meaning;  // one line, naming the source's parameter where there is one
};

// A profile: a named set of values for every parameter, and where they come from.
struct CcProfileInfo {
  std::string_view name;    // the value of [cc] profile
  std::string_view source;  // where its values come from
};

template <class P>
struct ParamSpec {
  CcParamDoc doc;
  const char* expected;  // what a bad value is told to be
  std::function<bool(P&, const std::string&)> set;
  std::function<std::string(const P&)> get;
  // Set for a rate that must not exceed the line rate of the NIC it runs on (a floor or an
  // increase step): the value, which ResolveCc checks once line rates are known.
  std::function<Rate(const P&)> line_bounded = {};
};

// Parsing helpers shared by every table (cc/param_table.cc). A number is finite: NaN and the
// infinities are refused.
bool ParseCcDouble(const std::string& text, double* out);
bool ParseCcBool(const std::string& text, bool* out);
bool ParseCcInt(const std::string& text, long min, long max, long* out);

template <class P>
ParamSpec<P> TimeParam(CcParamDoc doc, Time P::*field, bool allow_zero) {
  return {doc, allow_zero ? "a time >= 0 such as \"50us\"" : "a time > 0 such as \"55us\"",
          [=](P& p, const std::string& v) {
            auto t = ParseTime(v);
            if (!t || *t < 0 || (*t == 0 && !allow_zero)) return false;
            p.*field = *t;
            return true;
          },
          [=](const P& p) { return FormatTime(p.*field); }};
}

// `at_most_line_rate`: a floor or an increase step, which above the line rate would set rates
// the NIC cannot send at (a floor) or be a unit slip (a step of more than the whole link).
template <class P>
ParamSpec<P> RateParam(CcParamDoc doc, Rate P::*field, bool allow_zero,
                       bool at_most_line_rate = false) {
  ParamSpec<P> spec{
      doc, allow_zero ? "a rate >= 0 such as \"40Mbps\"" : "a rate > 0 such as \"100Mbps\"",
      [=](P& p, const std::string& v) {
        auto r = ParseRate(v);
        if (!r || *r < 0 || (*r == 0 && !allow_zero)) return false;
        p.*field = *r;
        return true;
      },
      [=](const P& p) { return FormatRate(p.*field); }};
  if (at_most_line_rate) spec.line_bounded = [=](const P& p) { return p.*field; };
  return spec;
}

// A number in [0, 1] (or (0, 1] without allow_zero).
template <class P>
ParamSpec<P> FractionParam(CcParamDoc doc, double P::*field, bool allow_zero,
                           const char* expected) {
  return {doc, expected,
          [=](P& p, const std::string& v) {
            double d;
            if (!ParseCcDouble(v, &d) || d > 1 || d < 0 || (d == 0 && !allow_zero)) return false;
            p.*field = d;
            return true;
          },
          // Shortest text that reads back exactly.
          [=](const P& p) { return fmt::format("{}", p.*field); }};
}

// A number in (0, max].
template <class P>
ParamSpec<P> PositiveParam(CcParamDoc doc, double P::*field, double max, const char* expected) {
  return {doc, expected,
          [=](P& p, const std::string& v) {
            double d;
            if (!ParseCcDouble(v, &d) || !(d > 0) || d > max) return false;
            p.*field = d;
            return true;
          },
          [=](const P& p) { return fmt::format("{}", p.*field); }};
}

template <class P>
ParamSpec<P> BoolParam(CcParamDoc doc, bool P::*field) {
  return {doc, "true or false",
          [=](P& p, const std::string& v) { return ParseCcBool(v, &(p.*field)); },
          [=](const P& p) { return std::string(p.*field ? "true" : "false"); }};
}

template <class P>
ParamSpec<P> IntParam(CcParamDoc doc, int P::*field, long min, long max, const char* expected) {
  return {doc, expected,
          [=](P& p, const std::string& v) {
            long n;
            if (!ParseCcInt(v, min, max, &n)) return false;
            p.*field = static_cast<int>(n);
            return true;
          },
          [=](const P& p) { return std::to_string(p.*field); }};
}

// Where a [cc] parameter was written, for messages: "file:line" or the option that gave it.
std::string CcParamWhere(std::string_view source, const std::string& key,
                         const CcConfig::Param& param);

// `profile` with every [cc] override of `cc` applied through `table`. Throws InputError naming
// the file (`source`), line and key; `label` names the algorithm ("DCQCN").
template <class P>
P ApplyCcOverrides(const std::vector<ParamSpec<P>>& table, P profile, const CcConfig& cc,
                   std::string_view source, std::string_view label) {
  for (const auto& [key, param] : cc.params) {
    const ParamSpec<P>* spec = nullptr;
    for (const ParamSpec<P>& s : table) {
      if (s.doc.name == key) spec = &s;
    }
    const std::string where = CcParamWhere(source, key, param);
    if (spec == nullptr) {
      std::vector<std::string_view> names;
      for (const ParamSpec<P>& s : table) names.push_back(s.doc.name);
      throw InputError(fmt::format("{}: cc.{}: unknown {} parameter{} (known: {})", where, key,
                                   label, DidYouMean(key, names), fmt::join(names, ", ")));
    }
    if (!spec->set(profile, param.value)) {
      throw InputError(
          fmt::format("{}: cc.{}: expected {}, got {}", where, key, spec->expected, param.value));
    }
  }
  return profile;
}

// Every parameter of `p` that must not exceed the line rate, with its value, in table order.
template <class P>
std::vector<std::pair<std::string_view, Rate>> CcLineBoundedRates(
    const std::vector<ParamSpec<P>>& t, const P& p) {
  std::vector<std::pair<std::string_view, Rate>> rates;
  for (const ParamSpec<P>& s : t) {
    if (s.line_bounded) rates.emplace_back(s.doc.name, s.line_bounded(p));
  }
  return rates;
}

// Checks that cc.profile names one of `profiles`; throws InputError naming the file.
void CheckCcProfile(std::span<const CcProfileInfo> profiles, const CcConfig& cc,
                    std::string_view source, std::string_view label);

// Every parameter of `p` as (name, value text in the form [cc] accepts), in table order.
template <class P>
std::vector<std::pair<std::string, std::string>> CcParamsText(const std::vector<ParamSpec<P>>& t,
                                                              const P& p) {
  std::vector<std::pair<std::string, std::string>> text;
  for (const ParamSpec<P>& s : t) text.emplace_back(s.doc.name, s.get(p));
  return text;
}

template <class P>
std::vector<CcParamDoc> CcParamDocs(const std::vector<ParamSpec<P>>& t) {
  std::vector<CcParamDoc> docs;
  for (const ParamSpec<P>& s : t) docs.push_back(s.doc);
  return docs;
}

}  // namespace dcqcn
