// A server's connection (PostgreSQL or MySQL): a URL, or its parts (parts given here override the URL's). A URL with
// a password in it is masked as the Password field is, until Show is pressed.
import { useState } from 'react';
import type { SinkForm } from '../sink-form.js';
import { TextField } from './Field.js';

interface Props {
  form: SinkForm;
  set<K extends keyof SinkForm>(key: K, value: SinkForm[K]): void;
  savedPassword: boolean;
  /** Which server the placeholders show. */
  kind: 'postgres' | 'mysql';
}

const PLACEHOLDERS = {
  postgres: { url: 'postgres://user:password@host:5432/database', port: '5432' },
  mysql: { url: 'mysql://user:password@host:3306/database', port: '3306' },
};

/** Whether the URL carries a password (between "user:" and "@"). */
export function urlHasPassword(url: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\/[^:@/]*:[^@/]+@/i.test(url);
}

export function PostgresFields({ form, set, savedPassword, kind }: Props) {
  // The value itself never changes for display (a field whose text changes on focus loses what is typed into it):
  // a URL with a password is a password field until Show is pressed.
  const [showUrl, setShowUrl] = useState(false);
  const masked = urlHasPassword(form.url) && !showUrl;
  return (
    <>
      <div className="url-row">
        <TextField
          label="Connection URL"
          type={masked ? 'password' : 'text'}
          autoComplete="off"
          placeholder={PLACEHOLDERS[kind].url}
          value={form.url}
          onChange={(value) => set('url', value)}
        />
        {urlHasPassword(form.url) && (
          <button type="button" className="button small ghost" aria-pressed={showUrl} onClick={() => setShowUrl(!showUrl)}>
            {showUrl ? 'Hide' : 'Show'}
          </button>
        )}
      </div>
      <p className="muted small">Or give the parts; any part given here overrides the URL’s.</p>
      <div className="form-grid three">
        <TextField label="Host" value={form.host} onChange={(value) => set('host', value)} />
        <TextField
          label="Port"
          type="number"
          min={1}
          max={65535}
          placeholder={PLACEHOLDERS[kind].port}
          value={form.port}
          onChange={(value) => set('port', value)}
        />
        <TextField label="Database" value={form.database} onChange={(value) => set('database', value)} />
        <TextField label="User" autoComplete="off" value={form.user} onChange={(value) => set('user', value)} />
        <TextField
          label="Password"
          type="password"
          autoComplete="new-password"
          placeholder={savedPassword ? 'saved (encrypted)' : ''}
          value={form.password}
          onChange={(value) => set('password', value)}
        />
        <label className="check align-end">
          <input type="checkbox" checked={form.ssl} onChange={(e) => set('ssl', e.target.checked)} />
          <span>Use SSL</span>
        </label>
      </div>
    </>
  );
}
