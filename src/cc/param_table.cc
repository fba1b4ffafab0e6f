// Parsing helpers of the [cc] parameter tables.
#include "cc/param_table.h"

#include <cmath>
#include <cstdlib>

namespace dcqcn {

bool ParseCcDouble(const std::string& text, double* out) {
  char* end = nullptr;
  *out = std::strtod(text.c_str(), &end);
  // strtod reads "nan" and "inf" (and TOML writes them so): a parameter is a finite number, and
  // a NaN would pass every range check below it.
  return !text.empty() && end == text.c_str() + text.size() && std::isfinite(*out);
}

bool ParseCcBool(const std::string& text, bool* out) {
  if (text != "true" && text != "false") return false;
  *out = text == "true";
  return true;
}

bool ParseCcInt(const std::string& text, long min, long max, long* out) {
  char* end = nullptr;
  const long n = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || end != text.c_str() + text.size() || n < min || n > max) return false;
  *out = n;
  return true;
}

std::string CcParamWhere(std::string_view source, const std::string& key,
                         const CcConfig::Param& param) {
  if (param.line > 0) return fmt::format("{}:{}", source, param.line);
  if (!param.given_as.empty()) return param.given_as;
  return fmt::format("--set cc.{}={}", key, param.value);
}

void CheckCcProfile(std::span<const CcProfileInfo> profiles, const CcConfig& cc,
                    std::string_view source, std::string_view label) {
  if (cc.profile.empty() && !profiles.empty()) return;  // the default
  std::vector<std::string_view> names;
  for (const CcProfileInfo& p : profiles) {
    if (p.name == cc.profile) return;
    names.push_back(p.name);
  }
  throw InputError(fmt::format("{}: cc.profile: unknown {} profile \"{}\"{} (expected {})", source,
                               label, cc.profile, DidYouMean(cc.profile, names),
                               fmt::join(names, ", ")));
}

}  // namespace dcqcn
