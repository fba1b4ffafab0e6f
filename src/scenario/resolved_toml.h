// Writes a Scenario back as TOML with every parameter spelled out (resolved.toml, `dcqcn check`),
// such that loading the text reproduces the scenario.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "scenario/scenario.h"

namespace dcqcn {

// Every field with its value, units as strings (FormatTime/FormatRate/FormatSize), and every flow
// (generated ones included) as an explicit [[flow]] with no [workload] table. Hence
// LoadScenarioText(ResolvedToml(s), ...) gives back s, except that `source` is the new name, the
// workload is empty and explicit_flows == flows.size().
std::string ResolvedToml(const Scenario& s);
// The same text handed to `sink` in pieces, in order (resolved.toml of millions of flows).
void ResolvedTomlTo(const Scenario& s, const std::function<void(std::string_view)>& sink);

// A TOML basic string literal with quotes and escapes: TomlQuote("a\"b") == "\"a\\\"b\"".
std::string TomlQuote(std::string_view text);

// A TOML float literal that reads back as exactly `value` (shortest round-trip digits, always with
// a '.' or exponent so it stays a float; inf and nan as TOML spells them).
std::string TomlFloat(double value);

}  // namespace dcqcn
