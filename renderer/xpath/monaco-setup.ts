/**
 * Monaco, trimmed to what the console uses (the core API, suggest, hover, markers, brackets), with its editor
 * worker served from the same origin (no CDN, no blob: worker) and the XPath language registered.
 */
import * as monaco from 'monaco-editor/editor/editor.api.js';
import 'monaco-editor/editor/contrib/bracketMatching/browser/bracketMatching.js';
import 'monaco-editor/editor/contrib/clipboard/browser/clipboard.js';
import 'monaco-editor/editor/contrib/hover/browser/hoverContribution.js';
import 'monaco-editor/editor/contrib/placeholderText/browser/placeholderText.contribution.js';
import 'monaco-editor/editor/contrib/suggest/browser/suggestController.js';
import 'monaco-editor/editor/contrib/wordOperations/browser/wordOperations.js';
import { AXES, FUNCTIONS, KEYWORDS, PREFIXES, completionsAt } from './language.js';
import { vocabulary } from './vocabulary-source.js';

export { monaco };

declare global {
  interface Window {
    MonacoEnvironment?: { getWorkerUrl?: (moduleId: string, label: string) => string };
  }
}

window.MonacoEnvironment = { getWorkerUrl: () => new URL('editor.worker.js', document.baseURI).href };

export const XPATH_LANGUAGE = 'xpath';
let registered = false;

export function registerXPath(): void {
  if (registered) return;
  registered = true;
  monaco.languages.register({ id: XPATH_LANGUAGE });
  monaco.languages.setLanguageConfiguration(XPATH_LANGUAGE, {
    brackets: [
      ['[', ']'],
      ['(', ')'],
      ['{', '}'],
    ],
    autoClosingPairs: [
      { open: '[', close: ']' },
      { open: '(', close: ')' },
      { open: "'", close: "'", notIn: ['string'] },
      { open: '"', close: '"', notIn: ['string'] },
    ],
    comments: { blockComment: ['(:', ':)'] },
    wordPattern: /[\w.-]+/,
  });
  monaco.languages.setMonarchTokensProvider(XPATH_LANGUAGE, {
    keywords: [...KEYWORDS],
    axes: [...AXES],
    functions: [...FUNCTIONS],
    prefixes: [...PREFIXES],
    tokenizer: {
      root: [
        [/\(:/, 'comment', '@comment'],
        [/"([^"]|"")*"/, 'string'],
        [/'([^']|'')*'/, 'string'],
        [/\$[\w.-]+/, 'variable'],
        [/@[\w.-]+(:[\w.-]+)?/, 'attribute.name'],
        [/\d+(\.\d+)?([eE][-+]?\d+)?/, 'number'],
        [/([\w-]+)(::)/, [{ cases: { '@axes': 'keyword.axis', '@default': 'identifier' } }, 'delimiter']],
        [/([\w-]+)(:)(?=[\w*])/, [{ cases: { '@prefixes': 'type.prefix', '@default': 'identifier' } }, 'delimiter']],
        [
          /[\w][\w.-]*(?=\s*\()/,
          { cases: { '@functions': 'predefined', '@keywords': 'keyword', '@default': 'identifier.function' } },
        ],
        [/[A-Za-z_][\w.-]*/, { cases: { '@keywords': 'keyword', '@default': 'type.role' } }],
        [/[[\]()]/, '@brackets'],
        [/\/\/|\/|\*|\||=|!=|<=|>=|<|>|\+|-|,|\.\.|\./, 'operator'],
      ],
      comment: [
        [/:\)/, 'comment', '@pop'],
        [/./, 'comment'],
      ],
    },
  } as monaco.languages.IMonarchLanguage);

  monaco.languages.registerCompletionItemProvider(XPATH_LANGUAGE, {
    triggerCharacters: ['@', '/', ':', '['],
    provideCompletionItems(model: monaco.editor.ITextModel, position: monaco.Position) {
      const text = model.getValue();
      const offset = model.getOffsetAt(position);
      const word = model.getWordUntilPosition(position);
      const range = new monaco.Range(position.lineNumber, word.startColumn, position.lineNumber, word.endColumn);
      const kinds = {
        axis: monaco.languages.CompletionItemKind.Keyword,
        keyword: monaco.languages.CompletionItemKind.Keyword,
        function: monaco.languages.CompletionItemKind.Function,
        prefix: monaco.languages.CompletionItemKind.Module,
        role: monaco.languages.CompletionItemKind.Class,
        attribute: monaco.languages.CompletionItemKind.Property,
      } as const;
      const suggestions = completionsAt(text, offset, vocabulary()).map((c) => ({
        label: c.label,
        kind: kinds[c.kind],
        insertText: c.insertText,
        detail: c.detail,
        range,
      }));
      return { suggestions };
    },
  });

  const rules = (dark: boolean): monaco.editor.ITokenThemeRule[] => [
    { token: 'keyword.axis', foreground: dark ? 'c586c0' : 'af00db' },
    { token: 'keyword', foreground: dark ? '569cd6' : '0000ff' },
    { token: 'predefined', foreground: dark ? 'dcdcaa' : '795e26' },
    { token: 'attribute.name', foreground: dark ? '9cdcfe' : 'e50000' },
    { token: 'type.role', foreground: dark ? '4ec9b0' : '267f99' },
    { token: 'type.prefix', foreground: dark ? 'b5cea8' : '098658' },
    { token: 'string', foreground: dark ? 'ce9178' : 'a31515' },
    { token: 'number', foreground: dark ? 'b5cea8' : '098658' },
    { token: 'variable', foreground: dark ? '9cdcfe' : '001080' },
    { token: 'comment', foreground: dark ? '6a9955' : '008000' },
  ];
  monaco.editor.defineTheme('xpath-light', { base: 'vs', inherit: true, rules: rules(false), colors: {} });
  monaco.editor.defineTheme('xpath-dark', { base: 'vs-dark', inherit: true, rules: rules(true), colors: {} });
}
