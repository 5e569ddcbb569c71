// Ubuntu 24.04 and later forbid unprivileged user namespaces to programs without an AppArmor profile
// (kernel.apparmor_restrict_unprivileged_userns=1). Chromium's sandbox inside Electron then needs its setuid helper,
// chrome-sandbox, owned by root with mode 4755, and otherwise Electron dies at start ("The SUID sandbox helper binary
// was found, but is not configured correctly"). The launcher checks this before starting Electron and says the fix;
// the deb package installs an AppArmor profile and needs none of this.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export const USERNS_RESTRICTION = '/proc/sys/kernel/apparmor_restrict_unprivileged_userns';

export interface SandboxFacts {
  /** What the restriction file says ('1' restricted), or null where there is none (not Linux, older kernels). */
  restriction: string | null;
  /** The sandbox helper's owner and mode, or null where it is missing. */
  helper: { uid: number; mode: number } | null;
}

export function readSandboxFacts(electronBinary: string): SandboxFacts {
  let restriction: string | null;
  try {
    restriction = readFileSync(USERNS_RESTRICTION, 'utf8').trim();
  } catch {
    restriction = null;
  }
  try {
    const stat = statSync(path.join(path.dirname(electronBinary), 'chrome-sandbox'));
    return { restriction, helper: { uid: stat.uid, mode: stat.mode & 0o7777 } };
  } catch {
    return { restriction, helper: null };
  }
}

/** The one line that explains why Electron cannot start here and how to fix it, or null when it can. */
export function sandboxBlock(facts: SandboxFacts, electronBinary: string): string | null {
  if (facts.restriction !== '1') return null;
  if (facts.helper && facts.helper.uid === 0 && facts.helper.mode === 0o4755) return null;
  const helper = path.join(path.dirname(electronBinary), 'chrome-sandbox');
  return (
    `this system's AppArmor forbids the sandbox Electron needs (${USERNS_RESTRICTION} is 1, as on Ubuntu 24.04 and later); ` +
    `give the sandbox helper to root once: sudo chown root:root '${helper}' && sudo chmod 4755 '${helper}' ` +
    `(the installed .deb package needs nothing), or ${'`npx deltaport serve`'} gives the same app in a browser`
  );
}
