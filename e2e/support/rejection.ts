import assert from 'node:assert/strict';
import { InspectorError } from '../../shared/model/errors.js';

/** The InspectorError a promise rejects with; fails the test when it resolves or rejects with anything else. */
export async function rejection(promise: Promise<unknown>, expected = 'a rejection'): Promise<InspectorError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof InspectorError, String(error));
    return error;
  }
  assert.fail(`expected ${expected}, but the promise resolved`);
}
