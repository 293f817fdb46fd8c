import { formatValueText } from '../../shared/model/values.js';
import type { XPathItem } from '../xpath/xpath-service.js';
import { lineOf, viewOf, type NodeItem } from './node-items.js';
import type { McpContext } from './context.js';

export interface QueryAnswer {
  items: NodeItem[];
  /** Results that are not nodes (attributes, numbers, strings), as text. */
  values: string[];
  lines: string[];
  truncated: boolean;
}

export interface QueryOptions {
  maxResults: number;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** Evaluates XPath from the desktop; node results become items (and lines), other results values. */
export async function query(context: McpContext, xpath: string, options: QueryOptions): Promise<QueryAnswer> {
  // Waits for the warm-up's load instead of loading the same tree into the other engine at the same time.
  await context.warmer.treeLoaded();
  const { items, stats } = await context.xpath.evaluate(xpath, {
    maxResults: options.maxResults,
    timeoutMs: options.timeoutMs,
    owner: context,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return { ...(await describeItems(context, items)), truncated: stats.truncated };
}

async function describeItems(
  context: McpContext,
  items: readonly XPathItem[],
): Promise<Omit<QueryAnswer, 'truncated'>> {
  const answer: Omit<QueryAnswer, 'truncated'> = { items: [], values: [], lines: [] };
  const views = await Promise.all(
    items.map((item) => (item.type === 'node' ? viewOf(item.node, context.ids) : undefined)),
  );
  for (const [index, item] of items.entries()) {
    const view = views[index];
    if (view) {
      answer.items.push(view.item);
      answer.lines.push(lineOf(view));
    } else if (item.type === 'attribute') {
      const owner = context.ids.id(item.owner);
      const key = item.namespace === 'control' ? item.name : `${item.namespace}:${item.name}`;
      const text = `${owner} @${key}=${JSON.stringify(formatValueText(item.value))}`;
      answer.values.push(text);
      answer.lines.push(text);
    } else if (item.type === 'value') {
      const text = JSON.stringify(formatValueText(item.value));
      answer.values.push(text);
      answer.lines.push(text);
    }
  }
  return answer;
}
