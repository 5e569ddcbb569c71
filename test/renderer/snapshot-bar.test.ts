// @vitest-environment happy-dom
// A time-travel problem, against the real engine: the whole sentence is shown below the snapshot bar (never cut to
// "…" with the rest in a tooltip), and the field it is about names it as its description for screen readers.
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { windowUnderTest } from './in-process-api.js';
import { tablePath } from '../support/tables.js';
import { commitVersions } from '../support/delta-oracle.js';

const win = windowUnderTest();

describe('the snapshot bar', () => {
  it('shows a time-travel problem whole, below the bar, tied to its field', async () => {
    const root = tablePath('simple_table');
    const latest = commitVersions(root).at(-1)!;
    win.renderApp();
    fireEvent.change(screen.getByLabelText('Table location'), { target: { value: root } });
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    await screen.findByText(/^Latest snapshot/, undefined, { timeout: 20_000 });

    const version = screen.getByLabelText('Version');
    fireEvent.change(version, { target: { value: String(latest + 90) } });
    const problem = await waitFor(() => {
      const found = document.getElementById('travel-problem');
      expect(found).not.toBeNull();
      return found!;
    });
    expect(problem.getAttribute('role')).toBe('alert');
    expect(problem.textContent).toContain(String(latest + 90));
    expect(problem.closest('.snapshot-bar')).toBeNull();
    expect(version.getAttribute('aria-describedby')).toBe('travel-problem');
    expect(version.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText('Timestamp').getAttribute('aria-describedby')).toBeNull();

    fireEvent.change(version, { target: { value: '' } });
    await waitFor(() => expect(document.getElementById('travel-problem')).toBeNull());
    expect(version.getAttribute('aria-describedby')).toBeNull();
  }, 60_000);
});
