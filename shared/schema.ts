// The pieces every spec's schema is built from, and how a failed parse becomes a list of problems. The schemas use
// valibot rather than zod: its functions are separate exports, so the renderer's bundle carries only the few it
// uses (zod's method-chaining objects come whole), and the same schema yields the TypeScript types.
import * as v from 'valibot';
import { isCatalogName, parseCatalogName } from './catalog-name.js';
import { isStoreUrl, parseStoreLocation } from './store-location.js';

/** Sizes no honest request comes near, so that nothing unbounded reaches the disk or a database. */
export const LIMITS = {
  path: 4096,
  name: 200,
  text: 1000,
  sql: 100_000,
  filter: 100_000,
  columns: 10_000,
  options: 100,
  timeoutMs: 600_000,
} as const;

/** A whole number from min to max; `what` names it in the one message every way of getting it wrong shares. */
export function wholeNumber(what: string, min: number, max: number = Number.MAX_SAFE_INTEGER) {
  const message =
    max === Number.MAX_SAFE_INTEGER
      ? `${what} must be a whole number, ${min} or more`
      : `${what} must be a whole number from ${min} to ${groupedDigits(max)}`;
  return v.pipe(v.number(message), v.integer(message), v.minValue(min, message), v.maxValue(max, message));
}

/** 600000 as 600,000. Not toLocaleString: its first call loads ICU's number formats, ~15 ms of every command's
 * start, as these schemas are built when their module loads. */
function groupedDigits(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Text of at most max characters. */
export function text(what: string, max: number = LIMITS.text) {
  return v.pipe(v.string(`${what} must be text`), v.maxLength(max, `${what} must be at most ${max} characters`));
}

/** Text that is not blank. */
export function nonBlank(what: string, max: number = LIMITS.text, blank = `${what} must not be empty`) {
  return v.pipe(
    text(what, max),
    v.check((s) => s.trim() !== '', blank),
  );
}

export function flag(what: string) {
  return v.boolean(`${what} must be true or false`);
}

/** A list of names (columns, keys): bounded in length and in each name's size. */
export function nameList(what: string) {
  return v.pipe(
    v.array(text(`each of ${what}`, LIMITS.name * 5), `${what} must be a list of names`),
    v.maxLength(LIMITS.columns, `${what} must have at most ${LIMITS.columns} entries`),
  );
}

// Full paths only: the host has no notion of the folder a page was opened from, and a relative path would land
// wherever the host process happens to run.
const ABSOLUTE = /^(\/|[A-Za-z]:[\\/]|\\\\)/;

function isAbsolutePath(path: string): boolean {
  return ABSOLUTE.test(path);
}

/** A full path to a file or folder: not blank, no NUL, bounded; `words` say what to do in a form's terms. */
export function absolutePath(what: string, words?: { blank?: string; relative?: string }) {
  return v.pipe(
    nonBlank(what, LIMITS.path, words?.blank),
    v.check((s) => !s.includes('\0'), `${what} must not contain NUL`),
    // A blank path has its own message.
    v.check(
      (s) => s.trim() === '' || isAbsolutePath(s),
      (issue) => words?.relative ?? `${what} must be an absolute path (got "${String(issue.input).slice(0, 200)}")`,
    ),
  );
}

/** A full local path, or a cloud URL (s3://, gs://, az://, abfss://) whose bucket and form are valid: where a table
 * or an output file can be. */
export function location(what: string, words?: { blank?: string; relative?: string }) {
  return placeSchema(what, words, false);
}

/** A table's location, or its name through a catalog connection saved in the app
 * (uc://<connection>/catalog.schema.table, glue://<connection>/database/table). */
export function tableLocation(what: string, words?: { blank?: string; relative?: string }) {
  return placeSchema(what, words, true);
}

function placeSchema(what: string, words: { blank?: string; relative?: string } | undefined, catalogNames: boolean) {
  return v.pipe(
    nonBlank(what, LIMITS.path, words?.blank),
    v.check((s) => !s.includes('\0'), `${what} must not contain NUL`),
    v.rawCheck<string>(({ dataset, addIssue }) => {
      if (!dataset.typed || dataset.value.trim() === '') return;
      const s = dataset.value;
      if (catalogNames && isCatalogName(s)) {
        try {
          if (parseCatalogName(s)!.connection === null)
            addIssue({ message: `${what}: '${s}' names no catalog connection (write uc://<connection>/catalog.schema.table)` });
        } catch (err) {
          addIssue({ message: `${what}: ${(err as Error).message}` });
        }
        return;
      }
      if (!isStoreUrl(s)) {
        if (!isAbsolutePath(s))
          addIssue({ message: words?.relative ?? `${what} must be an absolute path or a cloud URL (got "${s.slice(0, 200)}")` });
        return;
      }
      try {
        parseStoreLocation(s);
      } catch (err) {
        addIssue({ message: `${what}: ${(err as Error).message}` });
      }
    }),
  );
}

/** The schema, then every problem that rules across its fields find in a well-shaped value, as issues of the
 * value itself. */
export function withRules<S extends v.GenericSchema>(schema: S, problemsOf: (value: v.InferOutput<S>) => readonly string[]) {
  return v.pipe(
    schema,
    v.rawCheck<v.InferOutput<S>>(({ dataset, addIssue }) => {
      if (!dataset.typed) return;
      for (const message of problemsOf(dataset.value)) addIssue({ message });
    }),
  );
}

/** Each issue as one problem. With `at` (the boundary's name for the value, e.g. "startExport"), a problem starts
 * with where it is ("startExport.sink.path: ..."), for a program's author; without, it is the message alone. */
export function problemsOf(issues: readonly v.BaseIssue<unknown>[], at?: string): string[] {
  return issues.map((issue) => {
    const keys = (issue.path ?? []).map((item) => String(item.key));
    // A field the schema does not know is reported at its object, by name.
    const unknownField = issue.type === 'strict_object' && issue.expected === 'never';
    const where = [at, ...(unknownField ? keys.slice(0, -1) : keys)].filter(Boolean).join('.');
    return at === undefined ? describe(issue, keys, unknownField) : `${where}: ${describe(issue, keys, unknownField)}`;
  });
}

// The object schemas' own issues (not an object, a field missing or unknown) have no message of the spec's.
function describe(issue: v.BaseIssue<unknown>, keys: string[], unknownField: boolean): string {
  if (unknownField) return `has an unknown field "${keys.at(-1)!.slice(0, 50)}"`;
  if (issue.kind !== 'schema' || !['strict_object', 'object', 'record'].includes(issue.type)) return issue.message;
  return issue.expected === 'Object' ? 'must be an object' : 'is missing';
}

/** The value the schema describes, or the problems that keep it from being one. */
export function parseWith<S extends v.GenericSchema>(
  schema: S,
  value: unknown,
  at?: string,
): { ok: true; value: v.InferOutput<S> } | { ok: false; problems: string[] } {
  const result = v.safeParse(schema, value);
  return result.success ? { ok: true, value: result.output } : { ok: false, problems: problemsOf(result.issues, at) };
}
