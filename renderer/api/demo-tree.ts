/** A generated tree for the in-memory API (`?demo=N` in the URL, the store tests): applications, windows, rows. */
import type { MemoryNode } from './memory-api.js';

export function generateDemoTree(total: number): MemoryNode {
  let next = 0;
  const id = (kind: string) => `demo:${kind}-${next++}`;
  const apps: MemoryNode[] = [];
  const perApp = Math.max(1, Math.ceil(total / 3));
  for (let a = 0; a < 3; a++) {
    const rows: MemoryNode[] = [];
    const count = Math.max(1, Math.floor(perApp / 2));
    for (let r = 0; r < count; r++) {
      rows.push({
        id: id('row'),
        role: 'Row',
        name: `Row ${r + 1}`,
        patterns: ['Element', 'Selectable'],
        attributes: {
          Bounds: { type: 'Rect', value: { x: 10, y: 40 + r * 20, width: 600, height: 20 } },
          IsSelected: { type: 'Bool', value: false },
        },
        children: [
          {
            id: id('cell'),
            role: 'Cell',
            name: `Cell ${r + 1}`,
            namespace: 'item',
            patterns: ['Element'],
            attributes: { Bounds: { type: 'Rect', value: { x: 10, y: 40 + r * 20, width: 100, height: 20 } } },
          },
        ],
      });
    }
    apps.push({
      id: id('app'),
      role: 'Application',
      namespace: 'app',
      name: `demo-app-${a + 1}`,
      attributes: { ProcessId: { type: 'Integer', value: 1000 + a } },
      patterns: ['Application'],
      children: [
        {
          id: id('window'),
          role: 'Window',
          name: `Demo window ${a + 1}`,
          patterns: ['Element', 'Focusable', 'Activatable', 'Minimizable', 'Maximizable', 'Closeable'],
          attributes: {
            Bounds: { type: 'Rect', value: { x: 0, y: 0, width: 800, height: 600 } },
            IsVisible: { type: 'Bool', value: true },
            IsEnabled: { type: 'Bool', value: true },
            IsFocused: { type: 'Bool', value: false },
          },
          children: [
            { id: id('button'), role: 'Button', name: 'OK', patterns: ['Element', 'Activatable', 'Focusable'] },
            { id: id('check'), role: 'CheckBox', name: 'Auto save', patterns: ['Element', 'Toggleable'] },
            { id: id('table'), role: 'Table', name: 'Data', patterns: ['Element', 'ItemContainer'], children: rows },
          ],
        },
      ],
    });
  }
  return { id: 'desktop', role: 'Desktop', name: 'Demo desktop', children: apps };
}
