import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSandboxFacts, sandboxBlock } from '../../../electron/launcher/linux-sandbox.js';

let dir: string;
let binary: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'deltaport-sandbox-'));
  binary = path.join(dir, 'electron');
  fs.writeFileSync(binary, '');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("Electron's sandbox on Linux (Ubuntu 24.04's AppArmor restriction)", () => {
  it('reads the sandbox helper as the file system has it', () => {
    const helper = path.join(dir, 'chrome-sandbox');
    fs.writeFileSync(helper, '');
    fs.chmodSync(helper, 0o755);
    expect(readSandboxFacts(binary).helper).toEqual({ uid: fs.statSync(helper).uid, mode: 0o755 });
    fs.rmSync(helper);
    expect(readSandboxFacts(binary).helper).toBeNull();
  });

  it('blocks the start with the fix in one line where user namespaces are restricted and the helper is not setuid root', () => {
    const helper = path.join(dir, 'chrome-sandbox');
    for (const facts of [
      { restriction: '1', helper: { uid: 1000, mode: 0o755 } },
      { restriction: '1', helper: { uid: 0, mode: 0o755 } },
      { restriction: '1', helper: null },
    ]) {
      const line = sandboxBlock(facts, binary);
      expect(line).toContain('apparmor_restrict_unprivileged_userns is 1');
      expect(line).toContain(`sudo chown root:root '${helper}' && sudo chmod 4755 '${helper}'`);
      expect(line).toContain('`npx deltaport serve`');
      expect(line).not.toContain('\n');
    }
  });

  it('lets Electron start where there is no restriction or the helper is already setuid root', () => {
    expect(sandboxBlock({ restriction: '0', helper: null }, binary)).toBeNull();
    expect(sandboxBlock({ restriction: null, helper: null }, binary)).toBeNull();
    expect(sandboxBlock({ restriction: '1', helper: { uid: 0, mode: 0o4755 } }, binary)).toBeNull();
  });
});
