/**
 * Key names of the X11 keyboard: cross-platform names (Enter, Escape, Shift ...) and Linux terms (Super, Meta,
 * AltGr) mapped to X keysym names, plus the Unicode-to-keysym rule. Lookup is case-insensitive.
 */

const table: Array<[string[], string]> = [
  [['Enter', 'Return'], 'Return'],
  [['Escape', 'Esc'], 'Escape'],
  [['Tab'], 'Tab'],
  [['Backspace', 'Back'], 'BackSpace'],
  [['Delete', 'Del'], 'Delete'],
  [['Insert', 'Ins'], 'Insert'],
  [['Home'], 'Home'],
  [['End'], 'End'],
  [['PageUp', 'PgUp', 'Prior'], 'Prior'],
  [['PageDown', 'PgDn', 'Next'], 'Next'],
  [['Up', 'ArrowUp'], 'Up'],
  [['Down', 'ArrowDown'], 'Down'],
  [['Left', 'ArrowLeft'], 'Left'],
  [['Right', 'ArrowRight'], 'Right'],
  [['Space', 'Spacebar'], 'space'],
  [['Shift', 'LeftShift', 'ShiftLeft', 'LShift'], 'Shift_L'],
  [['RightShift', 'ShiftRight', 'RShift'], 'Shift_R'],
  [['Ctrl', 'Control', 'LeftCtrl', 'ControlLeft', 'LCtrl'], 'Control_L'],
  [['RightCtrl', 'ControlRight', 'RCtrl'], 'Control_R'],
  [['Alt', 'LeftAlt', 'AltLeft', 'LAlt'], 'Alt_L'],
  [['RightAlt', 'AltRight', 'RAlt'], 'Alt_R'],
  [['AltGr', 'AltGraph'], 'ISO_Level3_Shift'],
  [['Super', 'Meta', 'Windows', 'Win', 'LeftSuper', 'LWin'], 'Super_L'],
  [['RightSuper', 'RWin'], 'Super_R'],
  [['CapsLock', 'Caps'], 'Caps_Lock'],
  [['NumLock'], 'Num_Lock'],
  [['ScrollLock'], 'Scroll_Lock'],
  [['PrintScreen', 'Print', 'PrtSc'], 'Print'],
  [['Pause', 'Break'], 'Pause'],
  [['Menu', 'Apps', 'ContextMenu'], 'Menu'],
  [['NumPadEnter', 'KPEnter'], 'KP_Enter'],
  [['Multiply', 'NumPadMultiply'], 'KP_Multiply'],
  [['Add', 'NumPadAdd'], 'KP_Add'],
  [['Subtract', 'NumPadSubtract'], 'KP_Subtract'],
  [['Divide', 'NumPadDivide'], 'KP_Divide'],
  [['Decimal', 'NumPadDecimal'], 'KP_Decimal'],
  [['VolumeUp'], 'XF86AudioRaiseVolume'],
  [['VolumeDown'], 'XF86AudioLowerVolume'],
  [['VolumeMute', 'Mute'], 'XF86AudioMute'],
  [['MediaPlayPause', 'PlayPause'], 'XF86AudioPlay'],
  [['MediaNext'], 'XF86AudioNext'],
  [['MediaPrevious', 'MediaPrev'], 'XF86AudioPrev'],
];
for (let i = 1; i <= 24; i++) table.push([[`F${i}`], `F${i}`]);
for (let i = 0; i <= 9; i++) table.push([[`NumPad${i}`, `KP${i}`], `KP_${i}`]);

const byName = new Map<string, { name: string; keysym: string }>();
for (const [names, keysym] of table) {
  for (const name of names) byName.set(name.toLowerCase(), { name: names[0]!, keysym });
}

/** The canonical name and X keysym name for a key name, case-insensitively; undefined if it is not a known name. */
export function lookupKeyName(name: string): { name: string; keysym: string } | undefined {
  return byName.get(name.toLowerCase());
}

/** Canonical names first, then aliases, each once. */
export function knownX11KeyNames(): string[] {
  const names: string[] = [];
  for (const [aliases] of table) names.push(...aliases);
  names.push('PLUS', 'MINUS', 'LESS', 'LT', 'GREATER', 'GT');
  return names;
}

/** The keysym of a character: Latin-1 is its own keysym, the rest of Unicode is 0x01000000 + code point. */
export function characterKeysym(char: string): number {
  const code = char.codePointAt(0) ?? 0;
  if (char === '\n' || char === '\r') return 0xff0d; // Return
  if (char === '\t') return 0xff09; // Tab
  if (char === '\b') return 0xff08; // BackSpace
  if (char === '\x1b') return 0xff1b; // Escape
  if (char === '\x7f') return 0xffff; // Delete
  if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff)) return code;
  return 0x01000000 + code;
}

/** Levels of the core keyboard map that can be reached with modifiers alone (group 1): none, Shift, AltGr, both. */
export const reachableLevels = [0, 1, 4, 5] as const;

const nameByKeysymName = new Map<string, string>();
for (const [names, keysym] of table) if (!nameByKeysymName.has(keysym)) nameByKeysymName.set(keysym, names[0]!);

/** The canonical key name for an X keysym name (`Return` is `Enter`, `Prior` is `PageUp`); undefined if unnamed. */
export function keyNameOfKeysymName(keysymName: string): string | undefined {
  return nameByKeysymName.get(keysymName);
}

/** The character a keysym types (the inverse of characterKeysym for printable characters); undefined for others. */
export function keysymCharacter(keysym: number): string | undefined {
  if ((keysym >= 0x20 && keysym <= 0x7e) || (keysym >= 0xa0 && keysym <= 0xff)) return String.fromCodePoint(keysym);
  if (keysym >= 0x01000100 && keysym <= 0x0110ffff) return String.fromCodePoint(keysym - 0x01000000);
  return undefined;
}
