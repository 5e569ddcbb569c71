// The `deltaport` command line. Each command's module is imported only when it runs, so that starting the CLI
// stays cheap. Every failure ends as `deltaport: <message>` on stderr (one line per problem, never a stack) and a
// non-zero exit code: 2 for a wrong command line (no arguments at all prints the help), 1 for everything else.
import { statSync } from 'node:fs';
import { toErrorValue } from '../../shared/errors.js';
import { UsageError } from './args.js';
import { COMMANDS, commandHelp, OVERVIEW, type Command } from './help.js';
import type { CliIo } from './io.js';

export type { CliIo } from './io.js';

type Runner = (argv: string[], io: CliIo) => Promise<number>;

const RUNNERS: Record<Command, () => Promise<Runner>> = {
  schema: async () => (await import('./schema-command.js')).schemaCommand,
  history: async () => (await import('./history-command.js')).historyCommand,
  preview: async () => (await import('./preview-command.js')).previewCommand,
  export: async () => (await import('./export-command.js')).exportCommand,
  diff: async () => (await import('./diff-command.js')).diffCommand,
  changes: async () => (await import('./changes-command.js')).changesCommand,
  profile: async () => (await import('./profile-command.js')).profileCommand,
  partitions: async () => (await import('./profile-command.js')).partitionsCommand,
  sql: async () => (await import('./sql-command.js')).sqlCommand,
  catalogs: async () => (await import('./catalog-commands.js')).catalogsCommand,
  schemas: async () => (await import('./catalog-commands.js')).schemasCommand,
  tables: async () => (await import('./catalog-commands.js')).tablesCommand,
  serve: async () => (await import('../server/serve-command.js')).runServe,
};

export async function main(argv: string[], io: CliIo): Promise<number> {
  try {
    return await dispatch(argv, io);
  } catch (err) {
    for (const line of errorLines(err)) io.stderr.write(`deltaport: ${line}\n`);
    return err instanceof UsageError ? 2 : 1;
  }
}

async function dispatch(argv: string[], io: CliIo): Promise<number> {
  const [first, ...rest] = argv;
  // No arguments is a wrong command line, not a request for help: the help goes to stderr, with exit code 2.
  if (first === undefined) {
    io.stderr.write(`${OVERVIEW}\n`);
    return 2;
  }
  if (first === '--help' || first === '-h') {
    io.stdout.write(`${OVERVIEW}\n`);
    return 0;
  }
  if (first === 'help') {
    if (rest.length === 0) io.stdout.write(`${OVERVIEW}\n`);
    else io.stdout.write(`${commandHelp(knownCommand(rest[0]))}\n`);
    return 0;
  }
  if (isCommand(first)) {
    if (rest.includes('--help') || rest.includes('-h')) {
      io.stdout.write(`${commandHelp(first)}\n`);
      return 0;
    }
    return (await RUNNERS[first]())(rest, io);
  }
  // `deltaport <table>`: the table's schema (the desktop app opens the same argument as a table).
  if (!first.startsWith('-') && isFolder(first)) return (await RUNNERS.schema())(argv, io);
  throw new UsageError(
    first.startsWith('-')
      ? `unknown option ${first} (see deltaport --help)`
      : `'${first}' is neither a command nor a table folder (see deltaport --help)`,
  );
}

function isCommand(name: string): name is Command {
  return (COMMANDS as readonly string[]).includes(name);
}

function knownCommand(name: string): Command {
  if (!isCommand(name)) throw new UsageError(`no command '${name}' (commands: ${COMMANDS.join(', ')})`);
  return name;
}

function isFolder(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

// A validation failure's problems, one per line; any other error is its one-line message.
function errorLines(err: unknown): readonly string[] {
  const error = toErrorValue(err);
  return error.problems ?? [error.message];
}
