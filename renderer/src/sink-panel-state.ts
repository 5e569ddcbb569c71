// The Export tab's state in one reducer: the form as typed, and what the host answered about it (plan, connection
// test, a started job, an existing target to decide about). Every edit drops answers that no longer describe the form.
import type { ExportPlan, ConnectionReport } from '../../shared/sink-spec.js';
import type { SinkProfile } from '../../shared/api.js';
import type { ErrorValue } from '../../shared/errors.js';
import { emptyForm, fromSinkSpec } from './sink-form.js';
import type { SinkForm } from './sink-form.js';

export type Busy = 'plan' | 'test' | 'export' | null;

export interface SinkPanelState {
  form: SinkForm;
  /** The open table's default target name when the user typed one: the typed name holds while that table is open,
   * and any other table's export targets that table's own name. */
  tableTypedFor: string | null;
  /** A loaded profile whose password the host keeps encrypted; requests name it so the host can fill it in. */
  profileWithPassword: string | null;
  plan: ExportPlan | null;
  planError: ErrorValue | null;
  connection: ConnectionReport | null;
  connectionError: ErrorValue | null;
  /** The form's problems are shown once an action was tried, and recomputed from the form as it changes. */
  tried: boolean;
  exportError: ErrorValue | null;
  /** The job the last Export started: its live state is shown, not a "Started" frozen at the time. */
  startedJobId: string | null;
  busy: Busy;
  /** The target already exists: append, replace or stop, before anything is written. */
  existingTarget: { target: string; canAppend: boolean } | null;
}

export type SinkPanelAction =
  | { type: 'edit'; changes: Partial<SinkForm>; defaultTable: string }
  | { type: 'loadProfile'; profile: SinkProfile; table: string }
  | { type: 'tried' }
  | { type: 'busy'; busy: Busy }
  | { type: 'planned'; plan: ExportPlan }
  | { type: 'planFailed'; error: ErrorValue }
  | { type: 'connected'; report: ConnectionReport }
  | { type: 'connectionFailed'; error: ErrorValue }
  | { type: 'targetExists'; target: string; canAppend: boolean }
  | { type: 'started'; jobId: string }
  | { type: 'exportFailed'; error: ErrorValue }
  | { type: 'stopped' };

/** The form as it applies to the open table: its own name as the target unless the user typed one for it. */
export function formFor(state: SinkPanelState, defaultTable: string): SinkForm {
  return state.tableTypedFor === defaultTable ? state.form : { ...state.form, table: defaultTable };
}

export function initialSinkPanel(): SinkPanelState {
  return {
    form: emptyForm(''),
    tableTypedFor: null,
    profileWithPassword: null,
    plan: null,
    planError: null,
    connection: null,
    connectionError: null,
    tried: false,
    exportError: null,
    startedJobId: null,
    busy: null,
    existingTarget: null,
  };
}

/** What the host said about the destination no longer holds once the destination changes. */
const STALE_ANSWERS = { plan: null, planError: null, exportError: null, existingTarget: null } as const;

export function sinkPanelReducer(state: SinkPanelState, action: SinkPanelAction): SinkPanelState {
  switch (action.type) {
    case 'edit': {
      const connectionChanged = Object.keys(action.changes).some((k) => k === 'kind' || k in CONNECTION_FIELDS);
      return {
        ...state,
        ...STALE_ANSWERS,
        form: { ...state.form, ...action.changes },
        tableTypedFor: 'table' in action.changes ? action.defaultTable : state.tableTypedFor,
        ...(connectionChanged ? { connection: null, connectionError: null } : {}),
      };
    }
    case 'loadProfile': {
      const form = fromSinkSpec(action.profile.sink, { ...state.form, table: action.table });
      return {
        ...state,
        ...STALE_ANSWERS,
        form,
        tableTypedFor: form.table !== action.table ? action.table : null,
        profileWithPassword: action.profile.hasPassword ? action.profile.name : null,
        connection: null,
        connectionError: null,
      };
    }
    case 'tried':
      return { ...state, tried: true, exportError: null, planError: null, connectionError: null };
    case 'busy':
      return { ...state, busy: action.busy };
    case 'planned':
      return { ...state, busy: null, plan: action.plan, planError: null };
    case 'planFailed':
      return { ...state, busy: null, plan: null, planError: action.error };
    case 'connected':
      return { ...state, busy: null, connection: action.report, connectionError: null };
    case 'connectionFailed':
      return { ...state, busy: null, connection: null, connectionError: action.error };
    case 'targetExists':
      return { ...state, busy: null, existingTarget: { target: action.target, canAppend: action.canAppend } };
    case 'started':
      return { ...state, busy: null, existingTarget: null, startedJobId: action.jobId, exportError: null };
    case 'exportFailed':
      return { ...state, busy: null, existingTarget: null, exportError: action.error };
    case 'stopped':
      return { ...state, existingTarget: null };
  }
}

const CONNECTION_FIELDS: Partial<Record<keyof SinkForm, true>> = {
  url: true,
  host: true,
  port: true,
  database: true,
  user: true,
  password: true,
  ssl: true,
  sqlitePath: true,
  duckdbPath: true,
};
