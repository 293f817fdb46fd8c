import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applicationsReached, subtreesReached, topLevelSelection } from '../fast/reach.js';

test('queries of the desktop children and their attributes reach no application tree', () => {
  for (const xpath of [
    'count(/*)',
    '/*',
    '*',
    'app:Application',
    "app:Application[@Name='Chromium']",
    '/app:Application/@Name',
    "count(/*[@Name='x'])",
    '/*/..',
  ]) {
    assert.deepEqual(applicationsReached(xpath), { kind: 'none' }, xpath);
  }
});

test('descending queries reach every application', () => {
  for (const xpath of [
    "//Button[@Name='Find me']",
    'count(//*)',
    '/*/*',
    '/*[Window]',
    '/*[.//Button]',
    "app:Application[@Name='A'] | //Button",
    '//*[not(@Name)]/..',
    'for $x in //Button return $x',
    'descendant::Button',
  ]) {
    assert.deepEqual(applicationsReached(xpath), { kind: 'all' }, xpath);
  }
});

test('a query scoped to named applications reaches only those', () => {
  assert.deepEqual(applicationsReached("app:Application[@Name='Chromium']//Button[@Name='Find me']"), {
    kind: 'named',
    names: ['Chromium'],
  });
  assert.deepEqual(applicationsReached("//app:Application[@Name='Chromium']//Button"), {
    kind: 'named',
    names: ['Chromium'],
  });
  assert.deepEqual(applicationsReached("count(/app:Application['B' = @Name]/*)"), { kind: 'named', names: ['B'] });
  assert.deepEqual(applicationsReached("app:Application[@Name='A']/* | app:Application[@Name='B']//Button"), {
    kind: 'named',
    names: ['A', 'B'],
  });
  // Anything else about the application (another predicate) is not read as a scope.
  assert.deepEqual(applicationsReached("app:Application[@Name='A'][1]//Button"), { kind: 'all' });
  assert.deepEqual(applicationsReached("app:Application[contains(@Name, 'A')]//Button"), { kind: 'all' });
});

test('an expression too deeply nested to parse is guessed from its text, never thrown', () => {
  assert.deepEqual(applicationsReached(`${'('.repeat(10_000)}1${')'.repeat(10_000)}`), { kind: 'none' });
  assert.deepEqual(applicationsReached(`${'('.repeat(10_000)}//a${')'.repeat(10_000)}`), { kind: 'all' });
});

test('the subtrees of what an XPath selects reach its applications, all of them without one or for a union', () => {
  assert.deepEqual(subtreesReached("app:Application[@Name='Chromium']"), { kind: 'named', names: ['Chromium'] });
  assert.deepEqual(subtreesReached("/app:Application[@Name='gedit']/Window[1]"), { kind: 'named', names: ['gedit'] });
  assert.deepEqual(subtreesReached(undefined), { kind: 'all' });
  assert.deepEqual(subtreesReached('/*'), { kind: 'all' });
  assert.deepEqual(subtreesReached("//Window[@Name='Settings']"), { kind: 'all' });
  assert.deepEqual(subtreesReached("app:Application[@Name='A'] | app:Application[@Name='B']"), { kind: 'all' });
});

test('a root query answered by the desktop children alone is recognised, any other is not', () => {
  assert.deepEqual(topLevelSelection('/'), { kind: 'desktop' });
  for (const xpath of [
    "app:Application[@Name='Chromium']",
    "/app:Application[@Name='Chromium']",
    "app:Application['Chromium' = @Name]",
  ]) {
    assert.deepEqual(topLevelSelection(xpath), { kind: 'applications', name: 'Chromium', anywhere: false }, xpath);
  }
  assert.deepEqual(topLevelSelection("//app:Application[@Name='Chromium']"), {
    kind: 'applications',
    name: 'Chromium',
    anywhere: true,
  });
  for (const xpath of [
    '.',
    '/*',
    'app:Application',
    "app:Application[@Name='Chromium']/Frame",
    "app:Application[@Name='Chromium'][1]",
    "app:Application[@Name!='Chromium']",
    "app:Application[@native:Name='Chromium']",
    "Application[@Name='Chromium']",
    "//app:Application[@Name='Chromium']//Button",
    "app:Application[@Name='A'] | app:Application[@Name='B']",
    "count(app:Application[@Name='Chromium'])",
    "/app:Application[@Name='Chromium']/..",
  ]) {
    assert.equal(topLevelSelection(xpath), undefined, xpath);
  }
});
