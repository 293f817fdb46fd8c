/**
 * Differential test: the snapshot reader against saxes on random snapshot documents written in many spellings
 * (quotes, entities and character references, CDATA, comments, processing instructions, odd whitespace, other
 * prefixes for the PlatynUI namespaces, DOCTYPE, text, malformed pieces): the same table, or the same error.
 * Deterministic (seeded).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { seededRandom } from '../../random.js';
import { readSnapshotFast } from '../fast-reader.js';
import { readSnapshotTable, readSnapshotTableWithSaxes } from '../xml-reader.js';
import { tableValue, type SnapshotTable } from '../table.js';
import { randomSnapshotTree, type Rand, type RandomNode } from './generate-snapshot.js';

const pick = <T>(r: Rand, a: readonly T[]): T => a[Math.floor(r() * a.length)]!;
const chance = (r: Rand, p: number): boolean => r() < p;

const SPACES = [' ', ' ', '  ', '\n    ', '\t', '\r\n  ', '\r'];
const DECLARATIONS = [
  '<?xml version="1.0" encoding="UTF-8"?>\n',
  "<?xml version='1.0' encoding='utf-8'?>",
  '<?xml version="1.0"?>\n',
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n',
  '',
  '<?xml version="1.1"?>',
  ' <?xml version="1.0"?>',
];
const MISC = [
  '\n',
  '<!-- a comment -->',
  '<!-- two -- dashes -->',
  '<?pi data?>',
  '<![CDATA[  ]]>',
  '<![CDATA[text]]>',
  ' text ',
  '&amp;',
  '\u00a0',
  '<!---->',
];

/** An attribute value spelled with entities, references and raw whitespace. */
function spell(r: Rand, value: string, quote: string, wild: boolean): string {
  let out = '';
  for (const c of value) {
    if (c === '&') out += pick(r, ['&amp;', '&#38;', '&#x26;']);
    else if (c === '<') out += pick(r, ['&lt;', '&#60;']);
    else if (c === quote) out += quote === '"' ? pick(r, ['&quot;', '&#34;']) : pick(r, ['&apos;', '&#39;']);
    else if (chance(r, 0.03)) out += `&#${c.codePointAt(0)};`;
    else out += c;
  }
  if (chance(r, 0.05)) out += pick(r, ['\t', '\n', '\r\n', '\r', '&#10;', '&#9;', '&#13;', '>', '&gt;', '&apos;']);
  if (wild && chance(r, 0.01))
    out += pick(r, ['&nbsp;', '&#0;', '&#xD800;', '\u0001', '&', '&#x;', '&constructor;', '&toString;']);
  return out;
}

/** `wild`: also what lies outside the reader's subset or outside XML (else only what the reader reads). */
function write(r: Rand, roots: RandomNode[], desktop: boolean, wild: boolean): string {
  const odd = (p: number) => wild && chance(r, p);
  const misc = () => (wild ? pick(r, MISC) : pick(r, MISC.slice(0, 2)));
  const prefix = chance(r, 0.2) ? 'c' : '';
  const rootDeclarations = [
    prefix ? `xmlns:c="urn:platynui:control"` : 'xmlns="urn:platynui:control"',
    'xmlns:item="urn:platynui:item"',
    'xmlns:app="urn:platynui:app"',
    chance(r, 0.1) ? 'xmlns:nat="urn:platynui:native"' : 'xmlns:native="urn:platynui:native"',
  ];
  const out: string[] = [wild ? pick(r, DECLARATIONS) : pick(r, DECLARATIONS.slice(0, 5))];
  if (odd(0.03)) out.push('<!DOCTYPE snapshot>');
  if (chance(r, 0.1)) out.push(misc());
  const wrapper = prefix ? 'c:snapshot' : 'snapshot';
  out.push(`<${wrapper} ${rootDeclarations.join(pick(r, SPACES))}>`);
  const element = (role: string) => {
    if (odd(0.005)) return `x:${role.replace(/^.*:/, '')}`;
    if (odd(0.003)) return `${role}é`;
    if (!role.includes(':')) return prefix ? `c:${role}` : role;
    return role;
  };
  const emit = (n: RandomNode) => {
    const name = element(n.role);
    let tag = `<${name}`;
    if (chance(r, 0.03)) tag += ' xmlns="urn:platynui:item"';
    if (chance(r, 0.03)) tag += ' xmlns:p="urn:platynui:control"';
    for (const [key, value] of n.attrs) {
      const quote = chance(r, 0.3) ? "'" : '"';
      let qname = key;
      if (key.startsWith('native:') && chance(r, 0.1)) qname = `p:${key.slice(7)}`;
      tag += `${pick(r, SPACES)}${qname}${chance(r, 0.1) ? ' = ' : '='}${quote}${spell(r, value, quote, wild)}${quote}`;
    }
    if (odd(0.01) && n.attrs[0]) tag += ` ${n.attrs[0][0]}="again"`;
    if (odd(0.005)) tag += ' q:x="1"';
    if (odd(0.005)) tag += 'Name="glued"';
    if (chance(r, 0.1)) tag += pick(r, SPACES);
    if (n.kids.length === 0 && chance(r, 0.8)) {
      out.push(`${tag}/>`);
    } else {
      out.push(`${tag}>`);
      for (const kid of n.kids) {
        if (chance(r, 0.3)) out.push(pick(r, SPACES));
        if (chance(r, 0.04)) out.push(misc());
        emit(kid);
      }
      if (chance(r, 0.3)) out.push(pick(r, SPACES));
      out.push(odd(0.005) ? `</${name}x>` : `</${name}${chance(r, 0.1) ? ' ' : ''}>`);
    }
  };
  const top = desktop ? [{ role: 'Desktop', attrs: [['Name', 'D']] as Array<[string, string]>, kids: roots }] : roots;
  for (const root of top) {
    out.push(pick(r, ['\n  ', '', '\n']));
    emit(root);
  }
  out.push(`\n</${wrapper}>`);
  if (chance(r, 0.1))
    out.push(pick(r, ['\n', '<!-- end -->', '\n<!-- end -->\n', ...(wild ? ['<other/>', 'tail'] : [])]));
  return out.join('');
}

/** What a table says, names and values as text (the readers may keep a value where it lies or decoded). */
function content(table: SnapshotTable) {
  const values: string[] = [];
  for (let a = 0; a < table.attributeNames.length; a++) values.push(tableValue(table, a));
  return {
    count: table.count,
    namespaces: [...table.namespaces],
    roles: [...table.roles].map((id) => table.names[id]),
    parents: [...table.parents],
    ends: [...table.ends],
    attributeStarts: [...table.attributeStarts],
    attributeNamespaces: [...table.attributeNamespaces],
    attributeNames: [...table.attributeNames].map((id) => table.names[id]),
    values,
  };
}

type Outcome = { table: ReturnType<typeof content> } | { error: string };

function outcome(read: () => SnapshotTable): Outcome {
  try {
    return { table: content(read()) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

test('the snapshot reader gives saxes’ table or saxes’ error, on random spellings', () => {
  let fast = 0;
  let errors = 0;
  const cases = 1500;
  for (let seed = 1; seed <= cases; seed++) {
    const r = seededRandom(seed * 31);
    const { roots, desktop } = randomSnapshotTree(seed);
    const xml = write(r, roots, desktop, seed % 2 === 0);
    const ours = outcome(() => readSnapshotTable(xml, 'case.xml'));
    const theirs = outcome(() => readSnapshotTableWithSaxes(xml, 'case.xml'));
    assert.deepEqual(ours, theirs, `seed ${seed}: ${JSON.stringify(xml)}`);
    try {
      if (readSnapshotFast(xml, 'case.xml')) fast++;
    } catch {
      fast++; // the snapshot reader itself raised the format's error (depth, RuntimeId, namespace)
    }
    if ('error' in ours) errors++;
  }
  // Most documents stay inside the reader's subset; a good share is refused (by either).
  assert.ok(fast > cases / 3, `the snapshot reader read ${fast} of ${cases}`);
  assert.ok(errors > cases / 20 && errors < (cases * 7) / 10, `${errors} of ${cases} refused`);
});

test('the snapshot reader reads what snapshot writes without saxes, at any depth, in linear time', () => {
  const depth = 4000;
  const xml = `<snapshot xmlns="urn:platynui:control">${'<Pane Name="p">'.repeat(depth)}${'</Pane>'.repeat(depth)}</snapshot>`;
  const table = readSnapshotFast(xml, 'deep.xml');
  assert.ok(table, 'the snapshot reader declined');
  assert.equal(table.count, depth);
  assert.equal(table.parents[depth - 1], depth - 2);
  assert.equal(table.ends[0], depth);
});

test('thousands of distinct names, and names met again after them, read as saxes reads them', () => {
  const r = seededRandom(4242);
  const letters = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_';
  const name = () => Array.from({ length: 1 + Math.floor(r() * 12) }, () => pick(r, [...letters])).join('');
  const roles = Array.from({ length: 3000 }, name);
  const attributes = Array.from({ length: 3000 }, name);
  let body = '';
  for (let i = 0; i < 6000; i++) {
    const role = roles[i % roles.length]!;
    const first = attributes[(i * 7) % attributes.length]!;
    const second = attributes[(i * 13 + 1) % attributes.length]!;
    const pair = first === second ? '' : ` ${second}="${i}"`;
    body += `<${role} ${first}="v${i}"${pair}/>`;
  }
  const xml = `<snapshot xmlns="urn:platynui:control"><Window Name="w">${body}</Window></snapshot>`;
  const fast = readSnapshotFast(xml, 'names.xml');
  assert.ok(fast, 'the snapshot reader declined');
  assert.deepEqual(content(fast), content(readSnapshotTableWithSaxes(xml, 'names.xml')));
});

test('a reference to a name that is no entity (`&constructor;`) is saxes’ error', () => {
  const xml = '<snapshot xmlns="urn:platynui:control"><Button Name="a&constructor;b"/></snapshot>';
  assert.equal(readSnapshotFast(xml, 'entity.xml'), undefined);
  assert.throws(() => readSnapshotTable(xml, 'entity.xml'), /not well-formed XML/);
});
