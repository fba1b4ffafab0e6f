// How a table of the scenario format declares its keys: each key once, with its type, unit,
// default and meaning. The scenario's tables are gathered in scenario/scenario_schema.h; a part
// that owns keys (a topology type, topology/types/) declares its rows beside its code in this form.
#pragma once

#include <span>
#include <string_view>

namespace dcqcn {

enum class KeyKind {
  kValue,      // a scalar or an array of scalars
  kTable,      // a table with its own schema
  kOpenTable,  // a table whose every key is accepted ([cc]: parameters checked by the algorithm)
  kFlowArray,  // [[flow]], [[collective]]: arrays of tables, indexed by number in --set paths
};

struct KeySchema {
  std::string_view name;
  KeyKind kind;
  // What the value is: "string", "integer", "number", "boolean", "size", "time", "rate",
  // "list of strings", "size or \"dynamic\"", "table"...
  std::string_view type;
  std::string_view unit;  // of an integer or number ("bytes", "events/s"); "" when none applies
  // The default as TOML text the user could write ("\"40Gbps\"", "9", "true"), or, when there
  // is no single value, prose such as "required" or "depends on `link_rate`: equal" (the key
  // reference tells the two apart by whether the text parses as one TOML value).
  std::string_view default_value;
  // One line: what the key means, when it applies, and where its default comes from.
  std::string_view meaning;
};

struct TableSchema {
  // Dotted path of the table: "" for the top level, "switch.pfc", "flow[]" for a [[flow]].
  std::string_view path;
  std::string_view meaning;
  std::span<const KeySchema> keys;

  auto begin() const { return keys.begin(); }
  auto end() const { return keys.end(); }
};

}  // namespace dcqcn
