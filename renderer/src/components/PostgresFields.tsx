// PostgreSQL connection: a URL, or its parts (parts given here override the URL's). A password in the URL is masked
// as the Password field masks its own, except while the URL is being edited.
import { useState } from 'react';
import type { SinkForm } from '../sink-form.js';
import { TextField } from './Field.js';

interface Props {
  form: SinkForm;
  set<K extends keyof SinkForm>(key: K, value: SinkForm[K]): void;
  savedPassword: boolean;
}

/** The URL with its password (between "user:" and "@") shown as dots. */
export function maskedUrl(url: string): string {
  return url.replace(
    /^([a-z][a-z0-9+.-]*:\/\/[^:@/]*:)([^@/]+)@/i,
    (_, head: string, password: string) => `${head}${'•'.repeat(password.length)}@`,
  );
}

export function PostgresFields({ form, set, savedPassword }: Props) {
  const [editingUrl, setEditingUrl] = useState(false);
  return (
    <>
      <TextField
        label="Connection URL"
        autoComplete="off"
        placeholder="postgres://user:password@host:5432/database"
        value={editingUrl ? form.url : maskedUrl(form.url)}
        onFocus={() => setEditingUrl(true)}
        onBlur={() => setEditingUrl(false)}
        onChange={(value) => set('url', value)}
      />
      <p className="muted small">Or give the parts; any part given here overrides the URL’s.</p>
      <div className="form-grid three">
        <TextField label="Host" value={form.host} onChange={(value) => set('host', value)} />
        <TextField
          label="Port"
          type="number"
          min={1}
          max={65535}
          placeholder="5432"
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
