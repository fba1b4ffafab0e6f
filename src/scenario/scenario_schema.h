// The scenario format's keys, declared once: each table with its keys, and each key with its
// type, unit, default and meaning. The loader's unknown-key check and `--set`, and the key
// reference (`dcqcn keys`, docs/scenario-keys.md), all read these tables.
#pragma once

#include <span>
#include <string_view>

#include "core/key_schema.h"

namespace dcqcn {

extern const TableSchema kRootSchema;
extern const TableSchema kTopologySchema;
extern const TableSchema kSwitchSchema;
extern const TableSchema kPfcSchema;
extern const TableSchema kWatchdogSchema;
extern const TableSchema kEcnSchema;
extern const TableSchema kHostSchema;
extern const TableSchema kWireSchema;
// [cc]: only algorithm and profile; the algorithm checks the other keys (DcqcnParamSpecs()).
extern const TableSchema kCcSchema;
extern const TableSchema kFlowSchema;
extern const TableSchema kRouteSchema;
extern const TableSchema kEventSchema;
extern const TableSchema kCollectiveSchema;
extern const TableSchema kJobSchema;
extern const TableSchema kJobLayerSchema;  // [[job.layer]]
extern const TableSchema kWorkloadSchema;
extern const TableSchema kIncastEventSchema;  // [workload.incast]
extern const TableSchema kOutputSchema;
extern const TableSchema kPcapSchema;

// Every table, in the order a scenario file lists them.
std::span<const TableSchema* const> ScenarioTables();

// The table at `path` as TableSchema::path spells it; null when there is none.
const TableSchema* SchemaOf(std::string_view path);
const KeySchema* FindKey(const TableSchema& schema, std::string_view key);

}  // namespace dcqcn
