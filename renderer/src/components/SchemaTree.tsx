// The schema as a tree: structs, arrays and maps open to show what they hold.
import { useState } from 'react';
import { isArray, isMap, isStruct, typeLabel } from '../../../shared/delta-schema.js';
import type { DeltaType, StructType } from '../../../shared/delta-schema.js';

interface Child {
  name: string;
  type: DeltaType;
  nullable: boolean;
  physicalName?: string;
}

function childrenOf(type: DeltaType): Child[] {
  if (isStruct(type)) {
    return type.fields.map((f) => {
      const physical = f.metadata?.['delta.columnMapping.physicalName'];
      return {
        name: f.name,
        type: f.type,
        nullable: f.nullable,
        physicalName: typeof physical === 'string' ? physical : undefined,
      };
    });
  }
  if (isArray(type)) return [{ name: 'element', type: type.elementType, nullable: type.containsNull }];
  if (isMap(type)) {
    return [
      { name: 'key', type: type.keyType, nullable: false },
      { name: 'value', type: type.valueType, nullable: type.valueContainsNull },
    ];
  }
  return [];
}

function shortType(type: DeltaType): string {
  return typeof type === 'string' ? type : type.type === 'struct' ? 'struct' : typeLabel(type);
}

function SchemaNode({ node, partition }: { node: Child; partition: boolean }) {
  const children = childrenOf(node.type);
  const [open, setOpen] = useState(false);
  const label = (
    <>
      <span className="schema-name">{node.name}</span>
      <span className="schema-type">{shortType(node.type)}</span>
      <span className={node.nullable ? 'schema-null' : 'schema-null required'}>{node.nullable ? 'nullable' : 'not null'}</span>
      {partition && <span className="pill">partition</span>}
      {node.physicalName && <span className="schema-physical">physical: {node.physicalName}</span>}
    </>
  );
  return (
    <li>
      {children.length > 0 ? (
        <button type="button" className="schema-row toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
          <span className="chevron" aria-hidden="true">
            {open ? '▾' : '▸'}
          </span>
          {label}
        </button>
      ) : (
        <div className="schema-row leaf">{label}</div>
      )}
      {open && (
        <ul className="schema-children">
          {children.map((c) => (
            <SchemaNode key={c.name} node={c} partition={false} />
          ))}
        </ul>
      )}
    </li>
  );
}

export function SchemaTree({ schema, partitionColumns }: { schema: StructType; partitionColumns: string[] }) {
  return (
    <ul className="schema-tree" aria-label="Schema">
      {childrenOf(schema).map((c) => (
        <SchemaNode key={c.name} node={c} partition={partitionColumns.includes(c.name)} />
      ))}
    </ul>
  );
}
