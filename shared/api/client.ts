import { InspectorError } from '../model/errors.js';
import { messageData } from './message-json.js';
import type {
  EvaluationItem,
  EventType,
  InspectorEvent,
  MethodName,
  ParamsInput,
  RequestMessage,
  Result,
  ServerMessage,
} from './schema.js';

/**
 * How a client checks what its host sends: against the schema (`schemaCheck` in ./schema-check.ts, which loads the
 * validator), or, until one is given, only the envelope (JSON, `kind`, `id`). A page loads the schema check after its
 * first requests are out, so the validator's code is not on the way to its first rows.
 */
export interface MessageCheck {
  parseServerMessage(raw: unknown): { ok: true; message: ServerMessage } | { ok: false; error: string };
  parseResult<M extends MethodName>(
    method: M,
    result: unknown,
  ): { ok: true; value: Result<M> } | { ok: false; error: string };
}

/** The envelope only: the message is JSON with a known `kind`; the rest is taken as the host sent it. */
const envelopeCheck: MessageCheck = {
  parseServerMessage(raw) {
    const parsed = messageData(raw);
    if (!parsed.ok) return parsed;
    const message = parsed.data as { kind?: unknown; id?: unknown; ok?: unknown; event?: { type?: unknown } } | null;
    if (message?.kind === 'event' && typeof message.event?.type === 'string')
      return { ok: true, message: message as ServerMessage };
    if (message?.kind === 'response' && typeof message.ok === 'boolean')
      return { ok: true, message: message as ServerMessage };
    return { ok: false, error: 'message is neither an event nor a response' };
  },
  parseResult: <M extends MethodName>(_method: M, result: unknown) => ({ ok: true, value: result as Result<M> }),
};

/**
 * What carries messages between the renderer and a host: a WebSocket (browser host) or Electron IPC (preload).
 * `send` receives a plain object; the transport serializes it as it needs. `onMessage` delivers what the host sent,
 * as JSON text or as an already-parsed object.
 */
export interface Transport {
  send(message: RequestMessage): void;
  onMessage(callback: (message: unknown) => void): (() => void) | void;
  /** Called when the connection is gone for good (optional). */
  onClose?(callback: (reason: string) => void): (() => void) | void;
  close?(): void;
}

export type EventOf<T extends EventType> = Extract<InspectorEvent, { type: T }>;

export interface EvaluationHandle {
  readonly id: string;
  /** Resolves with the summary after every item was delivered; rejects with an InspectorError (position set). */
  readonly done: Promise<Result<'evaluate'>>;
  cancel(): Promise<void>;
}

export interface EvaluateOptions {
  contextRuntimeId?: string;
  timeoutMs?: number;
  /** Fewer results than the host's cap (`limits.maxResults`). */
  maxResults?: number;
  /** Wait behind the connection's running evaluation instead of cancelling it. */
  queue?: boolean;
  /** Items as they stream in. */
  onItems?: (items: EvaluationItem[]) => void;
  /** Paged: nothing streams, the answer carries the first page (`items`), `evaluationPage` reads on. */
  pageSize?: number;
}

/** The arguments of a pattern action (`action` params' `args`). */
export type ActionArgs = NonNullable<ParamsInput<'action'>['args']>;

interface Pending {
  method: MethodName;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/** The typed client the renderer uses, over any Transport. */
export class InspectorClient {
  private nextId = 1;
  private nextEvaluation = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Map<string, Set<(event: InspectorEvent) => void>>();
  private readonly itemListeners = new Map<string, (items: EvaluationItem[]) => void>();
  private closedReason: string | undefined;
  private readonly detach: Array<() => void> = [];
  private messageCheck: MessageCheck;

  constructor(
    private readonly transport: Transport,
    private readonly options: {
      requestTimeoutMs?: number;
      onProtocolError?: (message: string) => void;
      /** Checks what the host sends; default: the envelope only (see MessageCheck). */
      messageCheck?: MessageCheck;
    } = {},
  ) {
    this.messageCheck = options.messageCheck ?? envelopeCheck;
    const off = transport.onMessage((message) => this.receive(message));
    if (off) this.detach.push(off);
    const offClose = transport.onClose?.((reason) => this.failAll(reason));
    if (offClose) this.detach.push(offClose);
  }

  /** Sends one request and resolves with its validated result. */
  request<M extends MethodName>(method: M, params?: ParamsInput<M>): Promise<Result<M>> {
    if (this.closedReason !== undefined) {
      return Promise.reject(new InspectorError('internal', `connection closed: ${this.closedReason}`));
    }
    const id = this.nextId++;
    return new Promise<Result<M>>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const settle = () => {
        if (timer) clearTimeout(timer);
        this.pending.delete(id);
      };
      this.pending.set(id, {
        method,
        resolve: (value) => {
          settle();
          resolve(value as Result<M>);
        },
        reject: (error) => {
          settle();
          reject(error);
        },
      });
      if (this.options.requestTimeoutMs && method !== 'evaluate') {
        timer = setTimeout(
          () =>
            this.pending
              .get(id)
              ?.reject(
                new InspectorError('timeout', `${method} got no answer within ${this.options.requestTimeoutMs} ms`),
              ),
          this.options.requestTimeoutMs,
        );
      }
      try {
        this.transport.send({ kind: 'request', id, method, params: params ?? {} });
      } catch (error) {
        this.pending.get(id)?.reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }

  /** Subscribes to one event type; returns the unsubscribe function. */
  on<T extends EventType>(type: T, listener: (event: EventOf<T>) => void): () => void {
    let set = this.listeners.get(type);
    if (!set) this.listeners.set(type, (set = new Set()));
    const wrapped = listener as (event: InspectorEvent) => void;
    set.add(wrapped);
    return () => set.delete(wrapped);
  }

  /** Subscribes to every event. */
  onAny(listener: (event: InspectorEvent) => void): () => void {
    return this.on('*' as EventType, listener as (event: EventOf<EventType>) => void);
  }

  desktop = () => this.request('desktop');
  node = (runtimeId: string) => this.request('node', { runtimeId });
  children = (runtimeId: string, range: { offset?: number; limit?: number; refresh?: boolean } = {}) =>
    this.request('children', { runtimeId, ...range });
  subtree = (runtimeId: string, maxNodes?: number) =>
    this.request('subtree', { runtimeId, ...(maxNodes ? { maxNodes } : {}) });
  evaluationPage = (id: string, offset: number, limit?: number) =>
    this.request('evaluation.page', { id, offset, ...(limit ? { limit } : {}) });
  ancestors = (runtimeId: string) => this.request('ancestors', { runtimeId });
  attributes = (runtimeId: string, options: { refresh?: boolean } = {}) =>
    this.request('attributes', { runtimeId, ...options });
  patterns = (runtimeId: string) => this.request('patterns', { runtimeId });
  action = (runtimeId: string, expectedRevision: number, action: string, args: ActionArgs = {}) =>
    this.request('action', { runtimeId, expectedRevision, action, args });
  highlight = (target: ParamsInput<'highlight'>) => this.request('highlight', target);
  clearHighlight = () => this.request('highlight.clear');
  startPick = (intervalMs?: number) => this.request('pick.start', intervalMs ? { intervalMs } : {});
  selectPick = () => this.request('pick.select');
  cyclePick = (delta: number) => this.request('pick.cycle', { delta });
  stopPick = () => this.request('pick.stop');
  locate = (runtimeId: string, limit?: number) => this.request('locate', { runtimeId, ...(limit ? { limit } : {}) });
  exportCode = (runtimeId: string, format: ParamsInput<'export'>['format'], action?: string) =>
    this.request('export', { runtimeId, format, ...(action ? { action } : {}) });
  snapshot = (options: ParamsInput<'snapshot'> = {}) => this.request('snapshot', options);
  diffSnapshots = (before: { xml: string; name: string }, after: { xml: string; name: string }) =>
    this.request('snapshot.diff', { before, after });
  openSnapshot = (xml: string, name: string) => this.request('snapshot.open', { xml, name });
  closeSnapshot = () => this.request('snapshot.close');
  names = () => this.request('names');
  check = (options: ParamsInput<'check'> = {}) => this.request('check', options);
  getSettings = () => this.request('settings.get');
  setSettings = (values: ParamsInput<'settings.set'>['values']) => this.request('settings.set', { values });
  status = () => this.request('status');
  accessibilityStatus = () => this.request('accessibility.status');
  enableAccessibility = () => this.request('accessibility.enable');
  stopHost = () => this.request('host.stop');
  cancel = (id: string) => this.request('cancel', { id });
  captureScreen = (options: ParamsInput<'screen.capture'> = {}) => this.request('screen.capture', options);
  elementAt = (x: number, y: number) => this.request('screen.elementAt', { x, y });
  boundsOf = (runtimeIds: string[]) => this.request('screen.bounds', { runtimeIds });
  clickScreen = (x: number, y: number, options: { button?: 'left' | 'middle' | 'right'; count?: number } = {}) =>
    this.request('screen.click', { x, y, ...options });
  scrollScreen = (x: number, y: number, deltaX: number, deltaY: number) =>
    this.request('screen.scroll', { x, y, deltaX, deltaY });
  typeKeys = (keys: string) => this.request('screen.type', { keys });
  subscribeEvents = (filter: ParamsInput<'events.subscribe'> = {}) => this.request('events.subscribe', filter);
  unsubscribeEvents = () => this.request('events.unsubscribe');
  startRecording = (maxSteps?: number) => this.request('recording.start', maxSteps ? { maxSteps } : {});
  stopRecording = () => this.request('recording.stop');
  recordingState = () => this.request('recording.state');
  deleteRecordedStep = (id: number) => this.request('recording.deleteStep', { id });
  chooseStepLocator = (id: number, xpath: string) => this.request('recording.chooseLocator', { id, xpath });
  addRecordedAssertion = (runtimeId: string, attribute: ParamsInput<'recording.assert'>['attribute']) =>
    this.request('recording.assert', { runtimeId, attribute });
  exportRecording = (format: ParamsInput<'recording.export'>['format']) => this.request('recording.export', { format });

  /** Starts an evaluation; items stream to `onItems` before `done` resolves. */
  evaluate(xpath: string, options: EvaluateOptions = {}): EvaluationHandle {
    const id = `e${this.nextEvaluation++}`;
    if (options.onItems) this.itemListeners.set(id, options.onItems);
    const done = this.request('evaluate', {
      id,
      xpath,
      ...(options.contextRuntimeId ? { contextRuntimeId: options.contextRuntimeId } : {}),
      ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.maxResults ? { maxResults: options.maxResults } : {}),
      ...(options.queue ? { queue: true } : {}),
      ...(options.pageSize ? { pageSize: options.pageSize } : {}),
    }).finally(() => this.itemListeners.delete(id));
    return {
      id,
      done,
      cancel: async () => {
        await this.cancel(id);
      },
    };
  }

  close(): void {
    this.failAll('closed by the client');
    for (const off of this.detach.splice(0)) off();
    this.transport.close?.();
  }

  private failAll(reason: string): void {
    this.closedReason ??= reason;
    for (const pending of [...this.pending.values()]) {
      pending.reject(new InspectorError('internal', `connection closed: ${reason}`));
    }
  }

  /** Checks every later message with `check` (a page's schema check, once loaded). */
  checkWith(check: MessageCheck): void {
    this.messageCheck = check;
  }

  private receive(raw: unknown): void {
    const parsed = this.messageCheck.parseServerMessage(raw);
    if (!parsed.ok) {
      this.options.onProtocolError?.(parsed.error);
      return;
    }
    const message = parsed.message;
    if (message.kind === 'event') {
      const event = message.event;
      if (event.type === 'evaluation.items') this.itemListeners.get(event.id)?.(event.items);
      for (const key of [event.type, '*']) {
        for (const listener of [...(this.listeners.get(key) ?? [])]) {
          try {
            listener(event);
          } catch (error) {
            this.options.onProtocolError?.(`event listener failed: ${String(error)}`);
          }
        }
      }
      return;
    }
    if (message.id === null) {
      this.options.onProtocolError?.(message.ok ? 'response without id' : message.error.message);
      return;
    }
    const pending = this.pending.get(message.id);
    if (!pending) return;
    if (!message.ok) {
      pending.reject(InspectorError.fromData(message.error));
      return;
    }
    const result = this.messageCheck.parseResult(pending.method, message.result);
    if (result.ok) pending.resolve(result.value);
    else pending.reject(new InspectorError('internal', result.error));
  }
}

/** A Transport over a browser (or `ws`) WebSocket. Messages sent before it opens are queued. */
export function webSocketTransport(socket: {
  readyState: number;
  send(data: string): void;
  close(): void;
  addEventListener(type: 'message' | 'open' | 'close', listener: (event: unknown) => void): void;
}): Transport {
  const queue: string[] = [];
  socket.addEventListener('open', () => {
    for (const text of queue.splice(0)) socket.send(text);
  });
  return {
    send(message) {
      const text = JSON.stringify(message);
      if (socket.readyState === 0) queue.push(text);
      else if (socket.readyState === 1) socket.send(text);
      else throw new InspectorError('internal', 'connection closed');
    },
    onMessage(callback) {
      let active = true;
      socket.addEventListener('message', (event) => {
        const data = (event as { data?: unknown }).data;
        if (active) callback(typeof data === 'string' ? data : '');
      });
      return () => {
        active = false;
      };
    },
    onClose(callback) {
      let active = true;
      socket.addEventListener('close', () => {
        if (active) callback('the connection to the host closed');
      });
      return () => {
        active = false;
      };
    },
    close: () => socket.close(),
  };
}
