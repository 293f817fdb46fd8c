import { InspectorError } from '../../../shared/model/errors.js';
import { resolveSymbolAlias } from '../../../shared/model/key-aliases.js';
import { readULongs } from '../../../native/x11/load.js';
import type { XTest } from '../../../native/x11/xtest.js';
import type { KeyCode, KeyState, KeyboardDevice } from '../../core/platform.js';
import type { X11Connection } from './connection.js';
import { characterKeysym, knownX11KeyNames, lookupKeyName, reachableLevels } from './keysyms.js';

/** The KeyCode the X11 keyboard hands out: the keysym rides along, and 0 as code means "needs a spare keycode". */
export interface X11KeyCode extends KeyCode {
  readonly keysym: number;
}

/** How long a remapped spare keycode keeps its keysym after use, so clients read the mapping before it changes. */
const REMAP_SETTLE_MS = 80;

interface Slot {
  keycode: number;
  keysym: number | undefined;
  lastUsed: number;
}

/**
 * The keyboard through XTest. Names and characters resolve to keysyms, keysyms to a keycode and the modifiers (Shift,
 * AltGr) that reach their level. Characters the layout lacks are typed by giving a spare (empty) keycode that keysym
 * for the duration of the input and restoring it afterwards.
 */
export class X11KeyboardDevice implements KeyboardDevice {
  private keymap = new Map<number, { keycode: number; level: number }>();
  private keymapStale = true;
  private slots: Slot[] = [];
  private spareFound = false;
  private readonly held = new Map<number, number>();
  private inInput = 0;
  private restoreTimer: NodeJS.Timeout | undefined;
  private useCounter = 0;
  /** Keysyms resolved to no keycode since the last input began; mapped together when it begins. */
  private readonly pending = new Set<number>();

  constructor(
    private readonly connection: X11Connection,
    private readonly xtest: XTest,
  ) {
    connection.onMappingChange = () => {
      this.keymapStale = true;
    };
  }

  keyCode(nameOrCharacter: string): KeyCode {
    if (nameOrCharacter.length === 0) throw new InspectorError('unsupported', 'empty key name');
    const name = resolveSymbolAlias(nameOrCharacter);
    if ([...name].length === 1) return this.forKeysym(characterKeysym(name), name);
    const known = lookupKeyName(name);
    if (known) return this.forKeysym(this.keysymOf(known.keysym), known.name);
    const exact = this.connection.xlib.XStringToKeysym(name);
    if (exact !== 0) return this.forKeysym(exact, name);
    throw new InspectorError('unsupported', `no key named "${nameOrCharacter}"${suggest(name)}`);
  }

  async send(code: KeyCode, state: KeyState): Promise<void> {
    const key = code as X11KeyCode;
    if (key.code === 0 && typeof key.keysym !== 'number') {
      throw new InspectorError('invalid-input', `key "${key.label}" was not resolved by this keyboard`);
    }
    if (state === 'press') {
      const keycode = key.code !== 0 ? key.code : this.assignSlot(key.keysym, key.label);
      for (const modifier of key.modifiers ?? []) this.pressKeycode(modifier, 'a modifier');
      this.pressKeycode(keycode, key.label);
    } else {
      const keycode = key.code !== 0 ? key.code : this.slotFor(key.keysym)?.keycode;
      if (keycode === undefined) return;
      this.releaseKeycode(keycode, key.label);
      for (const modifier of [...(key.modifiers ?? [])].reverse()) this.releaseKeycode(modifier, 'a modifier');
      if (key.code === 0 && this.inInput === 0) this.scheduleRestore();
    }
  }

  knownKeyNames(): readonly string[] {
    return knownX11KeyNames();
  }

  async startInput(): Promise<void> {
    this.inInput++;
    this.connection.drainEvents();
    this.assignPending();
  }

  /** Maps every character the coming input needs onto spare keycodes in one change (each change costs clients). */
  private assignPending(): void {
    const wanted = [...this.pending].filter((keysym) => !this.slotFor(keysym));
    this.pending.clear();
    const changes = new Map<number, number>();
    for (const keysym of wanted) {
      const slot = this.slots.find((s) => s.keysym === undefined);
      if (!slot) break;
      slot.keysym = keysym;
      slot.lastUsed = ++this.useCounter;
      changes.set(slot.keycode, keysym);
    }
    this.writeSlots(changes);
  }

  async endInput(): Promise<void> {
    this.inInput = Math.max(0, this.inInput - 1);
    if (this.inInput === 0 && this.slots.some((slot) => slot.keysym !== undefined)) {
      await new Promise((resolve) => setTimeout(resolve, REMAP_SETTLE_MS));
      this.restoreSlots();
    }
    this.connection.drainEvents();
  }

  /** Gives every spare keycode back its empty mapping (also called on shutdown). */
  restoreSlots(): void {
    if (this.restoreTimer) clearTimeout(this.restoreTimer);
    this.restoreTimer = undefined;
    if (this.connection.isClosed) return;
    const used = this.slots.filter((slot) => slot.keysym !== undefined);
    // One mapping change for all slots: every change makes each client reload its keymap, and a burst of them
    // confuses GTK's click tracking (double clicks right after were missed).
    this.writeSlots(new Map(used.map((slot) => [slot.keycode, 0])));
    for (const slot of used) slot.keysym = undefined;
  }

  /** Writes keysyms (0: none) for some keycodes with one XChangeKeyboardMapping over their range. */
  private writeSlots(changes: ReadonlyMap<number, number>): void {
    if (changes.size === 0) return;
    const first = Math.min(...changes.keys());
    const last = Math.max(...changes.keys());
    const { min, per, keysyms } = this.readMapping();
    const rows = new BigUint64Array((last - first + 1) * per);
    for (let keycode = first; keycode <= last; keycode++) {
      const change = changes.get(keycode);
      for (let level = 0; level < per; level++) {
        const keep = BigInt(keysyms[(keycode - min) * per + level] ?? 0);
        rows[(keycode - first) * per + level] =
          change === undefined ? keep : level < 2 && change !== 0 ? BigInt(change) : 0n;
      }
    }
    const c = this.connection;
    c.checked('changing the keyboard mapping', () =>
      c.xlib.XChangeKeyboardMapping(c.display, first, per, rows, last - first + 1),
    );
  }

  private keysymOf(keysymName: string): number {
    const keysym = this.connection.xlib.XStringToKeysym(keysymName);
    if (keysym === 0) throw new InspectorError('unsupported', `the X server does not know the keysym ${keysymName}`);
    return keysym;
  }

  private forKeysym(keysym: number, label: string): X11KeyCode {
    this.loadKeymap();
    const found = this.keymap.get(keysym);
    if (found) {
      const modifiers = this.modifiersFor(found.level);
      if (modifiers) return { code: found.keycode, label, keysym, ...(modifiers.length ? { modifiers } : {}) };
    }
    this.findSpareKeycodes();
    if (this.slots.length === 0) {
      throw new InspectorError(
        'unsupported',
        `"${label}" is not on the keyboard layout and there is no spare keycode to map it to`,
      );
    }
    this.pending.add(keysym);
    return { code: 0, label, keysym };
  }

  private modifiersFor(level: number): number[] | undefined {
    const shift = () => this.keymap.get(0xffe1)?.keycode; // Shift_L
    const altGr = () => this.keymap.get(0xfe03)?.keycode; // ISO_Level3_Shift
    if (level === 0) return [];
    if (level === 1) return shift() !== undefined ? [shift()!] : undefined;
    if (level === 4) return altGr() !== undefined ? [altGr()!] : undefined;
    if (level === 5) return shift() !== undefined && altGr() !== undefined ? [altGr()!, shift()!] : undefined;
    return undefined;
  }

  private readMapping(): KeyboardMapping {
    return readKeyboardMapping(this.connection);
  }

  private loadKeymap(): void {
    this.connection.drainEvents();
    if (!this.keymapStale) return;
    const { min, per, keysyms } = this.readMapping();
    const spare = new Set(this.slots.map((slot) => slot.keycode));
    const map = new Map<number, { keycode: number; level: number }>();
    for (const level of reachableLevels) {
      if (level >= per) continue;
      for (let index = 0; index * per < keysyms.length; index++) {
        const keycode = min + index;
        if (spare.has(keycode)) continue;
        const keysym = keysyms[index * per + level]!;
        if (keysym !== 0 && !map.has(keysym)) map.set(keysym, { keycode, level });
      }
    }
    this.keymap = map;
    this.keymapStale = false;
  }

  private findSpareKeycodes(): void {
    if (this.spareFound) return;
    this.spareFound = true;
    const { min, per, keysyms } = this.readMapping();
    // Keycodes with no keysym at all; take them from the top so ordinary keys keep their low codes.
    for (let index = Math.floor(keysyms.length / per) - 1; index >= 0 && this.slots.length < 24; index--) {
      const row = keysyms.slice(index * per, index * per + per);
      if (row.every((keysym) => keysym === 0))
        this.slots.push({ keycode: min + index, keysym: undefined, lastUsed: 0 });
    }
    this.keymapStale = true;
  }

  private slotFor(keysym: number): Slot | undefined {
    return this.slots.find((slot) => slot.keysym === keysym);
  }

  private assignSlot(keysym: number, label: string): number {
    const existing = this.slotFor(keysym);
    if (existing) {
      existing.lastUsed = ++this.useCounter;
      return existing.keycode;
    }
    const free = this.slots.find((slot) => slot.keysym === undefined);
    const slot = free ?? [...this.slots].sort((a, b) => a.lastUsed - b.lastUsed)[0];
    if (!slot) throw new InspectorError('unsupported', `"${label}" is not on the keyboard layout`);
    this.writeSlots(new Map([[slot.keycode, keysym]]));
    slot.keysym = keysym;
    slot.lastUsed = ++this.useCounter;
    return slot.keycode;
  }

  private scheduleRestore(): void {
    if (this.restoreTimer) clearTimeout(this.restoreTimer);
    this.restoreTimer = setTimeout(() => this.restoreSlots(), REMAP_SETTLE_MS);
    this.restoreTimer.unref();
  }

  /** Keys are reference-counted, so a modifier a chord holds is not released under it by a shifted character. */
  private pressKeycode(keycode: number, label: string): void {
    const count = this.held.get(keycode) ?? 0;
    this.held.set(keycode, count + 1);
    if (count > 0) return;
    const c = this.connection;
    c.checked(`pressing ${label}`, () => this.xtest.XTestFakeKeyEvent(c.display, keycode, 1, 0));
  }

  private releaseKeycode(keycode: number, label: string): void {
    const count = this.held.get(keycode) ?? 0;
    if (count <= 1) this.held.delete(keycode);
    else this.held.set(keycode, count - 1);
    if (count > 1) return;
    const c = this.connection;
    c.checked(`releasing ${label}`, () => this.xtest.XTestFakeKeyEvent(c.display, keycode, 0, 0));
  }

  /** Releases every key this device still holds down (shutdown). */
  releaseAll(): void {
    if (this.connection.isClosed) return;
    for (const keycode of [...this.held.keys()].reverse()) {
      this.held.set(keycode, 1);
      this.releaseKeycode(keycode, 'a held key');
    }
  }
}

function suggest(name: string): string {
  const lower = name.toLowerCase();
  const close = knownX11KeyNames().filter((known) => {
    const k = known.toLowerCase();
    return k.startsWith(lower.slice(0, 3)) || lower.startsWith(k) || k.includes(lower);
  });
  return close.length > 0
    ? `; did you mean ${close.slice(0, 5).join(', ')}?`
    : '; `keyboard list` shows the known keys';
}

export interface KeyboardMapping {
  min: number;
  max: number;
  /** Keysyms per keycode: keycode k's level l is keysyms[(k - min) * per + l]. */
  per: number;
  keysyms: number[];
}

/** The core keyboard mapping, every keycode (the keyboard device and the input recorder read it). */
export function readKeyboardMapping(c: X11Connection): KeyboardMapping {
  const min: [number] = [0];
  const max: [number] = [0];
  c.xlib.XDisplayKeycodes(c.display, min, max);
  const count = max[0] - min[0] + 1;
  const per: [number] = [0];
  const pointer = c.checkedReply('reading the keyboard mapping', () =>
    c.xlib.XGetKeyboardMapping(c.display, min[0], count, per),
  );
  if (!pointer) throw new InspectorError('unsupported', 'the X server returned no keyboard mapping');
  try {
    return { min: min[0], max: max[0], per: per[0], keysyms: readULongs(pointer, count * per[0]) };
  } finally {
    c.xlib.XFree(pointer);
  }
}
