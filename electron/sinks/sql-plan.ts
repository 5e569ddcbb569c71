// The dry run: which DDL and statement an export will use and whether an existing target can take it, computed
// from the target's catalog without writing anything. The sinks build the same plan when they open, and refuse an
// incompatible target before the first row.
import type { StructField } from '../../shared/delta-schema.js';
import { validationError } from '../../shared/errors.js';
import { exportSinkProblems, type ExportPlan, type SqlSinkSpec } from '../../shared/sink-spec.js';
import { binaryCopyFits } from './copy-binary.js';
import { quoteName } from '../../shared/sql-quote.js';
import { quoteIn, quoteListIn } from './sql-identifiers.js';
import { writeStatement } from './duckdb/duckdb-statements.js';
import type { SinkOpenContext } from './sink.js';
import { mysqlRowsSql } from './mysql/mysql-statements.js';
import { copySql, sameColumns, sqliteInsertSql, swapSql, upsertMergeSql, upsertTempSql, UPSERT_TEMP } from './sql-statements.js';
import { createTableSql, incompatibility, type Dialect, type ExistingColumn } from './sql-types.js';

export interface TableDescription {
  columns: ExistingColumn[];
  /** Column sets of the primary key and unique indexes (what ON CONFLICT can name). */
  uniqueKeys: string[][];
}

/** `ownFiles`: the offer of a snapshot's own data files (export/row-source.ts), which the DuckDB sink takes. */
export async function planSqlExport(
  fields: StructField[],
  spec: SqlSinkSpec,
  { ownFiles }: Pick<SinkOpenContext, 'ownFiles'> = {},
): Promise<ExportPlan> {
  checkSpec(spec, fields);
  if (spec.kind === 'mysql') {
    const { existing, localInfile } = await (await import('./mysql/mysql-connection.js')).describeMysqlTarget(spec.connection, spec.table);
    return buildPlan(spec, fields, existing, 'mysql', { localInfile });
  }
  const existing =
    spec.kind === 'sqlite'
      ? await (await import('./sqlite-connection.js')).describeSqliteFile(spec.path, spec.table)
      : spec.kind === 'duckdb'
        ? await (await import('./duckdb/duckdb-connection.js')).describeDuckdbFile(spec.path, spec.table)
        : await (await import('./pg-connection.js')).describePgTarget(spec.connection, spec.table);
  const readsFiles = spec.kind === 'duckdb' && ((await ownFiles?.()) ?? null) !== null;
  return buildPlan(spec, fields, existing, spec.kind, { ownFiles: readsFiles });
}

/** Throws VALIDATION with every problem of the spec against the exported columns. */
function checkSpec(spec: SqlSinkSpec, fields: StructField[]): void {
  const problems = exportSinkProblems(
    spec,
    fields.map((f) => f.name),
  );
  if (problems.length > 0) throw validationError(problems);
}

export function buildPlan(
  spec: SqlSinkSpec,
  fields: StructField[],
  existing: TableDescription | null,
  dialect: Dialect,
  { localInfile = true, ownFiles = false }: { localInfile?: boolean; ownFiles?: boolean } = {},
): ExportPlan {
  const table = spec.table;
  const keys = spec.mode === 'upsert' ? spec.keyColumns! : null;
  const plan: ExportPlan = {
    sink: spec.kind,
    target: table,
    ddl: [],
    statement: '',
    targetExists: existing !== null,
    incompatibility: null,
  };
  // Only an append into an existing table COPYs into columns the export did not create with the mapped types.
  const binary = spec.mode !== 'append' || existing === null || binaryCopyFits(fields, existing.columns);
  switch (spec.mode) {
    case 'sql':
      plan.statement = spec.sql!;
      return plan;
    case 'overwrite': {
      const stage = '<staging table>';
      if (dialect === 'mysql') {
        plan.ddl = [createTableSql(dialect, stage, fields), ...swapSql(dialect, table, stage).map((s) => s.text)];
        plan.statement = mysqlRowsSql(stage, fields, null, localInfile);
        return plan;
      }
      plan.ddl = [
        createTableSql(dialect, stage, fields),
        `DROP TABLE IF EXISTS ${quoteName(table)}`,
        `ALTER TABLE ${quoteName(stage)} RENAME TO ${quoteName(table)}`,
      ];
      plan.statement =
        dialect === 'postgres'
          ? copySql(stage, fields, binary)
          : dialect === 'duckdb'
            ? writeStatement(stage, fields, null, ownFiles)
            : sqliteInsertSql(stage, fields, null, true);
      return plan;
    }
    default:
      if (!existing) plan.ddl = [createTableSql(dialect, table, fields, keys ?? [])];
      else
        plan.incompatibility =
          incompatibility(dialect, table, fields, existing.columns) ?? missingUniqueKey(dialect, table, keys, existing);
      if (dialect === 'mysql') {
        plan.statement = mysqlRowsSql(table, fields, keys, localInfile);
        return plan;
      }
      plan.statement =
        dialect === 'duckdb'
          ? writeStatement(table, fields, keys, ownFiles)
          : dialect === 'sqlite'
            ? sqliteInsertSql(table, fields, keys, existing === null || sameColumns(existing.columns, fields))
            : keys
              ? `${upsertTempSql(fields)}; ${copySql(UPSERT_TEMP, fields, binary)}; ${upsertMergeSql(table, fields, keys)}`
              : copySql(table, fields, binary);
      return plan;
  }
}

function missingUniqueKey(dialect: Dialect, table: string, keys: string[] | null, existing: TableDescription): string | null {
  if (!keys) return null;
  // MySQL's column names match without regard to case.
  const norm = (name: string) => (dialect === 'postgres' ? name : name.toLowerCase());
  const wanted = keys.map(norm).sort().join('\0');
  if (existing.uniqueKeys.some((k) => k.map(norm).sort().join('\0') === wanted)) return null;
  return `existing table ${quoteIn(dialect, table)} has no primary key or unique index on (${quoteListIn(dialect, keys)}), which upsert needs`;
}
