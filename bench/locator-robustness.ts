// Robustness of generated locators on the mock desktop and a synthetic desktop (see bench/_robustness.ts for what
// is measured and how the harness stays fair).
//   node dist/bench/locator-robustness.js
import { measure, sample } from './_robustness.js';
import { mockLocatorTree, syntheticTree } from './locator-trees.js';

const mock = mockLocatorTree();
measure('robustness.mock', mock, mock.nodes);
const synthetic = syntheticTree(1500);
measure('robustness.synthetic', synthetic, sample(synthetic.nodes, 150));
