// Renders the scenario key reference from the tables scenario_schema.cc gathers (each part's key
// rows) and the congestion-control parameter tables.
#include "scenario/key_reference.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <toml++/toml.h>

#include <string>
#include <vector>

#include "cc/registry.h"
#include "scenario/scenario_loader.h"
#include "scenario/scenario_schema.h"
#include "topology/topology_type.h"
#include "workload/collective_algorithm.h"

namespace dcqcn {
namespace {

// A Markdown table cell: '|' would end the cell.
std::string Cell(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

std::string Code(std::string_view text) { return "`" + Cell(text) + "`"; }

std::string Default(std::string_view value) {
  return IsLiteralDefault(value) ? Code(value) : Cell(value);
}

std::string Heading(const TableSchema& table) {
  if (table.path.empty()) return "Top level";
  if (table.path.ends_with("[]")) {
    return fmt::format("`[[{}]]`", table.path.substr(0, table.path.size() - 2));
  }
  return fmt::format("`[{}]`", table.path);
}

// How --set spells a key of this table: "switch.pfc.KEY", "flow.N.KEY".
std::string SetPrefix(const TableSchema& table) {
  if (table.path.empty()) return "";
  if (table.path.ends_with("[]")) {
    return fmt::format("{}.N.", table.path.substr(0, table.path.size() - 2));
  }
  return fmt::format("{}.", table.path);
}

// The values a key takes from a registry, one line each with what it means; "" for other keys.
std::string RegistryValues(const TableSchema& table, std::string_view key) {
  std::vector<std::string> values;
  if (&table == &kCcSchema && key == "algorithm") {
    for (const CcAlgorithm& a : CcAlgorithms()) {
      values.push_back(fmt::format("`\"{}\"`: {}", a.name, a.summary));
    }
  } else if (&table == &kCollectiveSchema && key == "algorithm") {
    for (const CollectiveAlgorithm* a : CollectiveAlgorithms()) {
      std::vector<std::string_view> ops;
      for (size_t op = 0; op < kCollectiveOpNames.size(); ++op) {
        if (a->implements(static_cast<CollectiveOp>(op))) ops.push_back(kCollectiveOpNames[op]);
      }
      values.push_back(
          fmt::format("`\"{}\"` ({}): {}", a->name, fmt::join(ops, ", "), a->description));
    }
  }
  if (&table == &kTopologySchema) {
    if (key == "type") {
      for (const TopologyType* t : TopologyTypes()) {
        values.push_back(fmt::format("`\"{}\"`: {}", t->name, t->description));
      }
    } else if (const std::string types = TypesTaking(key); !types.empty()) {
      return fmt::format(" Only for topology.type = {}.", types);
    }
  }
  if (values.empty()) return "";
  return fmt::format(" One of: {}.", fmt::join(values, "; "));
}

void RenderTable(const TableSchema& table, std::string& out) {
  out += fmt::format("\n## {}\n\n{}", Heading(table), table.meaning);
  out += fmt::format(" `--set {}KEY=VALUE` sets a key.\n\n", SetPrefix(table));
  out += "| key | type | unit | default | meaning |\n|---|---|---|---|---|\n";
  for (const KeySchema& k : table) {
    std::string meaning = std::string(k.meaning) + RegistryValues(table, k.name);
    if (k.kind == KeyKind::kTable || k.kind == KeyKind::kOpenTable ||
        k.kind == KeyKind::kFlowArray) {
      meaning += " Its keys are in their own section.";
    }
    out += fmt::format("| {} | {} | {} | {} | {} |\n", Code(k.name), Cell(k.type), Cell(k.unit),
                       Default(k.default_value), Cell(meaning));
  }
}

// One algorithm's parameters: a column per profile.
void RenderCcAlgorithm(const CcAlgorithm& algorithm, std::string& out) {
  if (algorithm.profiles.empty()) return;
  out += fmt::format("\n### {} parameters\n\n", algorithm.label);
  if (&algorithm == &CcAlgorithms().front().get()) {  // the default: its own docs
    out +=
        "With `algorithm = \"dcqcn\"`, every other `[cc]` key overrides one parameter of the "
        "profile (`--set cc.NAME=VALUE`); `resolved.toml` lists them all as resolved. "
        "[dcqcn.md](dcqcn.md) explains them and [dcqcn-rp-semantics.md](dcqcn-rp-semantics.md) "
        "gives the reaction point's exact rules. ";
  } else {
    out += fmt::format(
        "With `algorithm = \"{}\"`: {}. Every other `[cc]` key overrides one parameter of the "
        "profile; [compare.md](compare.md) explains them. ",
        algorithm.name, algorithm.summary);
  }
  out += "Each profile's defaults come from:\n\n";
  std::string header = "| parameter | type |";
  std::string rule = "|---|---|";
  std::vector<std::vector<std::pair<std::string, std::string>>> values;
  for (const CcProfileInfo& info : algorithm.profiles) {
    out += fmt::format("- {}: {}.\n", Code(info.name), info.source);
    CcConfig cc;
    cc.algorithm = algorithm.name;
    cc.profile = info.name;
    values.push_back(algorithm.resolve(cc, "<built-in>")->ParamsText());
    header += fmt::format(" {} |", info.name);
    rule += "---|";
  }
  out += fmt::format("\n{} meaning |\n{}---|\n", header, rule);
  for (size_t i = 0; i < algorithm.docs.size(); ++i) {
    const CcParamDoc& doc = algorithm.docs[i];
    out += fmt::format("| {} | {} |", Code(doc.name), Cell(doc.type));
    for (const auto& v : values) out += fmt::format(" {} |", Code(CcParamToToml(v[i].second)));
    out += fmt::format(" {}. |\n", Cell(doc.meaning));
  }
}

}  // namespace

bool IsLiteralDefault(std::string_view default_value) {
  try {
    const toml::table doc = toml::parse(fmt::format("v = {}\n", default_value));
    return doc.size() == 1 && doc.contains("v");
  } catch (const toml::parse_error&) {
    return false;
  }
}

std::string KeyReferenceMarkdown() {
  std::string out = fmt::format(
      "# Scenario keys\n\n"
      "<!-- Generated by `dcqcn keys > {}` from the key rows (src/*/*_keys.cc, "
      "src/topology/types/*.cc, src/scenario/scenario_schema.cc) and src/cc/*/*_params.cc; do "
      "not edit by hand. -->\n\n"
      "Every key a scenario file may hold, rendered from the tables the loader itself checks "
      "keys against, so it lists exactly what the loader accepts; any other key is an error. "
      "`--set KEY=VALUE` overrides a key by its dotted path (`switch.ecn.kmin`, `flow.0.size`, "
      "`cc.rai`), and `dcqcn check FILE` prints a scenario with every default filled in.\n\n"
      "Values with a unit are strings; a bare number is an error:\n\n"
      "- size: `\"5KB\"`, `\"1.5MB\"` (B; KB, MB, GB are powers of 1000; KiB, MiB, GiB of "
      "1024)\n"
      "- time: `\"10us\"`, `\"1.5ms\"` (ps, ns, us, ms, s)\n"
      "- rate: `\"40Gbps\"` (bps, Kbps, Mbps, Gbps, Tbps)\n\n"
      "A default in `code` is what leaving the key out means; \"required\" keys must be given "
      "and \"depends on\" defaults follow from another key. Where a default comes from: "
      "\"paper\" is DCQCN's SIGCOMM'15 paper and its testbed, \"HPCC\" HPCC's ns-3 simulator, "
      "\"ns3-rdma\" the DCQCN author's ns-3, \"firmware\" NVIDIA ConnectX.\n",
      kKeyReferencePath);
  for (const TableSchema* table : ScenarioTables()) {
    RenderTable(*table, out);
    if (table != &kCcSchema) continue;
    for (const CcAlgorithm& algorithm : CcAlgorithms()) RenderCcAlgorithm(algorithm, out);
  }
  return out;
}

}  // namespace dcqcn
