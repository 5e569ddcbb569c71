// What a table is at the chosen snapshot: size, shape, protocol, properties and schema.
import type { TableInfo } from '../../../shared/table-info.js';
import { formatEpochMs } from '../../../shared/timestamp.js';
import { formatCount, humanBytes } from '../format.js';
import { SchemaTree } from './SchemaTree.js';
import { Stat } from './Stat.js';

function Tags({ items, empty }: { items: string[]; empty: string }) {
  if (items.length === 0) return <span className="muted">{empty}</span>;
  return (
    <span className="tags">
      {items.map((item) => (
        <span key={item} className="tag">
          {item}
        </span>
      ))}
    </span>
  );
}

export function OverviewPanel({ info }: { info: TableInfo }) {
  const { protocol } = info;
  const features = [...new Set([...protocol.readerFeatures, ...protocol.writerFeatures])].sort();
  const properties = Object.entries(info.configuration).sort(([a], [b]) => a.localeCompare(b));
  return (
    <div className="overview">
      <div className="stats">
        <Stat
          label="Rows"
          value={info.numRecords === null ? '—' : formatCount(info.numRecords)}
          note={info.numRecords === null ? 'some files carry no statistics' : 'from file statistics'}
        />
        <Stat label="Files" value={formatCount(info.numFiles)} />
        <Stat label="Size" value={humanBytes(info.sizeBytes)} note={`${formatCount(info.sizeBytes)} bytes`} />
        <Stat label="Snapshot" value={`v${info.version}`} note={formatEpochMs(info.timestamp)} />
        <Stat
          label="Protocol"
          value={`${protocol.minReaderVersion} / ${protocol.minWriterVersion}`}
          note={
            <>
              reader / writer · <Tags items={features} empty="no table features" />
            </>
          }
        />
      </div>

      <div className="overview-grid">
        <section className="card" aria-labelledby="schema-title">
          <h3 id="schema-title">Schema</h3>
          <SchemaTree schema={info.schema} partitionColumns={info.partitionColumns} />
        </section>
        <div className="overview-side">
          <section className="card" aria-labelledby="details-title">
            <h3 id="details-title">Details</h3>
            <dl className="details">
              <dt>Partition columns</dt>
              <dd>
                <Tags items={info.partitionColumns} empty="not partitioned" />
              </dd>
              <dt>Readable versions</dt>
              <dd>
                {info.versionRange.earliest} – {info.versionRange.latest}
              </dd>
              <dt>Table id</dt>
              <dd className="mono">{info.id}</dd>
              {info.description && (
                <>
                  <dt>Description</dt>
                  <dd>{info.description}</dd>
                </>
              )}
              {info.createdTime !== null && (
                <>
                  <dt>Created</dt>
                  <dd>{formatEpochMs(info.createdTime)}</dd>
                </>
              )}
            </dl>
          </section>
          <section className="card" aria-labelledby="properties-title">
            <h3 id="properties-title">Table properties</h3>
            {properties.length === 0 ? (
              <p className="muted">No properties set.</p>
            ) : (
              <table className="kv-table">
                <tbody>
                  {properties.map(([key, value]) => (
                    <tr key={key}>
                      <th scope="row">{key}</th>
                      <td>{value}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
        </div>
      </div>
    </div>
  );
}
