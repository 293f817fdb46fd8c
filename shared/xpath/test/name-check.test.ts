import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkNames, type NameVocabulary } from '../name-check.js';
import { closestName, editDistance } from '../suggest.js';

const vocabulary: NameVocabulary = {
  elements: new Set(['Button', 'Window', 'Edit', 'item:ListItem', 'app:Application']),
  attributes: new Set(['Name', 'Id', 'IsEnabled', 'Bounds.X', 'native:Role']),
};

const problems = (xpath: string) =>
  checkNames(xpath, vocabulary).map((p) => [p.name, p.message, p.replacement, p.start, p.end]);

test('an unknown element name is marked where it stands, with the close known name', () => {
  assert.deepEqual(problems('//Buton'), [
    ['Buton', 'No element is called Buton; did you mean Button?', 'Button', 2, 7],
  ]);
  assert.deepEqual(problems('//item:ListItme'), [
    ['item:ListItme', 'No element is called item:ListItme; did you mean item:ListItem?', 'item:ListItem', 2, 15],
  ]);
  assert.deepEqual(problems('//Zebra'), [['Zebra', 'No element is called Zebra', undefined, 2, 7]], 'nothing close');
});

test('an unknown attribute name gets the close one, @ included', () => {
  assert.deepEqual(problems("//Button[@Nam='OK']"), [
    ['Nam', 'No attribute is called Nam; did you mean @Name?', 'Name', 10, 13],
  ]);
  assert.deepEqual(problems('//Button/attribute::isenabled'), [
    ['isenabled', 'No attribute is called isenabled; did you mean @IsEnabled?', 'IsEnabled', 20, 29],
  ]);
});

test('an attribute name written without @ in a predicate says so', () => {
  assert.deepEqual(problems("//Button[Name='Apply']"), [
    ['Name', 'Name is an attribute, written @Name; without @ it looks for child elements called Name', '@Name', 9, 13],
  ]);
});

test('known names, functions, axes, operators, variables, types and wildcards are not names to check', () => {
  for (const xpath of [
    "//Button[@Name='OK' and @Id]",
    '//control:Button[@control:Name]',
    "//Window//Edit[contains(@Name, 'x')] | //app:Application",
    '//*[@native:Role] / child::Button / ancestor::*',
    'for $w in //Window return count($w//Button)',
    '//Button[1] instance of element()',
    "'a' cast as xs:string",
    '//item:*[@Bounds.X > 10] div 2',
    "//Button[@Name = 'Buton']",
    '//Window[Button]',
  ]) {
    assert.deepEqual(problems(xpath), [], xpath);
  }
});

test('without names of a kind (not loaded yet) nothing of that kind is marked', () => {
  assert.deepEqual(checkNames('//Buton[@Nam]', { elements: new Set(), attributes: new Set() }), []);
});

test('suggestions: case differences win, transpositions count once, far names are not suggested', () => {
  assert.equal(editDistance('Buotn', 'Button'), 2);
  assert.equal(editDistance('Butotn', 'Button'), 1);
  assert.equal(closestName('button', ['Button', 'Buttons']), 'Button');
  assert.equal(closestName('Xyz', ['Button', 'Window']), undefined);
});
