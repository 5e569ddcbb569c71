// Syntax tree -> checked expression against a table schema: names resolved (exactly, else case-insensitively when
// that is unambiguous, as Spark does), operands of a comparison of one family, string literals read as the type of
// the column they meet (state_date = '2024-01-31'), the whole a boolean.
import { isStruct, typeLabel, type DeltaType, type PrimitiveType, type StructField, type StructType } from '../delta-schema.js';
import { parseDeltaText, parseTimestampMicros, type DeltaValue } from '../delta-values.js';
import { familyOf } from './compare.js';
import { typeOf, type Expr } from './expr.js';
import { FilterError, type Syntax } from './syntax.js';

export function checkFilter(tree: Syntax, schema: StructType): Expr {
  const expr = new Checker(schema).check(tree);
  requireBoolean(expr, tree);
  return expr;
}

class Checker {
  constructor(private readonly schema: StructType) {}

  check(node: Syntax, context?: DeltaType): Expr {
    switch (node.kind) {
      case 'column':
        return this.column(node.path, node.pos);
      case 'literal':
        return literal(node, context);
      case 'compare': {
        const [left, right] = this.comparable(node.left, node.right, node.op);
        return { op: 'compare', cmp: node.op, left, right };
      }
      case 'and':
      case 'or': {
        const args = [node.left, node.right].map((n) => this.booleanOperand(n, node.kind.toUpperCase()));
        return { op: node.kind, args };
      }
      case 'not':
        return { op: 'not', arg: this.booleanOperand(node.arg, 'NOT') };
      case 'in': {
        const arg = this.check(node.arg);
        const list = node.list.map((item) => this.comparable(node.arg, item, 'IN', arg)[1]);
        const expr: Expr = { op: 'in', arg, list };
        return node.negated ? { op: 'not', arg: expr } : expr;
      }
      case 'between': {
        const [arg, low] = this.comparable(node.arg, node.low, 'BETWEEN');
        const high = this.comparable(node.arg, node.high, 'BETWEEN', arg)[1];
        const expr: Expr = {
          op: 'and',
          args: [
            { op: 'compare', cmp: '>=', left: arg, right: low },
            { op: 'compare', cmp: '<=', left: arg, right: high },
          ],
        };
        return node.negated ? { op: 'not', arg: expr } : expr;
      }
      case 'isNull': {
        const expr: Expr = { op: 'isNull', arg: this.check(node.arg) };
        return node.negated ? { op: 'not', arg: expr } : expr;
      }
      case 'like': {
        const arg = this.check(node.arg);
        const type = typeOf(arg);
        if (type !== 'string' && type !== 'void') throw new FilterError(`LIKE needs a string, not ${describeType(arg)}`, node.arg.pos);
        const pattern = stringLiteral(node.pattern, 'the LIKE pattern');
        const escape = node.escape ? stringLiteral(node.escape, 'the ESCAPE character') : null;
        if (escape !== null && [...escape].length !== 1) {
          throw new FilterError(`the ESCAPE character must be one character, got '${escape}'`, node.escape!.pos);
        }
        const expr: Expr = { op: 'like', arg, pattern, escape };
        return node.negated ? { op: 'not', arg: expr } : expr;
      }
    }
  }

  private booleanOperand(node: Syntax, operator: string): Expr {
    const expr = this.check(node);
    const type = typeOf(expr);
    if (type !== 'boolean' && type !== 'void') throw new FilterError(`${operator} needs a condition, not ${describeType(expr)}`, node.pos);
    return expr;
  }

  /** Both operands, checked so that they compare: a string literal takes the type of the other side. */
  private comparable(leftNode: Syntax, rightNode: Syntax, operator: string, checkedLeft?: Expr): [Expr, Expr] {
    let left = checkedLeft ?? this.check(leftNode);
    const right = this.check(rightNode, typeOf(left));
    if (isStringLiteral(leftNode) && typeOf(right) !== 'string') left = this.check(leftNode, typeOf(right));
    const [lf, rf] = [familyOf(typeOf(left)), familyOf(typeOf(right))];
    for (const [expr, family, node] of [
      [left, lf, leftNode],
      [right, rf, rightNode],
    ] as const) {
      if (family === null) throw new FilterError(`${operator} cannot compare ${describeType(expr)}`, node.pos);
    }
    if (lf !== rf && lf !== 'void' && rf !== 'void') {
      const [column, other] = left.op === 'column' ? [left, right] : [right, left];
      const hint = column.op === 'column' ? valueHint(column.path.join('.'), column.type, operator, other) : undefined;
      throw new FilterError(`${operator} cannot compare ${describeType(left)} with ${describeType(right)}`, rightNode.pos, hint);
    }
    return [left, right];
  }

  private column(path: string[], pos: number): Expr {
    let type: DeltaType = this.schema;
    const names: string[] = [];
    for (const part of path) {
      if (!isStruct(type)) throw new FilterError(`'${names.join('.')}' is ${typeLabel(type)}, it has no field '${part}'`, pos);
      const fields: StructField[] = type.fields;
      const field: StructField | undefined = fields.find((f) => f.name === part) ?? uniqueCaseInsensitive(fields, part);
      if (!field) throw new FilterError(unknownColumn(names, part, fields), pos);
      names.push(field.name);
      type = field.type;
    }
    return { op: 'column', path: names, type };
  }
}

function uniqueCaseInsensitive(fields: StructField[], name: string): StructField | undefined {
  const matches = fields.filter((f) => f.name.toLowerCase() === name.toLowerCase());
  return matches.length === 1 ? matches[0] : undefined;
}

function unknownColumn(parent: string[], name: string, fields: StructField[]): string {
  const where = parent.length === 0 ? 'no column' : `'${parent.join('.')}' has no field`;
  const shown = fields
    .slice(0, 8)
    .map((f) => `'${f.name}'`)
    .join(', ');
  const more = fields.length > 8 ? ` and ${fields.length - 8} more` : '';
  return `${where} '${name}' (${parent.length === 0 ? 'columns' : 'fields'}: ${shown}${more})`;
}

function requireBoolean(expr: Expr, node: Syntax): void {
  const type = typeOf(expr);
  if (type !== 'boolean' && type !== 'void') {
    throw new FilterError(`the filter must be a condition (such as a comparison), not ${describeType(expr)}`, node.pos);
  }
}

function isStringLiteral(node: Syntax): boolean {
  return node.kind === 'literal' && node.literal === 'string';
}

function stringLiteral(node: Syntax, what: string): string {
  if (!isStringLiteral(node)) throw new FilterError(`${what} must be a string in single quotes`, node.pos);
  return (node as { text: string }).text;
}

/** A literal's value; a string literal beside a column of another type is read as that type. */
function literal(node: Extract<Syntax, { kind: 'literal' }>, context: DeltaType | undefined): Expr {
  switch (node.literal) {
    case 'null':
      return { op: 'literal', type: 'void', value: null };
    case 'boolean':
      return { op: 'literal', type: 'boolean', value: node.text === 'true' };
    case 'number':
      return numberLiteral(node.text, node.pos);
    case 'string': {
      const family = context === undefined ? null : familyOf(context);
      if (family === null || family === 'string' || family === 'void') return { op: 'literal', type: 'string', value: node.text };
      // A number column against '100' reads it as a number literal, whatever the column's own type; a floating
      // column also takes 'NaN' and 'Infinity'.
      if (family === 'numeric' && (context === 'float' || context === 'double') && /^[+-]?(NaN|Infinity)$/.test(node.text)) {
        return { op: 'literal', type: 'double', value: Number(node.text) };
      }
      if (family === 'numeric') return numberLiteral(node.text.trim(), node.pos, `'${node.text}' is not a number`);
      return typedLiteral(node.text, context as PrimitiveType, node.pos);
    }
    default:
      return typedLiteral(node.text, node.literal, node.pos);
  }
}

function typedLiteral(text: string, type: PrimitiveType, pos: number): Expr {
  let value: DeltaValue | undefined = parseDeltaText(text, type);
  // A timestamp may be given as a date: midnight UTC.
  if (value === undefined && (type === 'timestamp' || type === 'timestamp_ntz'))
    value = parseTimestampMicros(`${text} 00:00:00`) ?? undefined;
  if (value === undefined || value === null) throw new FilterError(`'${text}' is not a valid ${type}`, pos);
  return { op: 'literal', type, value };
}

const INT64_MAX = 2n ** 63n - 1n;

/** Integers are long, numbers with a point decimal(p,s) (exact), numbers with an exponent double. */
function numberLiteral(text: string, pos: number, message = `'${text}' is not a number`): Expr {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?([eE][+-]?\d+)?$/.exec(text);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) throw new FilterError(message, pos);
  if (m[4]) return { op: 'literal', type: 'double', value: Number(text) };
  const fraction = m[3] ?? '';
  const unscaled = BigInt(`${m[1]}${m[2]}${fraction}` || '0');
  if (m[3] === undefined && unscaled >= -INT64_MAX - 1n && unscaled <= INT64_MAX) return { op: 'literal', type: 'long', value: unscaled };
  const digits = Math.max((m[2] + fraction).replace(/^0+/, '').length, fraction.length, 1);
  if (digits > 38) return { op: 'literal', type: 'double', value: Number(text) };
  return { op: 'literal', type: `decimal(${digits},${fraction.length})`, value: unscaled };
}

/** What to type to compare with this column, in the user's terms: the value written the way its type reads it. */
function valueHint(name: string, type: DeltaType, operator: string, other: Expr): string {
  const typed = other.op === 'literal' && other.value !== null && typeof other.value !== 'object' ? String(other.value) : null;
  switch (familyOf(type)) {
    case 'string':
      return `put the value in single quotes: ${name} ${operator} '${typed ?? 'text'}'`;
    case 'numeric':
      return `write a number without quotes: ${name} ${operator} ${typed !== null && /^-?\d/.test(typed) ? typed : '100'}`;
    case 'temporal':
      return `write the date or time in single quotes: ${name} ${operator} '2021-01-31'`;
    case 'boolean':
      return `write true or false: ${name} ${operator} true`;
    default:
      return `compare ${name} with a value of its own type`;
  }
}

function describeType(expr: Expr): string {
  const type = typeLabel(typeOf(expr));
  if (expr.op === 'column') return `${type} column '${expr.path.join('.')}'`;
  if (expr.op === 'literal') return expr.type === 'void' ? 'NULL' : `a ${type} value`;
  return 'a condition';
}
