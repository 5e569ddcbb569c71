// One door from a host (IPC or HTTP) into the API: the method name must be one of API_METHODS and the payload must
// pass its validator, else the answer is an error Result and the API is never called.
import type { DeltaportApi, Result } from '../../shared/api.js';
import { toErrorValue } from '../../shared/errors.js';
import { isApiMethod, validateCall } from './ipc-validation.js';

export async function dispatchCall(api: DeltaportApi, method: string, payload: unknown): Promise<Result<unknown>> {
  if (!isApiMethod(method)) {
    return { ok: false, error: { code: 'NOT_FOUND', message: `no API method "${method.slice(0, 100)}"` } };
  }
  let args: unknown[];
  try {
    args = validateCall(method, payload);
  } catch (err) {
    return { ok: false, error: toErrorValue(err) };
  }
  const call = api[method] as (...a: unknown[]) => Promise<Result<unknown>>;
  return call.apply(api, args);
}
