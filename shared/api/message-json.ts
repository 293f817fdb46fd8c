/** A message as received: the parsed JSON of text, anything else as it came (a transport that parsed it already). */
export function messageData(raw: unknown): { ok: true; data: unknown } | { ok: false; error: string } {
  if (typeof raw !== 'string') return { ok: true, data: raw };
  try {
    return { ok: true, data: JSON.parse(raw) as unknown };
  } catch {
    return { ok: false, error: 'message is not valid JSON' };
  }
}
