// The Export tab's reducer: edits drop the answers that no longer describe the form; the typed target name holds
// only for the table it was typed for.
import { describe, expect, it } from 'vitest';
import type { ExportPlan } from '../../shared/sink-spec.js';
import { formFor, initialSinkPanel, sinkPanelReducer } from '../../renderer/src/sink-panel-state.js';
import type { SinkPanelAction, SinkPanelState } from '../../renderer/src/sink-panel-state.js';

const plan: ExportPlan = { sink: 'sqlite', target: 't', ddl: [], statement: 'INSERT', targetExists: true, incompatibility: null };

function run(...actions: SinkPanelAction[]): SinkPanelState {
  return actions.reduce(sinkPanelReducer, initialSinkPanel());
}

describe('sinkPanelReducer', () => {
  it('drops the plan, the errors and a pending choice on any edit, and the connection test on a connection edit', () => {
    const answered = run(
      { type: 'connected', report: { serverVersion: 'PostgreSQL 17', targetExists: false } },
      { type: 'planned', plan },
      { type: 'targetExists', target: 't', canAppend: true },
    );
    expect(answered.existingTarget).toEqual({ target: 't', canAppend: true });
    const batch = sinkPanelReducer(answered, { type: 'edit', changes: { batchSize: '10' }, defaultTable: 'people' });
    expect(batch).toMatchObject({ plan: null, existingTarget: null, connection: answered.connection });
    const url = sinkPanelReducer(answered, { type: 'edit', changes: { url: 'postgres://h/db' }, defaultTable: 'people' });
    expect(url.connection).toBeNull();
  });

  it('keeps a typed target name for the table it was typed for only', () => {
    const typed = run({ type: 'edit', changes: { table: 'facts' }, defaultTable: 'people' });
    expect(formFor(typed, 'people').table).toBe('facts');
    expect(formFor(typed, 'orders').table).toBe('orders');
    expect(formFor(initialSinkPanel(), 'people').table).toBe('people');
  });

  it('records a started job and forgets the choice that led to it', () => {
    const state = run(
      { type: 'busy', busy: 'export' },
      { type: 'targetExists', target: 't', canAppend: false },
      { type: 'started', jobId: 'j1' },
    );
    expect(state).toMatchObject({ busy: null, existingTarget: null, startedJobId: 'j1', exportError: null });
    expect(run({ type: 'exportFailed', error: { code: 'SINK_WRITE', message: 'no' } })).toMatchObject({
      exportError: { message: 'no' },
      busy: null,
    });
    expect(run({ type: 'targetExists', target: 't', canAppend: true }, { type: 'stopped' }).existingTarget).toBeNull();
  });

  it('loads a profile, naming it when the host keeps its password', () => {
    const state = run({
      type: 'loadProfile',
      table: 'people',
      profile: {
        name: 'pg',
        hasPassword: true,
        passwordNotSaved: false,
        sink: {
          kind: 'postgres',
          connection: { host: 'db' },
          table: '',
          mode: 'append',
          execution: { batchSize: 5, batchIntervalMs: 0, maxRetries: 1 },
          exactlyOnce: true,
        },
      },
    });
    expect(state.profileWithPassword).toBe('pg');
    expect(formFor(state, 'people')).toMatchObject({ kind: 'postgres', host: 'db', table: 'people', batchSize: '5', exactlyOnce: true });
  });
});
