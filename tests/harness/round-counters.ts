// The counters of the per-round cost account (issue 41 §1), installed by the test, never by the product: on the
// page before any of its scripts run (context.addInitScript), in the engine's worker through Playwright's
// own channel into it (worker.evaluate, over the DevTools protocol: no postMessage, so reading the counters
// never adds to them). The extension carries no counting code at all, so it costs nothing when not counted.
//
// `installRoundCounters` is serialized into the page or the worker and runs there: it may use nothing from
// this module's scope. Each thing counted is appended to one log; the test marks positions in it and takes
// what lies between two marks.

/** What one entry of the log counts. */
export type CountKind = 'post' | 'broadcast' | 'emit' | 'fetch' | 'timer' | 'idb' | 'dom';

export interface CountEntry {
    kind: CountKind;
    /** Which one: the timer's function, the event's name, the fetch's path, the stores of a transaction, the DOM area. */
    name: string;
    /**
     * A message's payload size: characters of its strings and keys, 8 per number, 1 per boolean or null. comlink's
     * own message id is left out: it is random, of varying length, and would make the count vary.
     */
    bytes: number;
    /** Whether extension code was on the stack (page side; everything in the worker is ours). */
    ours: boolean;
    /**
     * Caused by a clock, not by the round: set inside a setInterval callback and the microtasks it queued (the
     * panel's elapsed time re-renders twice a second, the page checks the worker every 5 s).
     */
    tick: boolean;
    /** comlink's message id, to pair a reply with the call that asked for it. */
    id: string | null;
    /** With `keepPayloads`: a message's payload as JSON, or a DOM record's kind and target, to read what a count is. */
    payload?: string;
    /** DOM entries: ids of the nodes one mutation record touched (its target and the nodes it added or removed). */
    nodes: number[] | null;
}

export interface CounterLog {
    entries: CountEntry[];
    add(kind: CountKind, name: string, extra?: Partial<Pick<CountEntry, 'bytes' | 'id' | 'nodes' | 'ours' | 'payload' | 'tick'>>): void;
    /** Takes the DOM records still queued, so a mark sees everything done before it. */
    flush(): void;
    /** Whether SillyTavern's event bus is counted yet. */
    events: boolean;
}

export interface CounterOptions {
    /** A URL path only the extension's scripts have (`/scripts/extensions/third-party/<folder>/`). */
    extensionPath: string;
    /** The panel's root and the Send badge, as selectors (page only). */
    areas: Record<string, string>;
    /**
     * Elements that show a clock (the run's elapsed time): what changes in them changes with time, not with
     * rounds (a round's re-render re-reads the time), so it is logged as a clock's.
     */
    clocks: string[];
    /** Keep each message's payload and each DOM record's target (to investigate a number; slower). */
    keepPayloads?: boolean;
}

type Untyped = (this: unknown, ...args: unknown[]) => unknown;

/** Where the log lives in the page or worker, for the test to read with evaluate. */
export const COUNTER_GLOBAL = '__tavernAgentRoundCounters';

/**
 * Installs the counters in the current global scope (a page or a dedicated worker). Idempotent. Each wrapper
 * calls the original unchanged; it only appends to the log. Prototype methods are replaced because that is
 * where comlink (`ep.postMessage`), idb (`IDBDatabase#transaction`, behind its shortcuts too) and the
 * extension's live channel reach them.
 */
export function installRoundCounters(options: CounterOptions): void {
    const scope = globalThis as typeof globalThis & { __tavernAgentRoundCounters?: CounterLog };
    if (scope.__tavernAgentRoundCounters) return;
    const onPage = typeof document !== 'undefined';
    const entries: CountEntry[] = [];
    let tickDepth = 0;
    // Stacks are read to tell the extension's calls from SillyTavern's: deep enough to reach the caller.
    Error.stackTraceLimit = 100;
    const ours = () => !onPage || (new Error().stack ?? '').includes(options.extensionPath);
    const sizeOf = (value: unknown, depth: number): number => {
        if (typeof value === 'string') return value.length;
        if (typeof value === 'number' || typeof value === 'bigint') return 8;
        if (typeof value !== 'object' || value === null) return 1;
        if (depth > 64) return 0;
        if (ArrayBuffer.isView(value)) return value.byteLength;
        if (value instanceof ArrayBuffer) return value.byteLength;
        if (Array.isArray(value)) return value.reduce((sum: number, item: unknown) => sum + sizeOf(item, depth + 1), 0);
        const proto = Object.getPrototypeOf(value);
        // A transferred MessagePort or the like: no payload of its own.
        if (proto !== Object.prototype && proto !== null) return 0;
        return Object.entries(value).reduce((sum, [key, item]) => sum + key.length + sizeOf(item, depth + 1), 0);
    };
    const messageId = (data: unknown): string | null => {
        if (typeof data !== 'object' || data === null || !('id' in data)) return null;
        return String(data.id);
    };
    const add: CounterLog['add'] = (kind, name, extra = {}) => {
        const entry: CountEntry = { kind, name, bytes: extra.bytes ?? 0, ours: extra.ours ?? ours(), tick: extra.tick ?? tickDepth > 0, id: extra.id ?? null, nodes: extra.nodes ?? null };
        if (options.keepPayloads && extra.payload !== undefined) entry.payload = extra.payload;
        entries.push(entry);
    };

    // Messages across the worker wall: the Worker object and comlink's MessagePorts (callbacks, replies).
    const countPost = (original: (this: unknown, ...args: unknown[]) => void) =>
        function (this: unknown, ...args: unknown[]) {
            if (ours()) {
                const data = args[0];
                const id = messageId(data);
                const payload = options.keepPayloads ? JSON.stringify(data).slice(0, 4000) : undefined;
                const bytes = sizeOf(data, 0) - (id === null ? 0 : 'id'.length + id.length);
                add('post', onPage ? 'to worker' : 'to page', { bytes, id, ours: true, payload });
            }
            return original.apply(this, args);
        };
    // Untyped on purpose: each postMessage has its own overloads, and the wrapper passes any of them through.
    const ports = MessagePort.prototype as unknown as { postMessage(this: unknown, ...args: unknown[]): void };
    ports.postMessage = countPost(ports.postMessage);
    if (onPage) {
        const workers = Worker.prototype as unknown as { postMessage(this: unknown, ...args: unknown[]): void };
        workers.postMessage = countPost(workers.postMessage);
    } else {
        const self = scope as unknown as { postMessage(this: unknown, ...args: unknown[]): void };
        self.postMessage = countPost(self.postMessage.bind(scope));
    }

    if (typeof BroadcastChannel === 'function') {
        const post = BroadcastChannel.prototype.postMessage;
        BroadcastChannel.prototype.postMessage = function (message: unknown) {
            add('broadcast', this.name, { bytes: sizeOf(message, 0) });
            return post.call(this, message);
        };
    }

    // Untyped on purpose: Node's and the DOM's timer types disagree in this tsconfig, and each wrapper passes
    // every call through unchanged.
    const globals = scope as unknown as Record<'fetch' | 'setTimeout' | 'setInterval' | 'requestAnimationFrame', Untyped | undefined>;
    const fetchOriginal = globals.fetch!;
    globals.fetch = function (this: unknown, ...args: unknown[]) {
        const input = args[0];
        const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input instanceof Request ? input.url : String(input);
        add('fetch', new URL(url, location.href).pathname);
        return fetchOriginal.apply(scope, args);
    };
    const timeout = globals.setTimeout!;
    globals.setTimeout = function (this: unknown, ...args: unknown[]) {
        const handler = args[0];
        add('timer', `setTimeout ${typeof handler === 'function' ? handler.name || 'anonymous' : 'string'}`);
        return timeout.apply(scope, args);
    };
    const interval = globals.setInterval!;
    globals.setInterval = function (this: unknown, ...args: unknown[]) {
        const [handler, ms] = args;
        add('timer', `setInterval ${String(ms ?? 0)} ms`);
        if (typeof handler !== 'function') return interval.apply(scope, args);
        // What a tick does is done in its task: its callback and the microtasks it queued (Preact renders
        // a state change in a microtask), which all run before the one queued here last.
        const tick = function (this: unknown, ...tickArgs: unknown[]) {
            log.flush();
            tickDepth += 1;
            try {
                return handler.apply(this, tickArgs);
            } finally {
                queueMicrotask(() => {
                    log.flush();
                    tickDepth -= 1;
                });
            }
        };
        return interval.apply(scope, [tick, ...args.slice(1)]);
    };
    const frame = globals.requestAnimationFrame;
    if (frame) {
        globals.requestAnimationFrame = function (this: unknown, ...args: unknown[]) {
            add('timer', 'requestAnimationFrame');
            return frame.apply(scope, args);
        };
    }

    if (typeof IDBDatabase === 'function') {
        const transaction = IDBDatabase.prototype.transaction;
        // Every transaction the worker opens passes here, idb's shortcuts (db.get, db.put) included.
        IDBDatabase.prototype.transaction = function (this: IDBDatabase, ...args: Parameters<IDBDatabase['transaction']>) {
            const [stores, mode] = args;
            add('idb', `${mode ?? 'readonly'} ${typeof stores === 'string' ? stores : [...stores].join('+')}`);
            return transaction.apply(this, args);
        };
    }

    // DOM: every mutation record under the panel or the badge, with the nodes it touched.
    const nodeIds = new WeakMap<Node, number>();
    let lastNodeId = 0;
    const idOf = (node: Node) => {
        let id = nodeIds.get(node);
        if (id === undefined) nodeIds.set(node, (id = ++lastNodeId));
        return id;
    };
    const areaOf = (node: Node): string | null => {
        const element = node instanceof Element ? node : node.parentElement;
        if (!element) return null;
        for (const [area, selector] of Object.entries(options.areas)) if (element.closest(selector)) return area;
        return null;
    };
    const record = (records: MutationRecord[]) => {
        for (const mutation of records) {
            // A removed subtree is gone from the document: it belongs to the area of the node it left.
            const area = areaOf(mutation.target) ?? [...mutation.addedNodes].map(areaOf).find((a) => a !== null) ?? null;
            if (area === null) continue;
            const touched = [mutation.target, ...mutation.addedNodes, ...mutation.removedNodes].map(idOf);
            const where = (node: Node) => (node instanceof Element ? `${node.tagName.toLowerCase()}.${[...node.classList].join('.')}` : `${node.nodeName}<${node.parentElement?.className ?? ''}>`);
            const payload = options.keepPayloads ? `${mutation.type} ${mutation.attributeName ?? ''} ${where(mutation.target)} +${[...mutation.addedNodes].map(where).join(',')} -${[...mutation.removedNodes].map(where).join(',')}` : undefined;
            const element = mutation.target instanceof Element ? mutation.target : mutation.target.parentElement;
            const clock = options.clocks.some((selector) => element?.closest(selector));
            add('dom', area, { nodes: touched, ours: true, payload, ...(clock ? { tick: true } : {}) });
        }
    };
    const observer = onPage ? new MutationObserver(record) : null;
    const log: CounterLog = {
        entries,
        add,
        events: false,
        flush: () => {
            if (observer) record(observer.takeRecords());
        },
    };
    if (observer) {
        const observe = () => observer.observe(document.documentElement, { subtree: true, childList: true, attributes: true, characterData: true });
        if (document.documentElement) observe();
        else document.addEventListener('readystatechange', observe, { once: true });
    }
    scope.__tavernAgentRoundCounters = log;
}

/**
 * SillyTavern's event bus exists only once its scripts have run: the page calls this after they have. Counts
 * `emit` and `emitAndWait` on the one `eventSource` instance (its callers reach them through it).
 */
export function countSillyTavernEvents(): void {
    const scope = globalThis as typeof globalThis & { __tavernAgentRoundCounters?: CounterLog };
    const log = scope.__tavernAgentRoundCounters;
    if (!log || log.events) return;
    log.events = true;
    // Untyped on purpose: SillyTavern's context types the bus loosely, and the wrapper passes every call through.
    const source = SillyTavern!.getContext().eventSource as unknown as Record<'emit' | 'emitAndWait', (this: unknown, event: string, ...args: unknown[]) => unknown>;
    for (const method of ['emit', 'emitAndWait'] as const) {
        const original = source[method];
        if (typeof original !== 'function') continue;
        source[method] = function (this: unknown, event: string, ...args: unknown[]) {
            log.add('emit', event);
            return original.call(this, event, ...args);
        };
    }
}
