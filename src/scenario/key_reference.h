// The reference of every scenario key (`dcqcn keys`, committed as docs/scenario-keys.md),
// rendered from the loader's schema and the DCQCN parameter table.
#pragma once

#include <string>
#include <string_view>

namespace dcqcn {

// Where the rendered reference is committed, relative to the repository root.
inline constexpr std::string_view kKeyReferencePath = "docs/scenario-keys.md";

// The whole reference as Markdown: one table per scenario table (key, type, unit, default,
// meaning) and the DCQCN parameters with each profile's value.
std::string KeyReferenceMarkdown();

// True when a KeySchema::default_value is a TOML value ("\"40Gbps\"", "9", "[]"), false when it
// is prose ("required", "depends on ...").
bool IsLiteralDefault(std::string_view default_value);

}  // namespace dcqcn
