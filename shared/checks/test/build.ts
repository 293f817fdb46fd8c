import type { Namespace } from '../../model/namespaces.js';
import { uiArray, uiBool, uiInteger, uiRect, uiString, type UiValue } from '../../model/values.js';
import type { SnapshotNode } from '../../snapshot/model.js';
import { checkTreeFromSnapshot, type CheckNode } from '../model.js';

type AttrInit =
  string | number | boolean | string[] | { x: number; y: number; width: number; height: number } | UiValue;

function toValue(init: AttrInit): UiValue {
  if (typeof init === 'string') return uiString(init);
  if (typeof init === 'number') return uiInteger(init);
  if (typeof init === 'boolean') return uiBool(init);
  if (Array.isArray(init)) return uiArray(init.map(uiString));
  if ('type' in init) return init;
  return uiRect(init);
}

/** A snapshot node: `n('Button', { Name: 'OK', SupportedPatterns: ['Activatable'] })`, role `item:ListItem` allowed. */
export function n(
  role: string,
  attributes: { [key: string]: AttrInit } = {},
  children: SnapshotNode[] = [],
): SnapshotNode {
  const [namespace, local] = role.includes(':')
    ? (role.split(':') as [Namespace, string])
    : (['control', role] as const);
  return {
    namespace,
    role: local,
    attributes: Object.entries(attributes).map(([key, value]) => {
      const colon = key.indexOf(':');
      return colon < 0
        ? { namespace: 'control' as const, name: key, value: toValue(value) }
        : { namespace: key.slice(0, colon) as Namespace, name: key.slice(colon + 1), value: toValue(value) };
    }),
    children,
  };
}

/** The check tree of one window holding the given nodes (a parent for the rules that look up). */
export function inWindow(...children: SnapshotNode[]): CheckNode[] {
  return checkTreeFromSnapshot([
    n('app:Application', { Name: 'app' }, [
      n('Frame', { Name: 'Main', Bounds: { x: 0, y: 0, width: 800, height: 600 } }, children),
    ]),
  ]);
}

export const button = (name: string, extra: { [key: string]: AttrInit } = {}): SnapshotNode =>
  n('Button', { Name: name, SupportedPatterns: ['Element', 'Focusable', 'Activatable'], ...extra });
