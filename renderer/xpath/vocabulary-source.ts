/** Where the console's completions read the known names: set by the page once, read by the (lazily loaded) editor. */
import type { Vocabulary } from './language.js';

let source: () => Vocabulary = () => ({ roles: [], attributes: [] });

export function setVocabularySource(next: () => Vocabulary): void {
  source = next;
}

export function vocabulary(): Vocabulary {
  return source();
}
