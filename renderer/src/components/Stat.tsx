// One figure in a row of stat cards (Overview, Profile, a diff's summary): a label, the value, a note under it.
import type { ReactNode } from 'react';

export function Stat({ label, value, note }: { label: string; value: ReactNode; note?: ReactNode }) {
  return (
    <div className="stat">
      <div className="stat-label">{label}</div>
      <div className="stat-value">{value}</div>
      {note && <div className="stat-note">{note}</div>}
    </div>
  );
}
