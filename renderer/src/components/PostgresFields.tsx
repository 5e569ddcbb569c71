// PostgreSQL connection: a URL, or its parts (parts given here override the URL's).
import type { SinkForm } from '../sink-form.js';

interface Props {
  form: SinkForm;
  set<K extends keyof SinkForm>(key: K, value: SinkForm[K]): void;
  savedPassword: boolean;
}

export function PostgresFields({ form, set, savedPassword }: Props) {
  return (
    <>
      <label className="field">
        <span>Connection URL</span>
        <input
          type="text"
          spellCheck={false}
          autoComplete="off"
          placeholder="postgres://user:password@host:5432/database"
          value={form.url}
          onChange={(e) => set('url', e.target.value)}
        />
      </label>
      <p className="muted small">Or give the parts; any part given here overrides the URL’s.</p>
      <div className="form-grid three">
        <label className="field">
          <span>Host</span>
          <input type="text" spellCheck={false} value={form.host} onChange={(e) => set('host', e.target.value)} />
        </label>
        <label className="field">
          <span>Port</span>
          <input type="number" min={1} max={65535} placeholder="5432" value={form.port} onChange={(e) => set('port', e.target.value)} />
        </label>
        <label className="field">
          <span>Database</span>
          <input type="text" spellCheck={false} value={form.database} onChange={(e) => set('database', e.target.value)} />
        </label>
        <label className="field">
          <span>User</span>
          <input type="text" spellCheck={false} autoComplete="off" value={form.user} onChange={(e) => set('user', e.target.value)} />
        </label>
        <label className="field">
          <span>Password</span>
          <input
            type="password"
            autoComplete="new-password"
            placeholder={savedPassword ? 'saved (encrypted)' : ''}
            value={form.password}
            onChange={(e) => set('password', e.target.value)}
          />
        </label>
        <label className="check align-end">
          <input type="checkbox" checked={form.ssl} onChange={(e) => set('ssl', e.target.checked)} />
          <span>Use SSL</span>
        </label>
      </div>
    </>
  );
}
