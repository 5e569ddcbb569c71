// A small argv parser for the commands: --name value, --name=value, boolean switches, repeatable options, and
// positional arguments. Anything unexpected is a UsageError (exit code 2).
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
  const parsed: ParsedArgs = { positionals: [], values: new Map(), switches: new Set(), lists: new Map() };
  let onlyPositionals = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (onlyPositionals || !arg.startsWith('--') || arg === '--') {
      if (arg === '--' && !onlyPositionals) onlyPositionals = true;
      else parsed.positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
    const kind = flags[name];
    if (!kind) throw new UsageError(`unknown option --${name} for '${command}' (see deltaport help ${command})`);
    if (kind === 'switch') {
      if (eq >= 0) throw new UsageError(`--${name} takes no value`);
      parsed.switches.add(name);
      continue;
    }
    let value: string | undefined;
    if (eq >= 0) value = arg.slice(eq + 1);
    else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) value = argv[++i];
    if (value === undefined) throw new UsageError(`--${name} needs a value`);
    if (kind === 'list') {
      parsed.lists.set(name, [...(parsed.lists.get(name) ?? []), value]);
    } else {
      if (parsed.values.has(name)) throw new UsageError(`--${name} is given more than once`);
      parsed.values.set(name, value);
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

/** A comma-separated list of names ("a,b"); surrounding spaces are trimmed. */
export function listFlag(args: ParsedArgs, name: string): string[] | undefined {
  const text = args.values.get(name);
  return text === undefined ? undefined : text.split(',').map((s) => s.trim());
}
