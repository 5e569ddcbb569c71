// Where a dropped folder is taken from: Electron's answer for the File first, then a file:// URI or path text.
import { describe, expect, it } from 'vitest';
import { droppedLocation, type DropData } from '../../renderer/src/drop.js';

function transfer(data: Record<string, string>, files: object[] = []): DropData<object> {
  return { getData: (type: string) => data[type] ?? '', files };
}

describe('droppedLocation', () => {
  it('uses the desktop bridge for a dropped folder', () => {
    const folder = { name: 'people' };
    const seen: unknown[] = [];
    const outcome = droppedLocation(transfer({}, [folder]), (file) => {
      seen.push(file);
      return '/data/people';
    });
    expect(outcome).toEqual({ path: '/data/people' });
    expect(seen).toEqual([folder]);
  });

  it('falls back to the URI list when the bridge has no path for the item', () => {
    const outcome = droppedLocation(transfer({ 'text/uri-list': 'file:///data/my%20table' }, [{}]), () => '');
    expect(outcome).toEqual({ path: '/data/my table' });
  });

  it('asks for the path in a browser, which cannot see where a dropped folder lives', () => {
    const outcome = droppedLocation(transfer({}, [{}]));
    expect(outcome).toEqual({ problem: expect.stringContaining('paste its path') });
  });
});
