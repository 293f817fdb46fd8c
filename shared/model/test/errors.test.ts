import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ErrorCodeSchema, ErrorSchema } from '../../api/schema.js';
import { ERROR_CODES, InspectorError } from '../errors.js';

test('the API schema knows exactly the error codes of the model', () => {
  assert.deepEqual(ErrorCodeSchema.options, [...ERROR_CODES]);
});

test('an InspectorError survives the wire with every field', () => {
  const error = new InspectorError('xpath-syntax', 'unexpected end', {
    position: { line: 1, column: 15, offset: 14 },
    runtimeId: 'mock:edit-search',
    path: 'params.xpath',
  });
  const wire = ErrorSchema.parse(JSON.parse(JSON.stringify(error.toData())));
  const rebuilt = InspectorError.fromData(wire);
  assert.ok(rebuilt instanceof InspectorError);
  assert.deepEqual(
    [rebuilt.code, rebuilt.message, rebuilt.position, rebuilt.runtimeId, rebuilt.path],
    ['xpath-syntax', 'unexpected end', { line: 1, column: 15, offset: 14 }, 'mock:edit-search', 'params.xpath'],
  );
});
