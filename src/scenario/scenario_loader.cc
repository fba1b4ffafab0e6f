// TOML -> validated Scenario: schema of the scenario format, --set overrides, defaults (taken
// from the member initializers in scenario.h, their one home) and every input check.
#include "scenario/scenario_loader.h"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <limits>
#include <new>
#include <optional>
#include <span>
#include <sstream>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <variant>

#include "cc/registry.h"
#include "core/edit_distance.h"
#include "core/error.h"
#include "core/input_file.h"
#include "core/key_row.h"
#include "core/memory.h"
#include "core/utf8.h"
#include "net/event_keys.h"
#include "net/flow_keys.h"
#include "net/headers.h"
#include "net/host_keys.h"
#include "net/switch_keys.h"
#include "net/wire_keys.h"
#include "ns3/hpcc_files.h"
#include "ns3/simai_topology.h"
#include "output/output_keys.h"
#include "scenario/resolved_toml.h"
#include "scenario/scenario_schema.h"
#include "topology/builders.h"
#include "topology/topology_type.h"
#include "workload/cdf.h"
#include "workload/generators.h"
#include "workload/workload_keys.h"

namespace dcqcn {

// Samples per time series (output.interval over the duration): the sampler keeps them all.
constexpr Time kMaxSamplesPerSeries = 10000000;
namespace {

// ---------------------------------------------------------------------------------------------
// Schema: which keys each table may hold, declared once in scenario/scenario_schema.cc with each
// key's type, default and meaning. It serves the unknown-key check of the file, the check of
// --set paths and the key reference (`dcqcn keys`), so the three can never disagree.

// "unknown key" plus the keys that would have been accepted, nearest first when one is close.
std::string UnknownKeyHint(const TableSchema& schema, std::string_view key) {
  std::vector<std::string_view> names;
  for (const KeySchema& k : schema) names.push_back(k.name);
  const std::string near = NearMiss(key, names);
  if (!near.empty())
    return fmt::format("did you mean {}? (known keys: {})", near, fmt::join(names, ", "));
  return fmt::format("known keys: {}", fmt::join(names, ", "));
}

// ---------------------------------------------------------------------------------------------
// Rendering of TOML values for messages and for [cc] parameters.

std::string CanonicalText(const toml::node& node);

std::string KeyText(std::string_view key) {
  const bool bare = !key.empty() && std::all_of(key.begin(), key.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-';
  });
  return bare ? std::string(key) : TomlQuote(key);
}

// One fixed spelling per value, so text stored for a [cc] parameter survives a round trip
// through resolved.toml unchanged.
std::string CanonicalText(const toml::node& node) {
  if (const auto* v = node.as_string()) return TomlQuote(v->get());
  if (const auto* v = node.as_integer()) return std::to_string(v->get());
  if (const auto* v = node.as_floating_point()) return TomlFloat(v->get());
  if (const auto* v = node.as_boolean()) return v->get() ? "true" : "false";
  if (const auto* a = node.as_array()) {
    std::string out = "[";
    for (size_t i = 0; i < a->size(); ++i) {
      out += (i ? ", " : "") + CanonicalText(*a->get(i));
    }
    return out + "]";
  }
  if (const auto* t = node.as_table()) {
    std::string out;
    for (auto&& [key, value] : *t) {
      out += (out.empty() ? "{ " : ", ") + KeyText(key.str()) + " = " + CanonicalText(value);
    }
    return out.empty() ? "{}" : out + " }";
  }
  std::ostringstream os;  // dates and times: toml++ prints them in TOML syntax
  if (const auto* v = node.as_date()) os << *v;
  if (const auto* v = node.as_time()) os << *v;
  if (const auto* v = node.as_date_time()) os << *v;
  return os.str();
}

// How a wrong value is shown after "got".
std::string Got(const toml::node& node) {
  if (node.is_table()) return "a table";
  if (node.is_array()) return fmt::format("an array {}", CanonicalText(node));
  return CanonicalText(node);
}

std::string ParamText(const toml::node& node) {
  if (const auto* v = node.as_string()) return v->get();
  return CanonicalText(node);
}

// The value of an override's text: TOML when it parses as exactly one value, otherwise a string.
toml::table ParseValueText(std::string_view text) {
  try {
    toml::table doc = toml::parse(fmt::format("v = {}\n", text), std::string_view("<--set>"));
    if (doc.size() == 1 && doc.contains("v")) return doc;
  } catch (const std::exception&) {
    // Not TOML: the text is the string itself.
  }
  toml::table doc;
  doc.insert("v", std::string(text));
  return doc;
}

bool IsDigits(std::string_view s) {
  return !s.empty() && s.size() <= 9 &&
         std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::string Trim(std::string_view s) {
  const size_t begin = s.find_first_not_of(" \t");
  if (begin == std::string_view::npos) return "";
  const size_t end = s.find_last_not_of(" \t");
  return std::string(s.substr(begin, end - begin + 1));
}

std::vector<std::string> SplitDots(std::string_view s) {
  std::vector<std::string> parts;
  size_t begin = 0;
  for (;;) {
    const size_t dot = s.find('.', begin);
    parts.emplace_back(s.substr(begin, dot == std::string_view::npos ? dot : dot - begin));
    if (dot == std::string_view::npos) return parts;
    begin = dot + 1;
  }
}

// True when an error about `key` lies inside what the override of `path` set.
bool Covers(std::string_view path, std::string_view key) {
  if (key.substr(0, path.size()) != path) return false;
  return key.size() == path.size() || key[path.size()] == '.' || key[path.size()] == '[';
}

enum class Bound { kPositive, kNonNegative };

// The most flows a run on this machine can hold with the collectives': ids are 32-bit, and a
// collective's flow takes about 200 bytes in a run (its spec, dependency rows, outcome and
// per-flow results), more while it is in flight: kRunBytesPerFlow leaves room for that. Measured
// on 1,024 ranks: a ring AllReduce, 2.10 M flows (at most 1,137 in flight), took 417 MB to run
// (199 B a flow; 667 MB before the event queue reused its buffers and the specs were reserved);
// a direct all-to-all, 1.05 M flows all in flight at once, 1.29 GB. A scenario that cannot fit is
// refused before it is built.
constexpr uint64_t kRunBytesPerFlow = 320;
uint64_t MaxFlowsInMemory() {
  return std::min<uint64_t>(UINT32_MAX / 2, PhysicalMemoryBytes() / kRunBytesPerFlow);
}

// Room for `more` flows counted (exact, but for PXN's relays: at most) before they are built:
// grown one flow at a time, the specs and rows of millions would take up to twice their size,
// and a copy. `connections`: some follow others on a connection.
void ReserveCounted(Scenario& s, uint64_t more, bool connections) {
  s.flows.reserve(s.flows.size() + more);
  s.flow_after.Reserve(s.flows.size() + more, connections);
}

// ---------------------------------------------------------------------------------------------
// The loader proper. Holds the source name and the overrides so that every error can say where
// the offending value came from.

// A table of the document being read; `table` is null when absent (all its keys take defaults).
struct Section {
  const toml::table* table = nullptr;
  std::string path;  // "switch.pfc", "flow[2]"; "" for the root

  std::string Key(std::string_view k) const {
    return path.empty() ? std::string(k) : fmt::format("{}.{}", path, k);
  }
  const toml::node* Get(std::string_view k) const { return table ? table->get(k) : nullptr; }
};

class Loader {
 public:
  Loader(std::string source, const LoadOptions& options)
      : source_(std::move(source)), options_(options) {}

  void ApplyOverride(toml::table& root, const Override& override);
  Scenario Build(const toml::table& root);

 private:
  std::string Where(std::string_view key, const toml::node* node) const;
  std::string Where(std::string_view key, uint32_t line) const;
  [[noreturn]] void Fail(std::string_view key, const toml::node* node,
                         const std::string& what) const;

  Section Sub(const Section& parent, std::string_view key) const;
  void CheckKeys(const Section& sec, const TableSchema& schema) const;
  void OnlyFor(const Section& sec, std::initializer_list<std::string_view> keys,
               std::string_view table_key, std::string_view type) const;

  std::string ReadString(const Section& sec, std::string_view key, const std::string& fallback,
                         std::initializer_list<std::string_view> allowed = {}) const;
  std::string ReadString(const Section& sec, std::string_view key, const std::string& fallback,
                         const std::vector<std::string_view>& allowed) const;
  bool ReadBool(const Section& sec, std::string_view key, bool fallback) const;
  int64_t ReadInt(const Section& sec, std::string_view key, int64_t fallback, int64_t lo,
                  int64_t hi, std::string_view what = "an integer") const;
  int64_t ReadIntNode(const toml::node& node, const std::string& key, int64_t lo, int64_t hi,
                      std::string_view what) const;
  double ReadDouble(const Section& sec, std::string_view key, double fallback) const;
  // The run's seed: any uint64, above TOML's integers (2^63 - 1) written as a string of digits.
  uint64_t ReadSeed(const Section& sec, uint64_t fallback) const;
  // A flow tag: letters, digits, '_' and '-' (it names sweep.csv columns such as tag.victim.*).
  std::string ReadTag(const Section& sec, std::string_view key = "tag") const;
  // `ranks`: "all" (or absent) or an array of hosts in rank order.
  void ReadRanks(const Section& sec, const Topology& topo, bool& all,
                 std::vector<int>& ranks) const;
  Time ReadTime(const Section& sec, std::string_view key, Time fallback, Bound bound) const;
  Rate ReadRate(const Section& sec, std::string_view key, Rate fallback, Bound bound) const;
  Bytes ReadSize(const Section& sec, std::string_view key, Bytes fallback, Bound bound) const;
  // Shared by the three unit readers; parse is ParseTime/ParseRate/ParseSize.
  template <typename Parse>
  int64_t ReadQuantity(const toml::node& node, const std::string& key, Bound bound,
                       std::string_view noun, std::string_view example, std::string_view units,
                       Parse parse) const;
  // A size, or the string `word` ("dynamic", "auto"); nullopt means the word. `words`: how the
  // error message lists the accepted words (default: `word` quoted).
  std::optional<Bytes> ReadSizeOrWord(const Section& sec, std::string_view key,
                                      std::string_view word, Bound bound,
                                      std::string_view words = {}) const;
  // The tables of `sec`.by_rate (per-link-rate settings), each with exactly `keys`.
  std::vector<Section> ReadByRate(const Section& sec, std::vector<std::string_view> keys) const;

  void ReadTopology(const Section& sec, TopologyConfig& topo) const;
  void ReadLinks(const Section& sec, TopologyConfig& topo) const;
  void ReadTopologyKey(const Section& sec, const TopologyKey& row, TopologyConfig& topo) const;
  // The keys of `sec` that `rows` declare, each into its field when given; after each row (read
  // or not), `then` with it, which reads the rows without a field by hand.
  template <class Config>
  void ReadRows(
      const Section& sec, std::span<const KeyRow<Config>> rows, Config& config,
      const std::function<void(const KeyRow<std::type_identity_t<Config>>&)>& then = {}) const;
  // `max`, when given, is the integer's bound instead of the row's (one that depends on the
  // topology, such as a host index).
  template <class Config>
  void ReadRow(const Section& sec, const KeyRow<Config>& row, Config& config,
               std::optional<int64_t> max = std::nullopt) const;
  void ReadSwitch(const Section& sec, SwitchConfig& sw) const;
  void ReadPfc(const Section& sec, PfcConfig& p) const;
  void ReadEcn(const Section& sec, EcnConfig& e) const;
  void ReadHost(const Section& sec, HostConfig& host) const;
  void ReadWire(const Section& sec, WireFormat& wire) const;
  void ReadCc(const Section& sec, CcConfig& cc) const;
  // An array of strings, each checked by `check` ("" when fine, else what was expected); a
  // value that is not such an array fails with `expected`.
  std::vector<std::string> ReadStrings(
      const Section& sec, std::string_view name, const std::string& expected,
      const std::function<std::string(const std::string&)>& check) const;
  void ReadOutput(const Section& sec, OutputConfig& output) const;
  void ReadPcap(const Section& sec, const Topology& topo, PcapConfig& pcap) const;
  // [output.pcap] points: each a host or a switch's port of `topo`, also into pcap.taps.
  void ReadPcapPoints(const Section& sec, const Topology& topo, PcapConfig& pcap) const;
  void ReadFlows(const Section& root, Scenario& s);
  // A flow's id: 1 to 64 letters, digits, '_', '-', '.' or ':'.
  std::string ReadFlowId(const Section& sec) const;
  // [[flow]] after: every name a known id, each prerequisite observable by the flow's source
  // host, no cycle; fills s.flow_after.
  struct Waiting {
    uint32_t flow;
    std::vector<std::pair<std::string, const toml::node*>> after;  // each name and its node
    Time delay;
  };
  void ResolveDependencies(const std::vector<Waiting>& waiting,
                           const std::unordered_map<std::string, uint32_t>& by_id,
                           Scenario& s) const;
  void ReadWorkload(const Section& sec, Scenario& s) const;
  void ReadPoissonWorkload(const Section& sec, Scenario& s) const;
  void ReadTopologyFile(const Section& sec, TopologyConfig& topo) const;
  std::string ResolvePath(std::string_view key, const std::string& path) const;
  // The tables of the array of tables `key` ([[flow]], [[collective]]), each checked against
  // `schema` and named "key[i]"; none when absent.
  std::vector<Section> TablesOf(const Section& root, std::string_view key,
                                const TableSchema& schema) const;
  // [[collective]] tables, each expanded into flows after every other flow.
  void ReadCollectives(const Section& root, Scenario& s);
  // [[job]] tables, each checked, counted and then expanded into flows and compute tasks after
  // the collectives'.
  void ReadJobs(const Section& root, Scenario& s);
  // [[route]] tables: static routes, checked against the built topology.
  void ReadRoutes(const Section& root, Scenario& s) const;
  void ReadEvents(const Section& root, Scenario& s) const;
  // One [[event]]'s keys by kind, after `at`.
  void ReadPauseStorm(const Section& sec, Scenario& s, NetworkEvent& e) const;
  void ReadLinkEvent(const Section& sec, Scenario& s, NetworkEvent& e) const;
  // The node names at `key` of `sec` (a string or an array of strings), each a host
  // (`hosts`) or a switch.
  std::vector<int> ReadNodes(const Section& sec, std::string_view key, const Topology& topo,
                             bool hosts) const;
  // A host named by its index (2) or its name ("h2"), wherever a host is named.
  int ReadHostNode(const toml::node& item, const std::string& key, const Topology& topo) const;
  void CheckReachability(const Scenario& s, const toml::node* workload_node) const;

  // Whether `key` was set by an override (a path in it is relative to the current directory).
  bool FromOverride(std::string_view key) const;

  std::string source_;
  LoadOptions options_;
  // Normalized key path ("flow[0].size") and the override as given ("--set cc.rai=10Mbps",
  // "--seed 7"), in the order given.
  std::vector<std::pair<std::string, std::string>> overrides_;
  std::vector<const toml::node*> flow_nodes_;        // the [[flow]] tables, for messages
  std::vector<const toml::node*> collective_nodes_;  // the [[collective]] tables
  std::vector<const toml::node*> job_nodes_;         // the [[job]] tables
  mutable std::vector<std::string> warnings_;        // Scenario::warnings
};

std::string Loader::Where(std::string_view key, const toml::node* node) const {
  return Where(key, node != nullptr ? node->source().begin.line : 0);
}

std::string Loader::Where(std::string_view key, uint32_t line) const {
  for (auto it = overrides_.rbegin(); it != overrides_.rend(); ++it) {
    if (Covers(it->first, key)) return it->second;
  }
  if (line > 0) return fmt::format("{}:{}", source_, line);
  return source_;
}

bool Loader::FromOverride(std::string_view key) const {
  return std::any_of(overrides_.begin(), overrides_.end(),
                     [&](const auto& o) { return Covers(o.first, key); });
}

void Loader::Fail(std::string_view key, const toml::node* node, const std::string& what) const {
  throw InputError(fmt::format("{}: {}: {}", Where(key, node), key, what));
}

[[noreturn]] void FailOverride(const Override& override, const std::string& what) {
  throw InputError(fmt::format("{}: {}", override.given_as, what));
}

void Loader::ApplyOverride(toml::table& root, const Override& override) {
  const std::string& text = override.text;
  const size_t eq = text.find('=');
  if (!IsValidUtf8(override.given_as)) {
    // resolved.toml repeats the value, and a TOML file cannot hold invalid UTF-8.
    const std::string key = text.substr(0, eq);
    const std::string option = override.given_as.substr(0, override.given_as.find(' '));
    throw InputError(
        fmt::format("{} {}: not valid UTF-8", IsValidUtf8(option) ? option : "--set",
                    eq != std::string::npos && IsValidUtf8(key) ? key + "=..." : "..."));
  }
  if (eq == std::string::npos) FailOverride(override, "expected KEY=VALUE, such as cc.rai=10Mbps");
  const std::string key = Trim(std::string_view(text).substr(0, eq));
  const std::string value = Trim(std::string_view(text).substr(eq + 1));
  const std::vector<std::string> parts = SplitDots(key);
  for (const std::string& part : parts) {
    const bool ok = !part.empty() && std::all_of(part.begin(), part.end(), [](char c) {
      return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
             c == '_' || c == '-';
    });
    if (!ok) {
      FailOverride(
          override,
          fmt::format("expected KEY=VALUE with KEY a dotted path such as switch.ecn.kmin, got "
                      "key \"{}\"",
                      key));
    }
  }

  toml::table* table = &root;
  std::string schema_path;  // "switch.pfc", "flow[]"
  std::string normalized;   // "flow[0].size": the spelling errors use
  const TableSchema* schema = &kRootSchema;
  for (size_t i = 0; i < parts.size(); ++i) {
    const std::string& part = parts[i];
    const bool last = i + 1 == parts.size();
    // An open table ([cc]) takes any key, as a value.
    const KeySchema* ks = schema != nullptr ? FindKey(*schema, part) : nullptr;
    if (schema != nullptr && ks == nullptr) {
      FailOverride(override, fmt::format("unknown key {}; {}", key, UnknownKeyHint(*schema, part)));
    }
    const KeyKind kind = ks != nullptr ? ks->kind : KeyKind::kValue;
    normalized += (normalized.empty() ? "" : ".") + part;
    if (last) {
      toml::table parsed = ParseValueText(value);
      parsed.get("v")->visit([&](auto&& v) { table->insert_or_assign(part, std::move(v)); });
      overrides_.emplace_back(normalized, override.given_as);
      return;
    }
    // Into element N of a list of tables: [[flow]] and the like (with their own schema), or a
    // value that holds tables (switch.ecn.by_rate, whose reader checks each table's keys).
    auto enter_element = [&](const TableSchema* element_schema) {
      const std::string tables = element_schema != nullptr
                                     ? fmt::format("[[{}]] tables", part)
                                     : fmt::format("tables in {}", normalized);
      const std::string& index_text = parts[i + 1];
      if (!IsDigits(index_text) || i + 2 >= parts.size()) {
        FailOverride(override, fmt::format("expected {}.N.KEY (N the index of one of the {}, "
                                           "from 0), got {}",
                                           normalized, tables, key));
      }
      const size_t index = std::stoul(index_text);
      toml::node* child = table->get(part);
      toml::array* list = child ? child->as_array() : nullptr;
      const size_t count = list ? list->size() : 0;
      if (index >= count) {
        FailOverride(override, fmt::format("the scenario has {} {}, so there is no {}[{}]", count,
                                           tables, normalized, index));
      }
      toml::node* element = list->get(index);
      if (!element->is_table()) {
        FailOverride(override, fmt::format("{}[{}] is not a table", normalized, index));
      }
      table = element->as_table();
      normalized += fmt::format("[{}]", index);
      schema = element_schema;
      ++i;
    };
    switch (kind) {
      case KeyKind::kValue:
        if (ks != nullptr && std::string_view(ks->type) == "list of tables") {
          enter_element(nullptr);
          break;
        }
        FailOverride(override,
                     fmt::format("unknown key {}: {} is a value, not a table", key, normalized));
      case KeyKind::kTable:
      case KeyKind::kOpenTable: {
        toml::node* child = table->get(part);
        if (child == nullptr) {
          table->insert(part, toml::table{});
          child = table->get(part);
        }
        if (!child->is_table()) {
          FailOverride(override, fmt::format("{} is not a table in the scenario, got {}",
                                             normalized, Got(*child)));
        }
        table = child->as_table();
        schema_path = normalized;
        schema = kind == KeyKind::kOpenTable ? nullptr : SchemaOf(schema_path);
        break;
      }
      case KeyKind::kFlowArray:  // "job[]", and inside it "job[].layer[]"
        schema_path = (schema_path.empty() ? "" : schema_path + ".") + part + "[]";
        enter_element(SchemaOf(schema_path));
        break;
    }
  }
}

Section Loader::Sub(const Section& parent, std::string_view key) const {
  Section sec;
  sec.path = parent.Key(key);
  const toml::node* node = parent.Get(key);
  if (node == nullptr) return sec;
  if (!node->is_table()) {
    Fail(sec.path, node, fmt::format("expected a table [{}], got {}", sec.path, Got(*node)));
  }
  sec.table = node->as_table();
  return sec;
}

void Loader::CheckKeys(const Section& sec, const TableSchema& schema) const {
  if (sec.table == nullptr) return;
  for (auto&& [key, value] : *sec.table) {
    if (FindKey(schema, key.str()) != nullptr) continue;
    // The key's own line: for a [table] the value's position is its header, which is the same.
    const uint32_t line =
        key.source().begin.line > 0 ? key.source().begin.line : value.source().begin.line;
    const std::string full = sec.Key(key.str());
    throw InputError(fmt::format("{}: {}: unknown key; {}", Where(full, line), full,
                                 UnknownKeyHint(schema, key.str())));
  }
}

void Loader::OnlyFor(const Section& sec, std::initializer_list<std::string_view> keys,
                     std::string_view table_key, std::string_view type) const {
  for (std::string_view k : keys) {
    if (const toml::node* node = sec.Get(k)) {
      Fail(sec.Key(k), node, fmt::format("only used when {} = \"{}\"", table_key, type));
    }
  }
}

std::string Loader::ReadString(const Section& sec, std::string_view key,
                               const std::string& fallback,
                               std::initializer_list<std::string_view> allowed) const {
  return ReadString(sec, key, fallback, std::vector<std::string_view>(allowed));
}

std::string Loader::ReadString(const Section& sec, std::string_view key,
                               const std::string& fallback,
                               const std::vector<std::string_view>& allowed) const {
  const toml::node* node = sec.Get(key);
  if (node == nullptr) return fallback;
  std::string choices;
  for (std::string_view a : allowed) choices += (choices.empty() ? "" : " | ") + TomlQuote(a);
  const std::string expected = allowed.size() ? "one of " + choices : std::string("a string");
  const auto* v = node->as_string();
  if (v == nullptr ||
      (allowed.size() && std::find(allowed.begin(), allowed.end(), v->get()) == allowed.end())) {
    const std::string near = v != nullptr ? NearMiss(v->get(), allowed) : "";
    Fail(sec.Key(key), node,
         fmt::format("expected {}, got {}{}", expected, Got(*node),
                     near.empty() ? "" : fmt::format("; did you mean {}?", TomlQuote(near))));
  }
  return v->get();
}

std::string Loader::ReadTag(const Section& sec, std::string_view key) const {
  std::string tag = ReadString(sec, key, "");
  const bool ok =
      !tag.empty() && tag.size() <= 64 && std::all_of(tag.begin(), tag.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
      });
  if (!ok) {
    Fail(sec.Key(key), sec.Get(key),
         fmt::format("expected 1 to 64 letters, digits, '_' or '-' such as \"victim\", got {}",
                     TomlQuote(tag)));
  }
  return tag;
}

bool Loader::ReadBool(const Section& sec, std::string_view key, bool fallback) const {
  const toml::node* node = sec.Get(key);
  if (node == nullptr) return fallback;
  const auto* v = node->as_boolean();
  if (v == nullptr) {
    Fail(sec.Key(key), node, fmt::format("expected true or false, got {}", Got(*node)));
  }
  return v->get();
}

int64_t Loader::ReadIntNode(const toml::node& node, const std::string& key, int64_t lo, int64_t hi,
                            std::string_view what) const {
  const auto* v = node.as_integer();
  const std::string range = hi >= std::numeric_limits<int>::max() ? fmt::format(">= {}", lo)
                                                                  : fmt::format("{}..{}", lo, hi);
  if (v == nullptr || v->get() < lo || v->get() > hi) {
    Fail(key, &node, fmt::format("expected {} {}, got {}", what, range, Got(node)));
  }
  return v->get();
}

int64_t Loader::ReadInt(const Section& sec, std::string_view key, int64_t fallback, int64_t lo,
                        int64_t hi, std::string_view what) const {
  const toml::node* node = sec.Get(key);
  if (node == nullptr) return fallback;
  return ReadIntNode(*node, sec.Key(key), lo, hi, what);
}

uint64_t Loader::ReadSeed(const Section& sec, uint64_t fallback) const {
  const toml::node* node = sec.Get("seed");
  if (node == nullptr) return fallback;
  if (const auto* v = node->as_integer(); v != nullptr && v->get() >= 0) {
    return static_cast<uint64_t>(v->get());
  }
  if (const auto* v = node->as_string()) {
    const std::string& text = v->get();
    uint64_t seed = 0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, seed);
    if (ec == std::errc() && ptr == end) return seed;  // digits only: no sign, no spaces
  }
  Fail(sec.Key("seed"), node,
       fmt::format("expected an integer 0..{} (TOML's integers end at {}: write a larger seed "
                   "as a string, \"{}\"), got {}",
                   std::numeric_limits<uint64_t>::max(), std::numeric_limits<int64_t>::max(),
                   std::numeric_limits<uint64_t>::max(), Got(*node)));
}

double Loader::ReadDouble(const Section& sec, std::string_view key, double fallback) const {
  const toml::node* node = sec.Get(key);
  if (node == nullptr) return fallback;
  if (const auto* v = node->as_integer()) return static_cast<double>(v->get());
  const auto* v = node->as_floating_point();
  if (v == nullptr || !std::isfinite(v->get())) {
    Fail(sec.Key(key), node, fmt::format("expected a number, got {}", Got(*node)));
  }
  return v->get();
}

template <typename Parse>
int64_t Loader::ReadQuantity(const toml::node& node, const std::string& key, Bound bound,
                             std::string_view noun, std::string_view example,
                             std::string_view units, Parse parse) const {
  const std::string adjective = bound == Bound::kPositive ? "positive" : "non-negative";
  const std::string expected =
      fmt::format("expected a {} {} such as \"{}\" (units: {})", adjective, noun, example, units);
  const auto* text = node.as_string();
  if (text == nullptr) {
    if (node.is_integer() || node.is_floating_point()) {
      Fail(key, &node,
           fmt::format("{}, got {}: a bare number needs a unit, e.g. \"{}{}\"", expected, Got(node),
                       Got(node), example.substr(example.find_first_not_of("0123456789."))));
    }
    Fail(key, &node, fmt::format("{}, got {}", expected, Got(node)));
  }
  std::string beyond;
  const std::optional<int64_t> value = parse(text->get(), &beyond);
  if (!beyond.empty()) {
    Fail(key, &node,
         fmt::format("expected a {} {} of {}, got {}", adjective, noun, beyond, Got(node)));
  }
  if (!value || *value < 0 || (bound == Bound::kPositive && *value == 0)) {
    Fail(key, &node, fmt::format("{}, got {}", expected, Got(node)));
  }
  return *value;
}

Time Loader::ReadTime(const Section& sec, std::string_view key, Time fallback, Bound bound) const {
  const toml::node* node = sec.Get(key);
  if (node == nullptr) return fallback;
  return ReadQuantity(*node, sec.Key(key), bound, "time", "10us", "ps ns us ms s", ParseTime);
}

Rate Loader::ReadRate(const Section& sec, std::string_view key, Rate fallback, Bound bound) const {
  const toml::node* node = sec.Get(key);
  if (node == nullptr) return fallback;
  return ReadQuantity(*node, sec.Key(key), bound, "rate", "40Gbps", "bps Kbps Mbps Gbps Tbps",
                      ParseRate);
}

Bytes Loader::ReadSize(const Section& sec, std::string_view key, Bytes fallback,
                       Bound bound) const {
  const toml::node* node = sec.Get(key);
  if (node == nullptr) return fallback;
  return ReadQuantity(*node, sec.Key(key), bound, "size", "5KB", "B KB MB GB KiB MiB GiB",
                      ParseSize);
}

std::optional<Bytes> Loader::ReadSizeOrWord(const Section& sec, std::string_view key,
                                            std::string_view word, Bound bound,
                                            std::string_view words) const {
  const toml::node* node = sec.Get(key);
  if (const auto* v = node ? node->as_string() : nullptr; v && v->get() == word) {
    return std::nullopt;
  }
  const std::string adjective = bound == Bound::kPositive ? "positive" : "non-negative";
  const auto* text = node->as_string();
  std::string beyond;
  std::optional<Bytes> value = text ? ParseSize(text->get(), &beyond) : std::nullopt;
  if (!beyond.empty()) {
    Fail(sec.Key(key), node,
         fmt::format("expected a {} size of {}, got {}", adjective, beyond, Got(*node)));
  }
  if (!value || *value < 0 || (bound == Bound::kPositive && *value == 0)) {
    Fail(sec.Key(key), node,
         fmt::format("expected {} or a {} size such as \"24.47KB\" (units: B KB MB GB KiB "
                     "MiB GiB), got {}",
                     words.empty() ? fmt::format("\"{}\"", word) : std::string(words), adjective,
                     Got(*node)));
  }
  return value;
}

void Loader::ReadTopology(const Section& sec, TopologyConfig& topo) const {
  CheckKeys(sec, kTopologySchema);
  if (sec.Get("reconvergence") != nullptr) {
    topo.reconvergence = ReadTime(sec, "reconvergence", 0, Bound::kNonNegative);
  }
  topo.type = ReadString(sec, "type", topo.type, TopologyTypeNames());
  const TopologyType& type = *FindTopologyType(topo.type);
  if (!type.common_keys) {  // hpcc_file, simai_file: the file gives every node and link
    ReadTopologyFile(sec, topo);
    return;
  }
  const std::vector<const TopologyKey*> rows = RowsOf(type);
  for (const KeySchema& key : TopologySchemaRows()) {
    const toml::node* node = sec.Get(key.name);
    const bool takes = key.name == "type" || key.name == "reconvergence" ||
                       std::any_of(rows.begin(), rows.end(),
                                   [&](const TopologyKey* r) { return r->doc.name == key.name; });
    if (node != nullptr && !takes) {
      Fail(sec.Key(key.name), node,
           fmt::format("only used when topology.type = {}", TypesTaking(key.name)));
    }
  }
  std::vector<std::string> given;
  for (const TopologyKey* row : rows) {
    if (row->doc.name == "links") ReadLinks(sec, topo);  // custom's, read by hand: required
    if (sec.Get(row->doc.name) == nullptr) continue;
    given.emplace_back(row->doc.name);
    ReadTopologyKey(sec, *row, topo);
  }
  if (type.derive != nullptr) {
    if (const TopologyProblem p = type.derive(topo, given); !p.key.empty()) {
      Fail(sec.Key(p.key), sec.Get(p.key) != nullptr ? sec.Get(p.key) : sec.table, p.message);
    }
  }
  BuildTopology(topo, source_);
}

// One row's value, given in the file, into its field, as its type says.
void Loader::ReadTopologyKey(const Section& sec, const TopologyKey& row,
                             TopologyConfig& topo) const {
  const std::string_view name = row.doc.name;
  if (auto* field = std::get_if<int TopologyConfig::*>(&row.field)) {
    topo.*(*field) = static_cast<int>(ReadInt(sec, name, 0, row.min, row.max, row.expected));
  } else if (auto* quantity = std::get_if<int64_t TopologyConfig::*>(&row.field)) {
    const Bound bound = row.min > 0 ? Bound::kPositive : Bound::kNonNegative;
    topo.*(*quantity) =
        row.doc.type == "rate" ? ReadRate(sec, name, 0, bound) : ReadTime(sec, name, 0, bound);
  } else if (auto* number = std::get_if<double TopologyConfig::*>(&row.field)) {
    topo.*(*number) = ReadDouble(sec, name, 0);
    if (!(topo.*(*number) > 0)) {
      Fail(sec.Key(name), sec.Get(name),
           fmt::format("expected {}, got {}", row.expected, Got(*sec.Get(name))));
    }
  } else if (auto* choice = std::get_if<EnumField<TopologyConfig>>(&row.field)) {
    const std::vector<std::string_view> names(choice->names.begin(), choice->names.end());
    const std::string value = ReadString(sec, name, std::string(names[choice->get(topo)]), names);
    choice->set(topo,
                static_cast<int>(std::find(names.begin(), names.end(), value) - names.begin()));
  }
}

void Loader::ReadLinks(const Section& sec, TopologyConfig& topo) const {
  const std::string key = sec.Key("links");
  const toml::node* node = sec.Get("links");
  if (node == nullptr) {
    Fail(key, sec.table,
         "required when topology.type = \"custom\": an array of links such as "
         "[[\"h0\", \"s0\"], [\"s0\", \"s1\", \"100Gbps\", \"2us\"]]");
  }
  const toml::array* links = node->as_array();
  if (links == nullptr) {
    Fail(key, node,
         fmt::format("expected an array of links such as [[\"h0\", \"s0\"]], got {}", Got(*node)));
  }
  const std::string nodes_text = fmt::format(
      "h0..h{}{}", topo.hosts - 1,
      topo.switches > 0 ? fmt::format(" or s0..s{}", topo.switches - 1) : std::string());
  std::vector<int> host_links(topo.hosts, 0);  // each host's links so far (its NIC's ports)
  topo.links.clear();
  for (size_t i = 0; i < links->size(); ++i) {
    const toml::node& item = *links->get(i);
    const std::string item_key = fmt::format("{}[{}]", key, i);
    const toml::array* fields = item.as_array();
    if (fields == nullptr || fields->size() < 2 || fields->size() > 4) {
      Fail(item_key, &item,
           fmt::format("expected [\"A\", \"B\"] or [\"A\", \"B\", RATE, DELAY] with A and B node "
                       "names ({}), got {}",
                       nodes_text, Got(item)));
    }
    int ends[2];
    for (int e = 0; e < 2; ++e) {
      const toml::node& end = *fields->get(e);
      const auto* name = end.as_string();
      const std::optional<int> id = name != nullptr ? topo.node_named(name->get()) : std::nullopt;
      if (!id) {
        Fail(item_key, &end,
             fmt::format("unknown node {}: expected {} (hosts = {}, switches = {})", Got(end),
                         nodes_text, topo.hosts, topo.switches));
      }
      ends[e] = *id;
    }
    if (ends[0] == ends[1]) {
      Fail(item_key, &item, fmt::format("a link cannot join {} to itself", Got(*fields->get(0))));
    }
    LinkSpec link{ends[0], ends[1], topo.link_rate, topo.link_delay};
    if (fields->size() >= 3) {
      link.rate = ReadQuantity(*fields->get(2), item_key + "[2]", Bound::kPositive, "rate",
                               "100Gbps", "bps Kbps Mbps Gbps Tbps", ParseRate);
    }
    if (fields->size() >= 4) {
      link.delay = ReadQuantity(*fields->get(3), item_key + "[3]", Bound::kPositive, "time", "2us",
                                "ps ns us ms s", ParseTime);
    }
    for (int e : ends) {
      if (!topo.is_host(e)) continue;
      if (++host_links[e] > kMaxHostPorts) {
        Fail(item_key, &item,
             fmt::format("host h{} has more than {} links (a NIC has at most {} ports)", e,
                         kMaxHostPorts, kMaxHostPorts));
      }
    }
    topo.links.push_back(link);
  }
  for (int h = 0; h < topo.hosts; ++h) {
    if (host_links[h] == 0) {
      Fail(key, node,
           fmt::format("host h{} has no link; every host needs at least one (hosts = {})", h,
                       topo.hosts));
    }
  }
}

template <class Config>
void Loader::ReadRows(
    const Section& sec, std::span<const KeyRow<Config>> rows, Config& config,
    const std::function<void(const KeyRow<std::type_identity_t<Config>>&)>& then) const {
  for (const KeyRow<Config>& row : rows) {
    ReadRow(sec, row, config);
    if (then) then(row);
  }
}

// One row's value, when given, into its field, as its type says.
template <class Config>
void Loader::ReadRow(const Section& sec, const KeyRow<Config>& row, Config& config,
                     std::optional<int64_t> max) const {
  const std::string_view name = row.doc.name;
  const toml::node* node = sec.Get(name);
  if (node == nullptr) return;
  const int64_t hi = max.value_or(row.max);
  const std::string_view integer = row.expected.empty() ? "an integer" : row.expected;
  if (auto* field = std::get_if<int Config::*>(&row.field)) {
    config.*(*field) = static_cast<int>(ReadInt(sec, name, config.*(*field), row.min, hi, integer));
  } else if (auto* quantity = std::get_if<int64_t Config::*>(&row.field)) {
    int64_t& value = config.*(*quantity);
    if (row.doc.type == "integer") {
      value = ReadInt(sec, name, value, row.min, hi, integer);
      return;
    }
    const Bound bound = row.min > 0 ? Bound::kPositive : Bound::kNonNegative;
    value = row.doc.type == "size"   ? ReadSize(sec, name, value, bound)
            : row.doc.type == "rate" ? ReadRate(sec, name, value, bound)
                                     : ReadTime(sec, name, value, bound);
    if (row.max > 0 && value > row.max) {
      Fail(sec.Key(name), node, fmt::format("expected {}", row.expected));
    }
  } else if (auto* number = std::get_if<double Config::*>(&row.field)) {
    const double value = ReadDouble(sec, name, config.*(*number));
    if (row.valid != nullptr && !row.valid(value)) {
      Fail(sec.Key(name), node,
           fmt::format("expected {}, got {}", row.expected,
                       row.shows_number ? TomlFloat(value) : Got(*node)));
    }
    config.*(*number) = value;
  } else if (auto* flag = std::get_if<bool Config::*>(&row.field)) {
    config.*(*flag) = ReadBool(sec, name, config.*(*flag));
  } else if (auto* text = std::get_if<std::string Config::*>(&row.field)) {
    config.*(*text) = ReadString(sec, name, config.*(*text));
  } else if (auto* choice = std::get_if<EnumField<Config>>(&row.field)) {
    const std::vector<std::string_view> names(choice->names.begin(), choice->names.end());
    const std::string value = ReadString(sec, name, std::string(names[choice->get(config)]), names);
    choice->set(config,
                static_cast<int>(std::find(names.begin(), names.end(), value) - names.begin()));
  }
}

void Loader::ReadSwitch(const Section& sec, SwitchConfig& sw) const {
  CheckKeys(sec, kSwitchSchema);
  ReadRows(sec, SwitchKeys(), sw, [&](const KeyRow<SwitchConfig>& row) {
    if (row.doc.name == "pfc") ReadPfc(Sub(sec, "pfc"), sw.pfc);
    if (row.doc.name == "ecn") ReadEcn(Sub(sec, "ecn"), sw.ecn);
  });
}

void Loader::ReadPfc(const Section& pfc, PfcConfig& p) const {
  CheckKeys(pfc, kPfcSchema);
  ReadRows(pfc, PfcKeys(), p, [&](const KeyRow<PfcConfig>& row) {
    const std::string_view name = row.doc.name;
    if (name == "threshold" && pfc.Get("threshold") != nullptr) {
      std::optional<Bytes> t = ReadSizeOrWord(pfc, "threshold", "dynamic", Bound::kPositive);
      p.dynamic_threshold = !t.has_value();
      p.static_threshold = t.value_or(0);
    } else if (const toml::node* node = pfc.Get("headroom"); name == "headroom" && node) {
      using Rule = PfcConfig::HeadroomRule;
      if (const auto* word = node->as_string(); word && word->get() == "hpcc") {
        p.headroom_rule = Rule::kHpcc;
      } else {
        std::optional<Bytes> h =
            ReadSizeOrWord(pfc, "headroom", "auto", Bound::kNonNegative, "\"auto\", \"hpcc\"");
        p.headroom_rule = h.has_value() ? Rule::kFixed : Rule::kAuto;
        p.headroom = h.value_or(0);
      }
    } else if (name == "by_rate") {
      for (const Section& r : ReadByRate(pfc, {"rate", "alpha"})) {
        PfcConfig::ForRate f;
        f.rate = ReadRate(r, "rate", 0, Bound::kPositive);
        f.alpha = ReadDouble(r, "alpha", 0);
        if (!(f.alpha > 0)) {
          Fail(r.Key("alpha"), r.Get("alpha"),
               fmt::format("expected a number > 0 (the dynamic-threshold factor), got {}",
                           TomlFloat(f.alpha)));
        }
        p.by_rate.push_back(f);
      }
    } else if (name == "watchdog") {
      const Section wd = Sub(pfc, "watchdog");
      if (wd.table == nullptr) return;
      CheckKeys(wd, kWatchdogSchema);
      p.watchdog.enabled = true;  // the table alone turns it on
      ReadRows(wd, PfcWatchdogKeys(), p.watchdog);
    }
  });
  if (p.watchdog.enabled && !p.enabled) {
    // A watchdog watches PAUSE, which a switch without PFC never sends: it would do nothing.
    Fail(pfc.Key("watchdog"), pfc.Get("watchdog"),
         "a PFC watchdog needs PFC, and switch.pfc.enabled is false: enable PFC or remove the "
         "watchdog");
  }
}

void Loader::ReadEcn(const Section& ecn, EcnConfig& e) const {
  CheckKeys(ecn, kEcnSchema);
  ReadRows(ecn, EcnKeys(), e, [&](const KeyRow<EcnConfig>& row) {
    if (row.doc.name == "pmax" && e.kmin > e.kmax) {
      const bool blame_kmin = ecn.Get("kmin") != nullptr;
      const std::string key = ecn.Key(blame_kmin ? "kmin" : "kmax");
      Fail(key, ecn.Get(blame_kmin ? "kmin" : "kmax"),
           fmt::format("expected kmin <= kmax, got kmin = \"{}\" > kmax = \"{}\"",
                       FormatSize(e.kmin), FormatSize(e.kmax)));
    }
    if (row.doc.name != "by_rate") return;
    for (const Section& r : ReadByRate(ecn, {"rate", "kmin", "kmax", "pmax"})) {
      EcnConfig::ForRate f;
      f.rate = ReadRate(r, "rate", 0, Bound::kPositive);
      f.kmin = ReadSize(r, "kmin", 0, Bound::kNonNegative);
      f.kmax = ReadSize(r, "kmax", 0, Bound::kPositive);
      f.pmax = ReadDouble(r, "pmax", 0);
      if (!(f.pmax > 0 && f.pmax <= 1)) {
        Fail(r.Key("pmax"), r.Get("pmax"), "expected a marking probability in (0, 1]");
      }
      if (f.kmin > f.kmax) Fail(r.Key("kmin"), r.Get("kmin"), "expected kmin <= kmax");
      e.by_rate.push_back(f);
    }
  });
}

std::vector<Section> Loader::ReadByRate(const Section& sec,
                                        std::vector<std::string_view> keys) const {
  std::vector<Section> tables;
  const toml::node* node = sec.Get("by_rate");
  if (node == nullptr) return tables;
  const std::string fields = fmt::format("{}", fmt::join(keys, ", "));
  const toml::array* list = node->as_array();
  if (list == nullptr) {
    Fail(sec.Key("by_rate"), node,
         fmt::format("expected an array of tables {{{}}}, got {}", fields, Got(*node)));
  }
  for (size_t i = 0; i < list->size(); ++i) {
    const Section r{list->get(i)->as_table(), fmt::format("{}[{}]", sec.Key("by_rate"), i)};
    if (r.table == nullptr) {
      Fail(r.path, list->get(i), fmt::format("expected a table, got {}", Got(*list->get(i))));
    }
    for (auto&& [key, value] : *r.table) {
      if (std::find(keys.begin(), keys.end(), key.str()) == keys.end()) {
        Fail(r.Key(key.str()), &value, fmt::format("unknown key (known keys: {})", fields));
      }
    }
    for (std::string_view required : keys) {
      if (r.Get(required) == nullptr) Fail(r.Key(required), r.table, "required");
    }
    tables.push_back(r);
  }
  return tables;
}

void Loader::ReadHost(const Section& sec, HostConfig& host) const {
  CheckKeys(sec, kHostSchema);
  ReadRows(sec, HostKeys(), host);
}

void Loader::ReadWire(const Section& sec, WireFormat& wire) const {
  CheckKeys(sec, kWireSchema);
  ReadRows(sec, WireKeys(), wire);
}

void Loader::ReadCc(const Section& sec, CcConfig& cc) const {
  const std::vector<std::string> algorithms = CcAlgorithmNames();
  cc.algorithm = ReadString(sec, "algorithm", cc.algorithm,
                            std::vector<std::string_view>(algorithms.begin(), algorithms.end()));
  // The profile is one of the algorithm's; leaving it out means the algorithm's default.
  const CcAlgorithm& algorithm = *FindCcAlgorithm(cc.algorithm);
  std::vector<std::string_view> profiles;
  for (const CcProfileInfo& p : algorithm.profiles) profiles.push_back(p.name);
  // "none" has no parameters: any profile is accepted and means nothing.
  const bool known =
      profiles.empty() || std::find(profiles.begin(), profiles.end(), cc.profile) != profiles.end();
  cc.profile = ReadString(sec, "profile", known ? cc.profile : std::string(profiles[0]), profiles);
  if (sec.table == nullptr) return;
  for (auto&& [key, value] : *sec.table) {
    if (key.str() == "algorithm" || key.str() == "profile") continue;
    const std::string full = sec.Key(key.str());
    CcConfig::Param param;
    param.value = ParamText(value);
    if (FromOverride(full)) {
      param.given_as = Where(full, nullptr);
    } else {
      param.line = static_cast<int>(value.source().begin.line);
    }
    cc.params[std::string(key.str())] = param;
  }
}

std::vector<std::string> Loader::ReadStrings(
    const Section& sec, std::string_view name, const std::string& expected,
    const std::function<std::string(const std::string&)>& check) const {
  std::vector<std::string> out;
  const toml::node* node = sec.Get(name);
  if (node == nullptr) return out;
  const std::string key = sec.Key(name);
  const toml::array* list = node->as_array();
  if (list == nullptr) Fail(key, node, fmt::format("{}, got {}", expected, Got(*node)));
  for (size_t i = 0; i < list->size(); ++i) {
    const toml::node& item = *list->get(i);
    const auto* text = item.as_string();
    const std::string problem = text ? check(text->get()) : expected;
    if (!problem.empty()) {
      Fail(fmt::format("{}[{}]", key, i), &item, fmt::format("{}, got {}", problem, Got(item)));
    }
    out.push_back(text->get());
  }
  return out;
}

void Loader::ReadOutput(const Section& sec, OutputConfig& output) const {
  CheckKeys(sec, kOutputSchema);
  ReadRows(sec, OutputKeys(), output, [&](const KeyRow<OutputConfig>& row) {
    if (row.doc.name != "timeseries") return;  // pcap: ReadPcap, which needs the topology
    const std::string expected =
        "expected an array of any of \"rate\", \"queue\", \"pfc\", \"throughput\"";
    ReadStrings(sec, "timeseries", expected, [&](const std::string& value) {
      if (value == "rate") {
        output.ts_rate = true;
      } else if (value == "queue") {
        output.ts_queue = true;
      } else if (value == "pfc") {
        output.ts_pfc = true;
      } else if (value == "throughput") {
        output.ts_throughput = true;
      } else {
        return expected;
      }
      return std::string();
    });
  });
  // The detector looks once per deadlock_time: a time far below any PAUSE's would spend the run
  // looking (1 ps made a 1 MB flow run for hours), and report pauses that are about to clear.
  constexpr Time kShortestDeadlockTime = 1 * kMicrosecond;
  if (output.deadlock_time > 0 && output.deadlock_time < kShortestDeadlockTime) {
    Fail(sec.Key("deadlock_time"), sec.Get("deadlock_time"),
         fmt::format("expected \"0us\" (not looked for) or at least \"1us\", got \"{}\"",
                     FormatTime(output.deadlock_time)));
  }
}

void Loader::ReadPcap(const Section& sec, const Topology& topo, PcapConfig& pcap) const {
  if (sec.table == nullptr) return;
  CheckKeys(sec, kPcapSchema);
  ReadRows(sec, PcapKeys(), pcap, [&](const KeyRow<PcapConfig>& row) {
    if (row.doc.name == "points") {
      ReadPcapPoints(sec, topo, pcap);
    } else if (row.doc.name == "kinds" && sec.Get("kinds") != nullptr) {
      pcap.kinds = 0;
      ReadStrings(
          sec, "kinds", "expected an array of any of \"data\", \"ack\", \"nack\", \"cnp\", \"pfc\"",
          [&](const std::string& k) {
            const auto it = std::find(kPcapKinds.begin(), kPcapKinds.end(), k);
            if (it == kPcapKinds.end()) {
              return std::string("expected one of \"data\", \"ack\", \"nack\", \"cnp\", \"pfc\"");
            }
            pcap.kinds |= 1u << (it - kPcapKinds.begin());
            return std::string();
          });
      if (pcap.kinds == 0) {
        Fail(sec.Key("kinds"), sec.Get("kinds"),
             "expected at least one of \"data\", \"ack\", \"nack\", \"cnp\", \"pfc\", got [] "
             "(a capture of nothing); leave the key out for every kind");
      }

    } else if (row.doc.name == "until" && pcap.until <= pcap.from) {
      Fail(sec.Key("until"), sec.Get("until"),
           fmt::format("expected a time after from (\"{}\"), got \"{}\"", FormatTime(pcap.from),
                       FormatTime(pcap.until)));
    }
  });
  if (pcap.points.empty()) {
    Fail(sec.Key("points"), sec.Get("points"),
         "required: where to capture, such as points = [\"h1\", \"s0:3\"]");
  }
}

void Loader::ReadPcapPoints(const Section& sec, const Topology& topo, PcapConfig& pcap) const {
  // Ports per node, in cabling order (as the network numbers them).
  std::vector<int> ports(topo.num_nodes(), 0);
  for (const LinkSpec& l : topo.links) {
    ++ports[l.a];
    ++ports[l.b];
  }
  pcap.points = ReadStrings(
      sec, "points", "expected an array of points such as \"h1\" or \"s0:3\"",
      [&](const std::string& p) {
        int node = -1;
        int port = 0;
        unsigned long index = 0;
        char extra = 0;
        if (std::sscanf(p.c_str(), "h%lu%c", &index, &extra) == 1 &&
            index < static_cast<unsigned long>(topo.hosts)) {
          node = static_cast<int>(index);
        } else if (unsigned long sw_port = 0;
                   std::sscanf(p.c_str(), "s%lu:%lu%c", &index, &sw_port, &extra) == 2 &&
                   index < static_cast<unsigned long>(topo.switches)) {
          node = topo.hosts + static_cast<int>(index);
          if (sw_port >= static_cast<unsigned long>(ports[node])) {
            return fmt::format("switch s{} has ports 0 to {}", index, ports[node] - 1);
          }
          port = static_cast<int>(sw_port);
        }
        if (node < 0 || p.find_first_of(" +-") != std::string::npos) {
          return fmt::format(
              "expected a host h0 to h{} or a switch port such as s0:3 (switches s0 "
              "to s{})",
              topo.hosts - 1, topo.switches - 1);
        }
        pcap.taps.emplace_back(node, port);
        return std::string();
      });
}

std::vector<Section> Loader::TablesOf(const Section& root, std::string_view key,
                                      const TableSchema& schema) const {
  std::vector<Section> sections;
  const toml::node* node = root.Get(key);
  if (node == nullptr) return sections;
  const toml::array* tables = node->as_array();
  const std::string path = root.Key(key);  // "flow", or "job[0].layer" inside a [[job]]
  if (tables == nullptr) {
    Fail(path, node,
         fmt::format("expected [[{}]] tables (an array of tables), got {}", path, Got(*node)));
  }
  for (size_t i = 0; i < tables->size(); ++i) {
    Section sec{tables->get(i)->as_table(), fmt::format("{}[{}]", path, i)};
    if (sec.table == nullptr) {
      Fail(sec.path, tables->get(i), fmt::format("expected a table, got {}", Got(*tables->get(i))));
    }
    CheckKeys(sec, schema);
    sections.push_back(sec);
  }
  return sections;
}

int Loader::ReadHostNode(const toml::node& item, const std::string& key,
                         const Topology& topo) const {
  if (const auto* name = item.as_string()) {
    const std::optional<int> id = topo.node_named(name->get());
    if (!id || !topo.is_host(*id)) {
      Fail(key, &item,
           fmt::format("expected a host h0..h{} or its index 0..{}, got {}", topo.hosts - 1,
                       topo.hosts - 1, Got(item)));
    }
    return *id;
  }
  return static_cast<int>(ReadIntNode(item, key, 0, topo.hosts - 1, "a host index"));
}

std::vector<int> Loader::ReadNodes(const Section& sec, std::string_view key, const Topology& topo,
                                   bool hosts) const {
  const toml::node* node = sec.Get(key);
  const std::string what =
      hosts ? fmt::format("a host h0..h{}", topo.hosts - 1)
            : fmt::format("a node h0..h{} or s0..s{}", topo.hosts - 1, topo.switches - 1);
  std::vector<const toml::node*> items;
  if (const toml::array* list = node->as_array()) {
    for (size_t i = 0; i < list->size(); ++i) items.push_back(list->get(i));
    if (items.empty()) Fail(sec.Key(key), node, fmt::format("expected {} or a list of them", what));
  } else {
    items.push_back(node);
  }
  std::vector<int> ids;
  for (const toml::node* item : items) {
    if (hosts && item->is_integer()) {
      ids.push_back(ReadHostNode(*item, sec.Key(key), topo));
      continue;
    }
    const auto* name = item->as_string();
    const std::optional<int> id = name != nullptr ? topo.node_named(name->get()) : std::nullopt;
    if (!id || (hosts && !topo.is_host(*id))) {
      Fail(sec.Key(key), item, fmt::format("expected {}, got {}", what, Got(*item)));
    }
    ids.push_back(*id);
  }
  return ids;
}

void Loader::ReadRoutes(const Section& root, Scenario& s) const {
  const Topology& topo = s.topology;
  std::vector<std::vector<int>> cabled(topo.num_nodes());
  for (const LinkSpec& l : topo.links) {
    cabled[l.a].push_back(l.b);
    cabled[l.b].push_back(l.a);
  }
  // The [[route]] that set each (switch, destination), to refuse a second.
  std::map<std::pair<int, int>, std::string> routed;
  for (const Section& sec : TablesOf(root, "route", kRouteSchema)) {
    for (std::string_view required : {"switch", "dst", "next"}) {
      if (sec.Get(required) == nullptr) {
        Fail(sec.Key(required), sec.table, "required in every [[route]]");
      }
    }
    const toml::node* sw = sec.Get("switch");
    const auto* sw_name = sw->as_string();
    const std::optional<int> sw_id =
        sw_name != nullptr ? topo.node_named(sw_name->get()) : std::nullopt;
    if (!sw_id || topo.is_host(*sw_id)) {
      Fail(sec.Key("switch"), sw,
           fmt::format("expected a switch s0..s{}, got {}", topo.switches - 1, Got(*sw)));
    }
    StaticRoute r;
    r.sw = *sw_id;
    r.dsts = ReadNodes(sec, "dst", topo, true);
    r.next = ReadNodes(sec, "next", topo, false);
    for (int dst : r.dsts) {
      const auto [at, added] = routed.emplace(std::pair{r.sw, dst}, sec.path);
      if (!added) {
        Fail(sec.Key("dst"), sec.Get("dst"),
             fmt::format("packets to {} at {} are routed by {} already: one [[route]] per switch "
                         "and destination",
                         topo.node_name(dst), topo.node_name(r.sw), at->second));
      }
    }
    for (int next : r.next) {
      if (std::find(cabled[r.sw].begin(), cabled[r.sw].end(), next) == cabled[r.sw].end()) {
        Fail(sec.Key("next"), sec.Get("next"),
             fmt::format("{} is not cabled to {}: a next hop must be a neighbour",
                         topo.node_name(next), topo.node_name(r.sw)));
      }
      // A host forwards nothing: a packet handed to one that is not its destination is lost.
      if (topo.is_host(next) &&
          std::any_of(r.dsts.begin(), r.dsts.end(), [&](int dst) { return dst != next; })) {
        Fail(sec.Key("next"), sec.Get("next"),
             fmt::format("{} is a host, not the destination of every packet this route sends "
                         "there: a next hop must be a switch or the destination itself",
                         topo.node_name(next)));
      }
    }
    s.routes.push_back(std::move(r));
  }
}

void Loader::ReadEvents(const Section& root, Scenario& s) const {
  const Topology& topo = s.topology;
  // Per event, the line of its `at` (for the checks made once they are in time order).
  std::vector<const Section*> where;
  const std::vector<Section> sections = TablesOf(root, "event", kEventSchema);
  for (const Section& sec : sections) {
    for (std::string_view required : {"at", "kind"}) {
      if (sec.Get(required) == nullptr) {
        Fail(sec.Key(required), sec.table, "required in every [[event]]");
      }
    }
    NetworkEvent e;
    ReadRow(sec, RowNamed(EventKeys(), "kind"), e);
    ReadRow(sec, RowNamed(EventKeys(), "at"), e);
    if (e.at >= s.duration) {
      Fail(sec.Key("at"), sec.Get("at"),
           fmt::format("\"{}\" is not before the run ends (duration \"{}\")", FormatTime(e.at),
                       FormatTime(s.duration)));
    }
    if (e.kind == NetworkEvent::Kind::kPauseStorm) {
      ReadPauseStorm(sec, s, e);
    } else {
      ReadLinkEvent(sec, s, e);
    }
    s.events.push_back(e);
    where.push_back(&sec);
  }
  std::vector<size_t> order(s.events.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return s.events[a].at < s.events[b].at; });
  // A cable goes down only while up and up only while down, in time order.
  std::vector<char> down(topo.links.size(), 0);
  const Section* first_link = nullptr;
  for (size_t i : order) {
    const NetworkEvent& e = s.events[i];
    if (!e.changes_links()) continue;
    if (first_link == nullptr) first_link = where[i];
    const bool going_down = e.kind == NetworkEvent::Kind::kLinkDown;
    for (size_t c : CablesOf(e, topo.links)) {
      if ((down[c] != 0) == going_down) {
        Fail(where[i]->Key("at"), where[i]->Get("at"),
             fmt::format("at \"{}\" the cable{} between {} and {} is {} already", FormatTime(e.at),
                         e.cable >= 0 ? fmt::format(" {}", e.cable) : "", topo.node_name(e.a),
                         topo.node_name(e.b), going_down ? "down" : "up"));
      }
      down[c] = going_down ? 1 : 0;
    }
  }
  if (first_link != nullptr && s.topology.reconvergence < 0) {
    // At the first link event's line: the file has no [topology] key to point at.
    Fail("topology.reconvergence", first_link->Get("kind"),
         fmt::format("required with link_down and link_up events ({} is one): how long the "
                     "switches take to route around a failed link, e.g. \"1ms\"",
                     first_link->path));
  }
  std::vector<NetworkEvent> sorted;
  for (size_t i : order) sorted.push_back(s.events[i]);
  s.events = std::move(sorted);
}

void Loader::ReadPauseStorm(const Section& sec, Scenario& s, NetworkEvent& e) const {
  OnlyFor(sec, {"link", "cable"}, "kind", "link_down\" or \"link_up");
  for (std::string_view required : {"host", "until"}) {
    if (sec.Get(required) == nullptr) {
      Fail(sec.Key(required), sec.table, "required in a pause_storm [[event]]");
    }
  }
  const std::vector<int> host = ReadNodes(sec, "host", s.topology, true);
  if (host.size() != 1) Fail(sec.Key("host"), sec.Get("host"), "expected one host");
  e.host = host[0];
  ReadRow(sec, RowNamed(EventKeys(), "until"), e);
  if (e.until <= e.at) {
    Fail(sec.Key("until"), sec.Get("until"),
         fmt::format("expected a time after at = \"{}\", got \"{}\"", FormatTime(e.at),
                     FormatTime(e.until)));
  }
  for (const NetworkEvent& other : s.events) {
    if (!other.changes_links() && other.host == e.host && other.at < e.until &&
        e.at < other.until) {
      Fail(sec.Key("at"), sec.Get("at"),
           fmt::format("{} already storms from \"{}\" to \"{}\"", s.topology.node_name(e.host),
                       FormatTime(other.at), FormatTime(other.until)));
    }
  }
}

void Loader::ReadLinkEvent(const Section& sec, Scenario& s, NetworkEvent& e) const {
  const Topology& topo = s.topology;
  OnlyFor(sec, {"host", "until"}, "kind", "pause_storm");
  if (sec.Get("link") == nullptr) {
    Fail(sec.Key("link"), sec.table, "required in a link_down or link_up [[event]]");
  }
  const std::vector<int> ends = ReadNodes(sec, "link", topo, false);
  if (ends.size() != 2 || ends[0] == ends[1]) {
    Fail(sec.Key("link"), sec.Get("link"), "expected two nodes, [\"s0\", \"s1\"]");
  }
  e.a = ends[0];
  e.b = ends[1];
  const int cables = static_cast<int>(CablesOf(e, topo.links).size());  // every one: cable -1
  if (cables == 0) {
    Fail(sec.Key("link"), sec.Get("link"),
         fmt::format("{} and {} are not cabled", topo.node_name(e.a), topo.node_name(e.b)));
  }
  if (sec.Get("cable") != nullptr) {
    e.cable = static_cast<int>(ReadInt(sec, "cable", 0, 0, cables - 1,
                                       fmt::format("a cable between {} and {} (counted from 0)",
                                                   topo.node_name(e.a), topo.node_name(e.b))));
  }
}

void Loader::ReadFlows(const Section& root, Scenario& s) {
  const std::vector<Section> tables = TablesOf(root, "flow", kFlowSchema);
  const KeyRow<FlowSpec>& src_row = RowNamed(FlowKeys(), "src");
  const KeyRow<FlowSpec>& dst_row = RowNamed(FlowKeys(), "dst");
  const KeyRow<FlowSpec>* const plain[] = {&RowNamed(FlowKeys(), "size"),
                                           &RowNamed(FlowKeys(), "start"),
                                           &RowNamed(FlowKeys(), "priority")};
  std::unordered_map<std::string, uint32_t> by_id;  // [[flow]] id -> flow index
  std::vector<Waiting> waiting;                     // the flows with `after`
  for (size_t i = 0; i < tables.size(); ++i) {
    const Section& f = tables[i];
    for (std::string_view required : {"src", "dst", "size"}) {
      if (f.Get(required) == nullptr) {
        Fail(f.Key(required), f.table, "required in every [[flow]]");
      }
    }
    FlowSpec flow;
    flow.src = ReadHostNode(*f.Get(src_row.doc.name), f.Key(src_row.doc.name), s.topology);
    flow.dst = ReadHostNode(*f.Get(dst_row.doc.name), f.Key(dst_row.doc.name), s.topology);
    if (flow.src == flow.dst) {
      Fail(f.Key("dst"), f.Get("dst"),
           fmt::format("expected a host other than src, got {} == src", flow.dst));
    }
    for (const KeyRow<FlowSpec>* row : plain) ReadRow(f, *row, flow);
    if (f.Get("tag") != nullptr) {
      try {
        flow.tag = s.tags.Index(ReadTag(f));
      } catch (const InputError& e) {
        Fail(f.Key("tag"), f.Get("tag"), e.what());
      }
    }
    flow.dport =
        static_cast<uint16_t>(ReadInt(f, "dport", flow.dport, 0, UINT16_MAX, "a UDP port number"));
    if (f.Get("rate") != nullptr) {
      const CcAlgorithm* algorithm = FindCcAlgorithm(s.cc.algorithm);
      if (algorithm != nullptr && !algorithm->reads_flow_rate) {
        std::vector<std::string_view> readers;
        for (const CcAlgorithm& a : CcAlgorithms()) {
          if (a.reads_flow_rate) readers.push_back(a.name);
        }
        Fail(f.Key("rate"), f.Get("rate"),
             fmt::format("cc.algorithm \"{}\" does not pin rates; only {} reads a flow's rate",
                         s.cc.algorithm, fmt::join(readers, ", ")));
      }
      s.flow_rates.resize(s.flows.size() + 1, 0);
      s.flow_rates.back() = ReadRate(f, "rate", 0, Bound::kPositive);
    }
    if (const toml::node* id_node = f.Get("id")) {
      const std::string id = ReadFlowId(f);
      const auto [it, fresh] = by_id.emplace(id, static_cast<uint32_t>(i));
      if (!fresh) {
        const std::string first = fmt::format("flow[{}].id", it->second);
        Fail(f.Key("id"), id_node,
             fmt::format("duplicate id {}: {} ({}) has it too", TomlQuote(id), first,
                         Where(first, flow_nodes_[it->second]->as_table()->get("id"))));
      }
      s.flow_ids.resize(i + 1);
      s.flow_ids[i] = id;
    }
    const toml::node* after = f.Get("after");
    const toml::array* after_list = after != nullptr ? after->as_array() : nullptr;
    if (after != nullptr && (after_list == nullptr || !after_list->empty())) {
      Waiting w{static_cast<uint32_t>(i), {}, 0};
      const toml::array* list = after_list;
      const std::string expected = "expected an array of flow ids such as [\"a\", \"b\"]";
      if (list == nullptr) {
        Fail(f.Key("after"), after, fmt::format("{}, got {}", expected, Got(*after)));
      }
      for (size_t k = 0; k < list->size(); ++k) {
        const toml::node& item = *list->get(k);
        const auto* text = item.as_string();
        const std::string key = fmt::format("{}[{}]", f.Key("after"), k);
        if (text == nullptr) Fail(key, &item, fmt::format("{}, got {}", expected, Got(item)));
        for (const auto& [name, node] : w.after) {
          if (name == text->get()) {
            Fail(key, &item, fmt::format("{} is named twice", TomlQuote(name)));
          }
        }
        w.after.emplace_back(text->get(), &item);
      }
      w.delay = ReadTime(f, "after_delay", 0, Bound::kNonNegative);
      waiting.push_back(std::move(w));
    } else if (const toml::node* delay = f.Get("after_delay")) {
      Fail(f.Key("after_delay"), delay,
           "only used with a non-empty after: the time from the last of its flows");
    }
    s.flows.push_back(flow);
    flow_nodes_.push_back(f.table);
  }
  if (!waiting.empty()) ResolveDependencies(waiting, by_id, s);
}

std::string Loader::ReadFlowId(const Section& sec) const {
  const std::string id = ReadString(sec, "id", "");
  const bool ok = !id.empty() && id.size() <= 64 && std::all_of(id.begin(), id.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' ||
           c == ':';
  });
  if (!ok) {
    Fail(sec.Key("id"), sec.Get("id"),
         fmt::format("expected 1 to 64 letters, digits, '_', '-', '.' or ':' such as \"step1\", "
                     "got {}",
                     TomlQuote(id)));
  }
  return id;
}

void Loader::ResolveDependencies(const std::vector<Waiting>& waiting,
                                 const std::unordered_map<std::string, uint32_t>& by_id,
                                 Scenario& s) const {
  auto name = [&](uint32_t id) {
    return id < s.flow_ids.size() && !s.flow_ids[id].empty() ? TomlQuote(s.flow_ids[id])
                                                             : fmt::format("flow[{}]", id);
  };
  std::vector<std::vector<uint32_t>> after(s.flows.size());
  std::vector<Time> delays(s.flows.size(), 0);
  std::vector<const toml::node*> after_node(s.flows.size(), nullptr);
  for (const Waiting& w : waiting) {
    const FlowSpec& flow = s.flows[w.flow];
    const std::string key = fmt::format("flow[{}].after", w.flow);
    after_node[w.flow] = flow_nodes_[w.flow]->as_table()->get("after");
    for (size_t k = 0; k < w.after.size(); ++k) {
      const auto& [id, node] = w.after[k];
      const std::string item_key = fmt::format("{}[{}]", key, k);
      const auto it = by_id.find(id);
      if (it == by_id.end()) {
        std::string hint;
        size_t best = 3;  // a near miss: at most two edits
        for (const auto& [known, index] : by_id) {
          const size_t d = EditDistance(id, known);
          if (d < best || (d == best && !hint.empty() && known < hint)) {
            best = d;
            hint = known;
          }
        }
        Fail(item_key, node,
             fmt::format("no [[flow]] has id {}{}", TomlQuote(id),
                         hint.empty() ? "" : fmt::format("; did you mean {}?", TomlQuote(hint))));
      }
      const uint32_t p = it->second;
      if (p == w.flow) Fail(item_key, node, fmt::format("{} is this flow itself", TomlQuote(id)));
      const FlowSpec& pre = s.flows[p];
      if (!ObservesCompletion(flow, pre)) {
        Fail(item_key, node,
             fmt::format("flow {} (h{} -> h{}) is neither sent nor received by this flow's source "
                         "h{}, which cannot see it complete; a flow may wait only for flows its "
                         "source host sends or receives",
                         TomlQuote(id), pre.src, pre.dst, flow.src));
      }
      after[w.flow].push_back(p);
    }
    delays[w.flow] = w.delay;
  }
  // A cycle: depth-first over the prerequisites, naming the first cycle found in flow order.
  enum : uint8_t { kNew, kOnPath, kDone };
  std::vector<uint8_t> state(s.flows.size(), kNew);
  std::vector<std::pair<uint32_t, size_t>> path;  // (flow, next prerequisite to visit)
  for (uint32_t root = 0; root < s.flows.size(); ++root) {
    if (state[root] != kNew) continue;
    path.push_back({root, 0});
    state[root] = kOnPath;
    while (!path.empty()) {
      auto& [flow, next] = path.back();
      if (next == after[flow].size()) {
        state[flow] = kDone;
        path.pop_back();
        continue;
      }
      const uint32_t p = after[flow][next++];
      if (state[p] == kOnPath) {
        size_t from = 0;
        while (path[from].first != p) ++from;
        std::vector<std::string> names;
        for (size_t k = from; k < path.size(); ++k) names.push_back(name(path[k].first));
        names.push_back(name(p));
        const uint32_t first = path[from].first;
        Fail(fmt::format("flow[{}].after", first), after_node[first],
             fmt::format("a cycle of flows that wait for each other (each waits for the next): "
                         "{}",
                         fmt::join(names, " -> ")));
      }
      if (state[p] == kNew) {
        state[p] = kOnPath;
        path.push_back({p, 0});
      }
    }
  }
  for (size_t id = 0; id < s.flows.size(); ++id) s.flow_after.Add(after[id], delays[id]);
}

void Loader::ReadRanks(const Section& sec, const Topology& topo, bool& all,
                       std::vector<int>& ranks) const {
  const toml::node* node = sec.Get("ranks");
  if (node == nullptr || (node->is_string() && node->as_string()->get() == "all")) {
    all = true;
  } else if (const toml::array* list = node->as_array()) {
    for (size_t k = 0; k < list->size(); ++k) {
      ranks.push_back(
          ReadHostNode(*list->get(k), fmt::format("{}[{}]", sec.Key("ranks"), k), topo));
    }
  } else {
    Fail(sec.Key("ranks"), node,
         fmt::format("expected \"all\" or an array of host indices such as [0, 1, 2, 3] (the "
                     "rank order), got {}",
                     Got(*node)));
  }
}

void Loader::ReadJobs(const Section& root, Scenario& s) {
  const std::vector<Section> tables = TablesOf(root, "job", kJobSchema);
  const CollectiveHosts where{s.topology.hosts, GpusPerServer(s.topology)};
  uint64_t total = s.flows.size();
  for (size_t i = 0; i < tables.size(); ++i) {
    const Section& sec = tables[i];
    JobConfig j;
    ReadRows(sec, JobKeys(), j, [&](const KeyRow<JobConfig>& row) {
      const std::string_view name = row.doc.name;
      if (name == "name" && sec.Get("name") != nullptr) {
        j.name = ReadTag(sec, "name");
      } else if (name == "ranks") {
        ReadRanks(sec, s.topology, j.all_ranks, j.ranks);
      } else if (name == "allreduce_algorithm" || name == "alltoall_algorithm") {
        std::string& value =
            name == "allreduce_algorithm" ? j.allreduce_algorithm : j.alltoall_algorithm;
        value = ReadString(sec, name, value, CollectiveAlgorithmNames());
      }
    });
    if (j.name.empty()) j.name = fmt::format("job{}", i);
    for (size_t k = 0; k < i; ++k) {
      if (s.jobs[k].name == j.name) {
        Fail(sec.Key("name"), sec.Get("name") ? sec.Get("name") : sec.table,
             fmt::format("\"{}\" is also job[{}]'s name", j.name, k));
      }
    }
    const std::vector<std::string_view> comms(kJobCommNames.begin(), kJobCommNames.end());
    const std::vector<std::string_view> groups(kJobGroupNames.begin(), kJobGroupNames.end());
    for (const Section& layer_sec : TablesOf(sec, "layer", kJobLayerSchema)) {
      JobLayer layer;
      layer.name = fmt::format("layer{}", j.layers.size());
      ReadRows(layer_sec, JobLayerKeys(), layer);
      for (size_t k = 0; k < layer.phases.size(); ++k) {
        JobPhase& p = layer.phases[k];
        const std::string prefix(Name(static_cast<JobPhaseKind>(k)));
        p.compute = ReadTime(layer_sec, prefix + "_compute", 0, Bound::kNonNegative);
        const std::string comm = ReadString(layer_sec, prefix + "_comm", "none", comms);
        if (comm != "none") {
          p.op = static_cast<CollectiveOp>(
              std::find(kCollectiveOpNames.begin(), kCollectiveOpNames.end(), comm) -
              kCollectiveOpNames.begin());
        }
        p.size = ReadSize(layer_sec, prefix + "_size", 0, Bound::kNonNegative);
        const std::string group =
            ReadString(layer_sec, prefix + "_group", std::string(Name(p.group)), groups);
        p.group =
            static_cast<JobGroup>(std::find(groups.begin(), groups.end(), group) - groups.begin());
      }
      j.layers.push_back(std::move(layer));
    }
    if (j.qps_per_connection == 0) j.qps_per_connection = s.host.qps_per_connection;
    if (const CollectiveProblem p = CheckJob(j, where); !p.key.empty()) {
      const toml::node* at = sec.table;
      Section key_sec = sec;
      std::string key = p.key;
      // A layer's key: point at that [[job.layer]] table.
      if (key.rfind("layer[", 0) == 0) {
        const size_t close = key.find(']');
        const size_t index = std::stoul(key.substr(6, close - 6));
        const toml::array* layers = sec.Get("layer")->as_array();
        key_sec = Section{layers->get(index)->as_table(), sec.Key(key.substr(0, close + 1))};
        key = key.substr(close + 2);
      }
      if (key_sec.Get(key) != nullptr) at = key_sec.Get(key);
      Fail(key_sec.Key(key), at != nullptr ? at : key_sec.table, p.message);
    }
    s.job_flow_counts.push_back(JobFlowCount(j, where));
    total += s.job_flow_counts.back();
    if (total > MaxFlowsInMemory()) {
      Fail(sec.path, sec.table,
           fmt::format("the scenario would have {:.1f} million flows with this job, and this "
                       "machine's memory ({:.1f} GiB) holds a run of at most {:.1f} million: "
                       "fewer iterations, micro-batches, layers or channels",
                       static_cast<double>(total) / 1e6,
                       static_cast<double>(PhysicalMemoryBytes()) / (1 << 30),
                       static_cast<double>(MaxFlowsInMemory()) / 1e6));
    }
    s.jobs.push_back(std::move(j));
    job_nodes_.push_back(sec.table);
  }
  if (!options_.build_collectives_and_jobs || s.jobs.empty()) return;
  ReserveCounted(s, s.job_flow_total(),
                 std::any_of(s.jobs.begin(), s.jobs.end(), [](const JobConfig& j) {
                   return j.connection == CollectiveConnection::kPersistent;
                 }));
  for (size_t i = 0; i < s.jobs.size(); ++i) {
    s.job_flows.push_back(
        ExpandJob(s.jobs[i], where, s.jobs[i].name, s.flows, s.flow_after, s.tags));
  }
}

void Loader::ReadCollectives(const Section& root, Scenario& s) {
  s.collective_begin = static_cast<uint32_t>(s.flows.size());
  const std::vector<Section> tables = TablesOf(root, "collective", kCollectiveSchema);
  const CollectiveHosts where{s.topology.hosts, GpusPerServer(s.topology)};
  uint64_t total = s.flows.size();
  std::vector<uint64_t> counts;  // each collective's flows
  for (size_t i = 0; i < tables.size(); ++i) {
    const Section& sec = tables[i];
    for (std::string_view required : {"op", "size"}) {
      if (sec.Get(required) == nullptr) {
        Fail(sec.Key(required), sec.table, "required in every [[collective]]");
      }
    }
    CollectiveConfig c;
    ReadRows(sec, CollectiveKeys(), c, [&](const KeyRow<CollectiveConfig>& row) {
      const std::string_view name = row.doc.name;
      if (name == "algorithm") {
        c.algorithm =
            ReadString(sec, "algorithm", std::string(DefaultCollectiveAlgorithm(c.op).name),
                       CollectiveAlgorithmNames());
      } else if (name == "ranks") {
        ReadRanks(sec, s.topology, c.all_ranks, c.ranks);
      } else if (name == "tag" && sec.Get("tag") != nullptr) {
        c.tag = ReadTag(sec);
      }
    });
    if (c.qps_per_connection == 0) c.qps_per_connection = s.host.qps_per_connection;
    if (const CollectiveProblem p = CheckCollective(c, where); !p.key.empty()) {
      Fail(sec.Key(p.key), sec.Get(p.key) != nullptr ? sec.Get(p.key) : sec.table, p.message);
    }
    counts.push_back(CollectiveFlowCount(c, where));
    total += counts.back();
    s.collectives.push_back(std::move(c));
    collective_nodes_.push_back(sec.table);
  }
  // Every collective read and checked, and their flows counted, before any is expanded: a
  // scenario too large for this machine is refused in an instant, naming what made it large.
  const uint64_t most = MaxFlowsInMemory();
  if (total > most) {
    const size_t largest =
        static_cast<size_t>(std::max_element(counts.begin(), counts.end()) - counts.begin());
    const CollectiveConfig& c = s.collectives[largest];
    const Section& sec = tables[largest];
    const uint64_t ranks = RankHosts(c, where).size();
    Fail(sec.path, sec.table,
         fmt::format(
             "the scenario would have {:.1f} million flows, and this machine's memory ({:.1f} "
             "GiB) holds a run of at most {:.1f} million ({} bytes a flow at least); {} makes "
             "{:.1f} million of them: {} {} "
             "over {} ranks ({}) x {} channels ({}) x {} iterations ({}), {} flows per channel "
             "and iteration: fewer iterations, channels or ranks",
             static_cast<double>(total) / 1e6,
             static_cast<double>(PhysicalMemoryBytes()) / (1 << 30),
             static_cast<double>(most) / 1e6, kRunBytesPerFlow, sec.path,
             static_cast<double>(counts[largest]) / 1e6, c.algorithm, Name(c.op), ranks,
             sec.Key("ranks"), c.channels, sec.Key("channels"), c.iterations, sec.Key("iterations"),
             counts[largest] / static_cast<uint64_t>(c.channels) /
                 static_cast<uint64_t>(c.iterations)));
  }
  s.collective_flow_counts = counts;
  if (!options_.build_collectives_and_jobs || s.collectives.empty()) return;
  ReserveCounted(
      s, s.collective_flow_total(),
      std::any_of(s.collectives.begin(), s.collectives.end(), [](const CollectiveConfig& c) {
        return c.connection == CollectiveConnection::kPersistent;
      }));
  for (size_t i = 0; i < s.collectives.size(); ++i) {
    s.collective_flows.push_back(ExpandCollective(
        s.collectives[i], where, fmt::format("collective{}", i), s.flows, s.flow_after, s.tags));
  }
}

void Loader::ReadWorkload(const Section& sec, Scenario& s) const {
  if (sec.table == nullptr) return;
  CheckKeys(sec, kWorkloadSchema);
  WorkloadConfig& w = s.workload;
  const int hosts = s.topology.hosts;
  const std::vector<std::string_view> types(kWorkloadTypes.begin(), kWorkloadTypes.end());
  if (sec.Get("type") == nullptr) {
    std::vector<std::string> quoted;
    for (std::string_view t : types) quoted.push_back(TomlQuote(t));
    const std::string last = quoted.back();
    quoted.pop_back();
    Fail(sec.Key("type"), sec.table,
         fmt::format("required in [workload]: {} or {}", fmt::join(quoted, ", "), last));
  }
  w.type = ReadString(sec, "type", "", types);
  w.tag = sec.Get("tag") ? ReadTag(sec) : DefaultWorkloadTag(w.type);
  if (w.type == "poisson") {
    ReadPoissonWorkload(sec, s);
    return;
  }
  OnlyFor(sec, {"cdf", "load", "window", "incast"}, "workload.type", "poisson");
  if (sec.Get("size") == nullptr) {
    Fail(sec.Key("size"), sec.table, "required in [workload]: the bytes each flow sends");
  }
  for (std::string_view key : {"size", "start", "priority"}) {
    ReadRow(sec, RowNamed(WorkloadKeys(), key), w);
  }
  if (w.type == "permutation") {
    OnlyFor(sec, {"senders", "receiver"}, "workload.type", "incast");
    return;
  }
  if (const toml::node* receiver = sec.Get("receiver")) {
    w.receiver = ReadHostNode(*receiver, sec.Key("receiver"), s.topology);
  }
  const toml::node* senders = sec.Get("senders");
  const std::string key = sec.Key("senders");
  if (senders == nullptr) {
    w.sender_count = hosts - 1;  // every other host: the classic N-1 to 1 incast
  } else if (senders->is_integer()) {
    w.sender_count = static_cast<int>(ReadIntNode(
        *senders, key, 1, hosts - 1, "a count of senders (hosts other than the receiver)"));
  } else if (const toml::array* list = senders->as_array(); list && !list->empty()) {
    std::vector<bool> seen(hosts, false);
    for (size_t i = 0; i < list->size(); ++i) {
      const std::string item_key = fmt::format("{}[{}]", key, i);
      const toml::node& item = *list->get(i);
      const int h = ReadHostNode(item, item_key, s.topology);
      if (h == w.receiver) {
        Fail(item_key, &item,
             fmt::format("expected a host other than the receiver {}, got {}", w.receiver, h));
      }
      if (seen[h]) Fail(item_key, &item, fmt::format("host {} is listed twice", h));
      seen[h] = true;
      w.senders.push_back(h);
    }
  } else {
    Fail(key, senders,
         fmt::format("expected a non-empty array of host indices or a count 1..{}, got {}",
                     hosts - 1, Got(*senders)));
  }
}

// A path written in the scenario is relative to the scenario file's folder, so a scenario and its
// data files move together; a path given with --set is relative to the current directory, where
// the user typed it.
std::string Loader::ResolvePath(std::string_view key, const std::string& path) const {
  namespace fs = std::filesystem;
  if (path.empty() || fs::path(path).is_absolute()) return path;
  if (FromOverride(key)) return path;
  return (fs::path(source_).parent_path() / path).lexically_normal().string();
}

// hpcc_file: nodes and links come from an HPCC ns-3 topology file. Hosts are numbered first, in
// the file's id order, then switches, so [[flow]] src/dst name the i-th host of the file.
// simai_file: from a SimAI topology file, whose GPUs are its first ids (ns3/simai_topology.h).
void Loader::ReadTopologyFile(const Section& sec, TopologyConfig& topo) const {
  const TopologyType& type = *FindTopologyType(topo.type);
  const bool simai = type.file_format == TopologyType::FileFormat::kSimai;
  for (const TopologyKey* row : type.keys) {
    if (row->doc.name != "file" && sec.Get(row->doc.name) != nullptr) {
      ReadTopologyKey(sec, *row, topo);
    }
  }
  for (auto&& [key, value] : *sec.table) {
    if (key.str() == "type" || key.str() == "reconvergence") continue;
    if (std::any_of(type.keys.begin(), type.keys.end(),
                    [&](const TopologyKey* r) { return r->doc.name == key.str(); })) {
      continue;
    }
    Fail(sec.Key(key.str()), &value,
         fmt::format("not used when topology.type = \"{}\": the file gives every node and link",
                     topo.type));
  }
  const toml::node* node = sec.Get("file");
  if (node == nullptr) {
    Fail(sec.Key("file"), sec.table,
         fmt::format("required when topology.type = \"{}\": the path of {} topology file, "
                     "relative to this scenario's folder",
                     topo.type, simai ? "a SimAI" : "an HPCC"));
  }
  const std::string path = ResolvePath(sec.Key("file"), ReadString(sec, "file", ""));
  if (!IsValidUtf8(path)) {
    Fail(sec.Key("file"), node,
         "the path, relative to this scenario's folder, is not valid UTF-8 (it is written into "
         "resolved.toml)");
  }
  std::vector<std::string> warnings;
  try {
    if (simai) {
      ReadSimaiTopology(path, topo, &warnings);
    } else {
      ReadHpccTopology(path, topo, &warnings);
    }
  } catch (const InputError& e) {
    Fail(sec.Key("file"), node, e.what());
  }
  for (std::string& w : warnings) warnings_.push_back(std::move(w));
}

// poisson: per-host Poisson arrivals with sizes from a CDF, and optional incast events.
void Loader::ReadPoissonWorkload(const Section& sec, Scenario& s) const {
  WorkloadConfig& w = s.workload;
  const int hosts = s.topology.hosts;
  OnlyFor(sec, {"senders", "receiver", "size"}, "workload.type", "incast\" or \"permutation");
  ReadRow(sec, RowNamed(WorkloadKeys(), "start"), w);
  ReadRow(sec, RowNamed(WorkloadKeys(), "priority"), w);
  if (sec.Get("window") == nullptr) {
    Fail(sec.Key("window"), sec.table,
         "required when workload.type = \"poisson\": how long flows arrive, such as \"5ms\"");
  }
  ReadRow(sec, RowNamed(WorkloadKeys(), "window"), w);
  ReadRow(sec, RowNamed(WorkloadKeys(), "load"), w);

  const Section incast = Sub(sec, "incast");
  CheckKeys(incast, kIncastEventSchema);
  if (incast.table != nullptr) {
    for (std::string_view required : {"fanin", "size", "rate"}) {
      if (incast.Get(required) == nullptr) {
        Fail(incast.Key(required), incast.table,
             "required in [workload.incast] (fanin = senders per event, size = bytes each "
             "sender sends, rate = events per second)");
      }
    }
    for (const KeyRow<WorkloadConfig>& row : IncastEventKeys()) {
      // fanin: senders other than the receiver.
      ReadRow(incast, row, w,
              row.doc.name == "fanin" ? std::optional<int64_t>(hosts - 1) : std::nullopt);
    }
  }
  if (sec.Get("load") == nullptr && incast.table == nullptr) {
    Fail(sec.Key("load"), sec.table,
         "required when workload.type = \"poisson\": the offered load, a fraction 0..1 of each "
         "host's link rate (or give only [workload.incast] events)");
  }
  if (w.load == 0 && incast.table == nullptr) {
    Fail(sec.Key("load"), sec.Get("load"),
         "expected a load > 0 (or [workload.incast] events): no flow would start");
  }
  if (w.load > 0) {
    const toml::node* cdf = sec.Get("cdf");
    if (cdf == nullptr) {
      Fail(sec.Key("cdf"), sec.table,
           fmt::format("required when load > 0: the flow-size distribution, {} or the path of "
                       "a file in the HPCC CDF format (\"<size bytes> <cumulative percent>\" "
                       "per line)",
                       fmt::join(BuiltinCdfNames(), " or ")));
    }
    w.cdf = ReadString(sec, "cdf", "");
    if (BuiltinCdfText(w.cdf).empty()) w.cdf = ResolvePath(sec.Key("cdf"), w.cdf);
    try {
      LoadFlowSizeCdf(w.cdf);  // read now, so a bad file is reported against this key
    } catch (const InputError& e) {
      Fail(sec.Key("cdf"), cdf, e.what());
    }
  } else if (const toml::node* cdf = sec.Get("cdf")) {
    Fail(sec.Key("cdf"), cdf, "only used when load > 0");
  }
}

void Loader::CheckReachability(const Scenario& s, const toml::node* workload_node) const {
  const std::vector<int> component = ConnectedComponents(s.topology);
  // Flows not built (`check`) connect all the ranks of a collective (every algorithm's do), and
  // of each group of a job that runs one and each pipeline pair: they all have a path exactly
  // when those ranks are in one piece of the fabric.
  const CollectiveHosts where{s.topology.hosts, GpusPerServer(s.topology)};
  auto require_connected = [&](const std::vector<int>& hosts, const std::string& key,
                               const toml::node* node, std::string_view ranks) {
    for (int h : hosts) {
      if (component[h] == component[hosts.front()]) continue;
      Fail(key, node,
           fmt::format("host h{} has no path to host h{} over topology.links, and {}",
                       hosts.front(), h, ranks));
    }
  };
  for (size_t c = 0; c < s.collectives.size() && !s.collectives_built(); ++c) {
    require_connected(RankHosts(s.collectives[c], where), fmt::format("collective[{}].ranks", c),
                      collective_nodes_[c], "both are its ranks");
  }
  for (size_t j = 0; j < s.jobs.size() && !s.jobs_built(); ++j) {
    for (const std::vector<int>& hosts : JobConnectedHosts(s.jobs[j], where)) {
      require_connected(hosts, fmt::format("job[{}].ranks", j), job_nodes_[j],
                        "its ranks there communicate");
    }
  }
  for (size_t i = 0; i < s.flows.size(); ++i) {
    const FlowSpec& f = s.flows[i];
    if (component[f.src] == component[f.dst]) continue;
    const std::string what =
        fmt::format("host h{} has no path to host h{} over topology.links", f.src, f.dst);
    if (i < flow_nodes_.size()) Fail(fmt::format("flow[{}]", i), flow_nodes_[i], what);
    for (size_t c = 0; c < s.collective_flows.size(); ++c) {
      const CollectiveFlows& cf = s.collective_flows[c];
      if (i >= cf.iteration_begin.front() && i < cf.iteration_begin.back()) {
        Fail(fmt::format("collective[{}].ranks", c), collective_nodes_[c],
             fmt::format("its flow from h{} to h{}: {}", f.src, f.dst, what));
      }
    }
    for (size_t j = 0; j < s.job_flows.size(); ++j) {
      if (i >= s.job_flows[j].flow_begin && i < s.job_flows[j].flow_end) {
        Fail(fmt::format("job[{}].ranks", j), job_nodes_[j],
             fmt::format("its flow from h{} to h{}: {}", f.src, f.dst, what));
      }
    }
    Fail("workload", workload_node, fmt::format("generated flow {}: {}", i, what));
  }
}

Scenario Loader::Build(const toml::table& root_table) {
  Scenario s;
  s.source = source_;
  const Section root{&root_table, ""};
  CheckKeys(root, kRootSchema);

  std::string stem = std::filesystem::path(source_).stem().string();
  s.name = ReadString(root, "name", stem.empty() ? s.name : stem);
  // The name becomes the default output folder results/<name>/.
  if (s.name.empty() || s.name == "." || s.name == ".." ||
      s.name.find_first_of("/\\") != std::string::npos ||
      std::any_of(s.name.begin(), s.name.end(), [](unsigned char c) { return c < 0x20; }) ||
      !IsValidUtf8(s.name)) {
    Fail("name", root.Get("name"),
         fmt::format("expected a name usable as a folder name (valid UTF-8, no '/', '\\' or "
                     "control characters; without a name, the file's name is used), got {}",
                     TomlQuote(s.name)));
  }
  s.duration = ReadTime(root, "duration", s.duration, Bound::kPositive);
  s.seed = ReadSeed(root, s.seed);
  s.flow_level = ReadString(root, "model", "packet", {"packet", "flow"}) == "flow";

  ReadTopology(Sub(root, "topology"), s.topology);
  ReadSwitch(Sub(root, "switch"), s.sw);
  ReadHost(Sub(root, "host"), s.host);
  ReadWire(Sub(root, "wire"), s.wire);
  // 0 (the default) = the paper's two MTU frames below the pause threshold, resolved here so
  // that resolved.toml shows the value the run uses.
  if (s.sw.pfc.xon_offset == 0) s.sw.pfc.xon_offset = 2 * s.wire.DataFrame(s.host.mtu);
  ReadCc(Sub(root, "cc"), s.cc);
  ReadOutput(Sub(root, "output"), s.output);
  ReadPcap(Sub(Sub(root, "output"), "pcap"), s.topology, s.output.pcap);
  {
    // The sampler keeps every sample of a run in memory (convergence needs each flow's).
    const Section out = Sub(root, "output");
    const Time samples = s.duration / s.output.interval;
    if (samples > kMaxSamplesPerSeries) {
      Fail(out.Key("interval"), out.Get("interval"),
           fmt::format("\"{}\" over duration \"{}\" is {} samples; at most {} million per "
                       "series (choose a longer interval)",
                       FormatTime(s.output.interval), FormatTime(s.duration), samples,
                       kMaxSamplesPerSeries / 1000000));
    }
  }
  ReadRoutes(root, s);
  ReadEvents(root, s);
  // What acts on packets and queues has nothing to act on at flow level.
  if (s.flow_level && !s.events.empty()) {
    Fail("model", root.Get("model"),
         "\"flow\" has no packets or queues for an [[event]] (pause storm, link down or up) to "
         "act on; run it with model = \"packet\"");
  }
  if (s.flow_level && s.sw.load_balancing != SwitchConfig::LoadBalancing::kEcmp) {
    Fail("model", root.Get("model"),
         "\"flow\" follows each flow's ECMP path; switch.load_balancing other than \"ecmp\" "
         "moves packets or flowlets between paths, which it does not model; run it with model = "
         "\"packet\"");
  }
  if (s.flow_level && !s.output.pcap.taps.empty()) {
    Fail("model", root.Get("model"),
         "\"flow\" has no packets for [output.pcap] to capture; run it with model = \"packet\"");
  }
  ReadFlows(root, s);
  s.explicit_flows = static_cast<int>(s.flows.size());
  const Section workload = Sub(root, "workload");
  ReadWorkload(workload, s);
  GenerateWorkload(s, s.flows, s.tags);
  ReadCollectives(root, s);
  ReadJobs(root, s);
  if (!s.flow_after.empty()) s.flow_after.Resize(s.flows.size());
  // What was reserved for the counted flows and outgrown (rows of several prerequisites) is
  // held through the run: no more than a quarter of slack.
  ShrinkSlack(s.flows);
  s.flow_after.ShrinkToFit();
  // None built, and none counted where collectives and jobs are counted but not built.
  if (s.flows.empty() && s.collective_flow_total() + s.job_flow_total() == 0) {
    Fail("flow", nullptr,
         "no flows: expected at least one [[flow]] table, a [workload], a [[collective]] or a "
         "[[job]] that communicates");
  }
  CheckReachability(s, workload.table);
  s.warnings = std::move(warnings_);
  return s;
}

// Runs `body`, turning anything but an InputError into one: the loader must never crash on input.
template <typename Body>
Scenario Guard(const std::string& source, Body body) {
  try {
    return body();
  } catch (const InputError&) {
    throw;
  } catch (const toml::parse_error& e) {
    // An integer beyond TOML's 64 bits, such as a seed of 2^63 or more: say what fits.
    const bool too_large = e.description().find("not representable") != std::string_view::npos;
    throw InputError(fmt::format(
        "{}:{}:{}: TOML syntax error: {}{}", source, e.source().begin.line, e.source().begin.column,
        e.description(),
        too_large ? fmt::format(
                        " (TOML's integers are {}..{}; a seed up to {} is written as a "
                        "string of digits, seed = \"{}\")",
                        std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max(),
                        std::numeric_limits<uint64_t>::max(), std::numeric_limits<uint64_t>::max())
                  : ""));
  } catch (const std::bad_alloc&) {
    throw InputError(fmt::format("{}: scenario too large: out of memory", source));
  } catch (const std::exception& e) {
    throw InputError(fmt::format("{}: cannot read scenario: {}", source, e.what()));
  }
}

}  // namespace

namespace {

std::vector<Override> SetOverrides(const std::vector<std::string>& sets) {
  std::vector<Override> overrides;
  overrides.reserve(sets.size());
  for (const std::string& text : sets) overrides.emplace_back(text);
  return overrides;
}

}  // namespace

Scenario LoadScenarioText(std::string_view toml_text, const std::string& source_name,
                          const std::vector<Override>& overrides, const LoadOptions& options) {
  return Guard(source_name, [&] {
    toml::table root = toml::parse(toml_text, std::string_view(source_name));
    Loader loader(source_name, options);
    for (const Override& o : overrides) loader.ApplyOverride(root, o);
    return loader.Build(root);
  });
}

Scenario LoadScenarioText(std::string_view toml_text, const std::string& source_name,
                          const std::vector<std::string>& overrides) {
  return LoadScenarioText(toml_text, source_name, SetOverrides(overrides));
}

Scenario LoadScenarioFile(const std::string& path, const std::vector<std::string>& overrides) {
  return LoadScenarioFile(path, SetOverrides(overrides));
}

Scenario LoadScenarioFile(const std::string& path, const std::vector<Override>& overrides,
                          const LoadOptions& options) {
  // A resolved.toml lists every generated flow (up to 20 million, about 100 bytes each) and must
  // load again, so the limit is well above that.
  const std::string text = ReadInputFile(path, "scenario file", size_t{4} << 30);
  return LoadScenarioText(text, path, overrides, options);
}

std::string DefaultScenarioText() {
  return R"(# Built-in scenario of `dcqcn run` without a file: an 8:1 incast at 40 Gb/s with DCQCN
# (the paper's parameters). Eight senders start at line rate and each send 10 MB to h0 through one
# switch. DCQCN's start-up collapse (docs/paper.md, "Start-up collapse") cuts all eight to the
# 0.1 Gb/s floor within 0.5 ms; they climb back over about 10 ms and finish after about 22 ms,
# without PFC PAUSE.
name = "default"
duration = "100ms"
seed = 1

[topology]
type = "star"
hosts = 9
link_rate = "40Gbps"
link_delay = "1us"

[cc]
algorithm = "dcqcn"
profile = "paper"

[workload]
type = "incast"
senders = 8          # h1..h8
receiver = 0
size = "10MB"

[output]
timeseries = ["rate", "queue", "pfc", "throughput"]
interval = "10us"
)";
}

Scenario DefaultScenario(const std::vector<std::string>& overrides) {
  return LoadScenarioText(DefaultScenarioText(), "<built-in>", overrides);
}

Scenario DefaultScenario(const std::vector<Override>& overrides) {
  return LoadScenarioText(DefaultScenarioText(), "<built-in>", overrides);
}

std::string CcParamToToml(const std::string& stored) {
  // Written raw when it reads back as a value with exactly this spelling; otherwise it was a
  // string's contents and is quoted.
  toml::table doc = ParseValueText(stored);
  const toml::node& value = *doc.get("v");
  if (!value.is_string() && CanonicalText(value) == stored) return stored;
  return TomlQuote(stored);
}

}  // namespace dcqcn
