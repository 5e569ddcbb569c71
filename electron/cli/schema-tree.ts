// A schema as an indented tree: one line per field with its type and nullability; struct fields, and the structs
// inside arrays and maps, open below their parent.
import { isArray, isMap, isStruct, typeLabel, type DeltaType, type StructField } from '../../shared/delta-schema.js';

export function schemaTree(fields: StructField[], partitionColumns: string[]): string[] {
  const lines: string[] = [];
  fields.forEach((f, i) => {
    const extra = partitionColumns.includes(f.name) ? ' (partition column)' : '';
    addField(lines, '', i === fields.length - 1, f.name, f.type, f.nullable, extra);
  });
  return lines;
}

function addField(lines: string[], indent: string, last: boolean, name: string, type: DeltaType, nullable: boolean, extra = ''): void {
  lines.push(`${indent}${last ? '└─' : '├─'} ${name}: ${shortType(type)}${nullable ? '' : ' not null'}${extra}`);
  const inner = indent + (last ? '   ' : '│  ');
  const children = childrenOf(type);
  children.forEach((c, i) => addField(lines, inner, i === children.length - 1, c.name, c.type, c.nullable));
}

// Structs show their fields as children; arrays and maps show their element, key and value when those nest further.
function childrenOf(type: DeltaType): StructField[] {
  if (isStruct(type)) return type.fields;
  if (isArray(type) && typeof type.elementType !== 'string') {
    return [{ name: 'element', type: type.elementType, nullable: type.containsNull }];
  }
  if (isMap(type) && (typeof type.keyType !== 'string' || typeof type.valueType !== 'string')) {
    return [
      { name: 'key', type: type.keyType, nullable: false },
      { name: 'value', type: type.valueType, nullable: type.valueContainsNull },
    ];
  }
  return [];
}

function shortType(type: DeltaType): string {
  if (isStruct(type)) return 'struct';
  if (isArray(type)) return typeof type.elementType === 'string' ? typeLabel(type) : 'array';
  if (isMap(type)) return typeof type.keyType === 'string' && typeof type.valueType === 'string' ? typeLabel(type) : 'map';
  return type;
}
