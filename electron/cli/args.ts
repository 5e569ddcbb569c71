// The commands' flags, read by node's parseArgs: --name value, --name=value, boolean switches, repeatable options,
// and positional arguments. Anything unexpected is a UsageError (exit code 2) of one line.
import { parseArgs as parseNodeArgs } from 'node:util';
import { DeltaportError } from '../../shared/errors.js';

export class UsageError extends DeltaportError {
  constructor(message: string) {
    super('VALIDATION', message);
  }
}

export type FlagKind = 'value' | 'switch' | 'list';

export interface ParsedArgs {
  positionals: string[];
  values: Map<string, string>;
  switches: Set<string>;
  lists: Map<string, string[]>;
}

export function parseArgs(argv: string[], flags: Record<string, FlagKind>, command: string): ParsedArgs {
  const options = Object.fromEntries(
    Object.entries(flags).map(([name, kind]) => [name, { type: kind === 'switch' ? 'boolean' : 'string' } as const]),
  );
  // Not strict: node's own errors are multi-part sentences; each problem is worded here, as one line.
  const { tokens } = parseNodeArgs({ args: argv, options, strict: false, allowPositionals: true, tokens: true });
  const parsed: ParsedArgs = { positionals: [], values: new Map(), switches: new Set(), lists: new Map() };
  let lastShort = -1;
  for (const token of tokens) {
    if (token.kind === 'option-terminator') continue;
    if (token.kind === 'positional') {
      parsed.positionals.push(token.value);
      continue;
    }
    // A single-dash word (-x, -12) is an argument, as it always was here; node splits it into short options.
    if (!token.rawName.startsWith('--')) {
      if (token.index !== lastShort) parsed.positionals.push(argv[token.index]);
      lastShort = token.index;
      continue;
    }
    const { name } = token;
    const kind = flags[name];
    if (!kind) throw new UsageError(`unknown option --${name} for '${command}' (see deltaport help ${command})`);
    if (kind === 'switch') {
      if (token.inlineValue) throw new UsageError(`--${name} takes no value`);
      parsed.switches.add(name);
      continue;
    }
    // node takes the next word as the value even when it is another option: that is a missing value here.
    if (token.value === undefined || (!token.inlineValue && token.value.startsWith('--'))) throw new UsageError(`--${name} needs a value`);
    if (kind === 'list') {
      parsed.lists.set(name, [...(parsed.lists.get(name) ?? []), token.value]);
    } else {
      if (parsed.values.has(name)) throw new UsageError(`--${name} is given more than once`);
      parsed.values.set(name, token.value);
    }
  }
  return parsed;
}

/** The one positional argument a command takes (the table). */
export function onePositional(args: ParsedArgs, what: string): string {
  if (args.positionals.length === 0) throw new UsageError(`missing ${what}`);
  if (args.positionals.length > 1) throw new UsageError(`unexpected argument '${args.positionals[1]}'`);
  return args.positionals[0];
}

/** A whole number from a flag, within bounds; undefined when the flag is absent. */
export function intFlag(args: ParsedArgs, name: string, min: number, what: string): number | undefined {
  const text = args.values.get(name);
  if (text === undefined) return undefined;
  const n = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min) throw new UsageError(`--${name} must be ${what}, got '${text}'`);
  return n;
}

/** A whole number from a flag whose bounds a spec's schema checks (it names the setting and its range); undefined
 * when the flag is absent. */
export function numberFlag(args: ParsedArgs, name: string): number | undefined {
  return intFlag(args, name, 0, 'a whole number');
}

/** A comma-separated list of names ("a,b"); surrounding spaces are trimmed. */
export function listFlag(args: ParsedArgs, name: string): string[] | undefined {
  const text = args.values.get(name);
  return text === undefined ? undefined : text.split(',').map((s) => s.trim());
}
