// The error a promise rejects with, checked to be one of ours (a DeltaportError with its code and one-line message).
import { expect } from 'vitest';
import { DeltaportError } from '../../shared/errors.js';

export async function failure(promise: Promise<unknown>): Promise<DeltaportError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DeltaportError);
  return err as DeltaportError;
}
