/** Shared tables with a key column (unique and never null, as DuckDB's delta extension reads them): the sink tests
 * upsert them on it. */
export const TABLE_KEYS: Readonly<Record<string, string>> = {
  cdc_ict_table: 'name',
  'cdf-table': 'id',
  'checkpoint-v2-table': 'id',
  'delta-0.8.0-partitioned': 'value',
  'delta-2.2.0-partitioned-types': 'c1',
  'partition-type-primitives': 'id',
  simple_table: 'id',
  'table-with-dv-small': 'value',
  table_with_deletion_logs: 'address',
  table_with_edge_timestamps: 'BIG_DATE',
  table_with_liquid_clustering: 'id',
};
