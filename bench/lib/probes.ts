/**
 * In-page probes, passed to page.evaluate. Keep them free of named inner functions (see
 * tests/harness/browser.ts: tsx's keepNames would wrap them in a `__name` the page may not have).
 */

export interface FrameScript {
    sourceURL: string;
    duration: number;
    invoker: string;
    invokerType: string;
}

export interface LongFrame {
    startTime: number;
    duration: number;
    blockingDuration: number;
    scripts: FrameScript[];
}

export interface FrameProbeResult {
    longFrames: LongFrame[];
    longTasks: Array<{ startTime: number; duration: number }>;
    now: number;
}

interface FrameProbeState {
    observers: PerformanceObserver[];
    longFrames: LongFrame[];
    longTasks: Array<{ startTime: number; duration: number }>;
    take(entries: PerformanceEntryList): void;
}

/** Starts collecting long animation frames (LoAF, > 50 ms, with the scripts that ran) and long tasks. */
export function installFrameProbe(): number {
    const g = globalThis as unknown as { __benchFrames?: FrameProbeState };
    g.__benchFrames?.observers.forEach((o) => o.disconnect());
    const state: FrameProbeState = { observers: [], longFrames: [], longTasks: [], take: () => undefined };
    state.take = (entries) => {
        for (const entry of entries as unknown as Array<PerformanceEntry & { blockingDuration?: number; scripts?: Array<Record<string, unknown>> }>) {
            if (entry.entryType === 'longtask') {
                state.longTasks.push({ startTime: entry.startTime, duration: entry.duration });
                continue;
            }
            state.longFrames.push({
                startTime: entry.startTime,
                duration: entry.duration,
                blockingDuration: entry.blockingDuration ?? 0,
                scripts: (entry.scripts ?? []).map((s) => ({
                    sourceURL: String(s.sourceURL ?? ''),
                    duration: Number(s.duration ?? 0),
                    invoker: String(s.invoker ?? ''),
                    invokerType: String(s.invokerType ?? ''),
                })),
            });
        }
    };
    const frames = new PerformanceObserver((list) => state.take(list.getEntries()));
    frames.observe({ type: 'long-animation-frame', buffered: false });
    const tasks = new PerformanceObserver((list) => state.take(list.getEntries()));
    tasks.observe({ type: 'longtask', buffered: false });
    state.observers.push(frames, tasks);
    g.__benchFrames = state;
    return performance.now();
}

export function collectFrameProbe(since: number): FrameProbeResult {
    const state = (globalThis as unknown as { __benchFrames: FrameProbeState }).__benchFrames;
    for (const observer of state.observers) {
        state.take(observer.takeRecords());
        observer.disconnect();
    }
    return {
        longFrames: state.longFrames.filter((f) => f.startTime + f.duration >= since),
        longTasks: state.longTasks.filter((t) => t.startTime + t.duration >= since),
        now: performance.now(),
    };
}

export interface ReceivedEvent {
    runId: string;
    seq: number;
    type: string;
    at: number;
    callId: string | null;
    /** The tool's name (tool events) and the model round (model events), from the payload. */
    name: string | null;
    round: number | null;
    receivedAt: number;
}

export interface RowObservation {
    key: string;
    /** A tool row's call id (`data-call-id`): the run-unique id its tool-call events carry. */
    callId: string | null;
    type: string | null;
    mutatedAt: number;
    paintedAt: number;
}

export interface LatencyProbeResult {
    /** Date.now() − performance.now() in the page (worker events are stamped with Date.now()). */
    clockOffset: number;
    /** Start times of every animation frame while the probe ran. */
    frames: number[];
    received: ReceivedEvent[];
    observed: RowObservation[];
}

/**
 * Watches the journal events reaching the page (the comlink calls of the run's host bridge: `onEvents`)
 * and the timeline rows they change: a row counts as painted at the first task after the frame in which
 * it was added or its `data-event-type` changed (MutationObserver → MessageChannel post).
 */
export function installLatencyProbe(rootSelector: string): void {
    const g = globalThis as unknown as {
        __benchLatency?: { received: ReceivedEvent[]; observed: RowObservation[]; offsets: number[]; frames: number[]; running: boolean; observer: MutationObserver };
        __benchPortPatched?: boolean;
    };
    if (g.__benchLatency) {
        g.__benchLatency.observer.disconnect();
        g.__benchLatency.running = false;
    }
    const offsets: number[] = [];
    for (let k = 0; k < 5; k += 1) {
        // Wait for Date.now() to tick: at the edge it is exact to well under a millisecond.
        const d0 = Date.now();
        let d = d0;
        while (d === d0) d = Date.now();
        offsets.push(d - performance.now());
    }
    const state = { received: [] as ReceivedEvent[], observed: [] as RowObservation[], offsets, frames: [] as number[], running: true, observer: null as unknown as MutationObserver };
    g.__benchLatency = state;
    const tick = (time: number) => {
        if (!state.running) return;
        state.frames.push(time);
        requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);

    if (!g.__benchPortPatched) {
        g.__benchPortPatched = true;
        const original = MessagePort.prototype.addEventListener;
        MessagePort.prototype.addEventListener = function (this: MessagePort, type: string, listener: unknown, options?: unknown) {
            if (type === 'message' && typeof listener === 'function') {
                const inner = listener as (event: MessageEvent) => unknown;
                const wrapped = function (this: unknown, event: MessageEvent) {
                    const data = event.data as { type?: string; path?: string[]; argumentList?: Array<{ value?: unknown }> } | null;
                    if (data && data.type === 'APPLY' && Array.isArray(data.path) && data.path[0] === 'onEvents') {
                        const batch = data.argumentList?.[0]?.value;
                        const now = performance.now();
                        const target = (globalThis as unknown as { __benchLatency?: { received: ReceivedEvent[] } }).__benchLatency;
                        if (Array.isArray(batch) && target) {
                            for (const e of batch as Array<{ runId: string; seq: number; type: string; at: number; payload: { callId?: string; name?: string; round?: number } }>) {
                                target.received.push({
                                    runId: e.runId,
                                    seq: e.seq,
                                    type: e.type,
                                    at: e.at,
                                    callId: e.payload?.callId ?? null,
                                    name: e.payload?.name ?? null,
                                    round: e.payload?.round ?? null,
                                    receivedAt: now,
                                });
                            }
                        }
                    }
                    return inner.call(this, event);
                };
                return original.call(this, type, wrapped as EventListener, options as AddEventListenerOptions);
            }
            return original.call(this, type, listener as EventListener, options as AddEventListenerOptions);
        } as typeof MessagePort.prototype.addEventListener;
    }

    // A mutation made inside a frame's rendering (requestAnimationFrame callbacks, ResizeObserver, the
    // microtasks after them) is painted in that frame: the first task after it is after the paint. A mutation
    // made in any other task is painted in the next frame, so it waits for that frame first. `inFrame` is set
    // by every requestAnimationFrame callback and cleared by the first task after the frame.
    const frameFlag = globalThis as unknown as { __benchInFrame?: boolean; __benchRafPatched?: boolean };
    if (!frameFlag.__benchRafPatched) {
        frameFlag.__benchRafPatched = true;
        const originalRaf = window.requestAnimationFrame.bind(window);
        const clear = new MessageChannel();
        clear.port1.onmessage = () => {
            frameFlag.__benchInFrame = false;
        };
        window.requestAnimationFrame = (callback: FrameRequestCallback) =>
            originalRaf((time) => {
                if (!frameFlag.__benchInFrame) {
                    frameFlag.__benchInFrame = true;
                    clear.port2.postMessage(0);
                }
                callback(time);
            });
    }
    const pending: RowObservation[] = [];
    const waiting: RowObservation[] = [];
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
        const now = performance.now();
        for (const o of pending.splice(0)) {
            o.paintedAt = now;
            state.observed.push(o);
        }
    };
    const afterNextFrame = () => {
        pending.push(...waiting.splice(0));
        channel.port2.postMessage(0);
    };
    const root = document.querySelector(rootSelector) ?? document.body;
    state.observer = new MutationObserver((records) => {
        const now = performance.now();
        const seen = new Set<string>();
        for (const record of records) {
            const nodes = record.type === 'attributes' ? [record.target] : Array.from(record.addedNodes);
            for (const node of nodes) {
                if (!(node instanceof Element)) continue;
                const rows = node.matches('[data-row-key]') ? [node] : Array.from(node.querySelectorAll('[data-row-key]'));
                for (const row of rows) {
                    const key = row.getAttribute('data-row-key') ?? '';
                    const type = row.getAttribute('data-event-type');
                    const id = `${key}|${type}`;
                    if (seen.has(id)) continue;
                    seen.add(id);
                    const observation = { key, callId: row.getAttribute('data-call-id'), type, mutatedAt: now, paintedAt: 0 };
                    if (frameFlag.__benchInFrame) pending.push(observation);
                    else waiting.push(observation);
                }
            }
        }
        if (pending.length) channel.port2.postMessage(0);
        if (waiting.length) requestAnimationFrame(afterNextFrame);
    });
    state.observer.observe(root, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-event-type'] });
}

export function collectLatencyProbe(): LatencyProbeResult {
    const state = (globalThis as unknown as { __benchLatency: { received: ReceivedEvent[]; observed: RowObservation[]; offsets: number[]; frames: number[]; running: boolean; observer: MutationObserver } }).__benchLatency;
    state.observer.disconnect();
    state.running = false;
    const offsets = [...state.offsets].sort((a, b) => a - b);
    return { clockOffset: offsets[offsets.length >> 1]!, frames: state.frames, received: state.received, observed: state.observed };
}

export interface FloorSample {
    at: number;
    key: string;
}

/**
 * The floor of event → painted row: a bare module-less worker posts `count` tiny messages in batches of
 * `batch`, `spacingMs` apart, each stamped with Date.now() as a journal event is, and the page adds one row
 * element for each inside the panel's root in the task the batch arrives in (no framework, no store). The
 * latency probe, installed first, times their paint as it times the timeline's rows.
 *
 * With `recordChars` > 0 the worker is journal-first as the engine is: each batch is stamped, then one
 * IndexedDB readwrite transaction puts a record of that many characters, and the batch is posted once it
 * has committed (the database is this page's, on the same disk as the journal, and deleted afterwards).
 */
export async function runPaintFloor(args: { rootSelector: string; count: number; spacingMs: number; batch?: number; recordChars?: number }): Promise<FloorSample[]> {
    const root = document.querySelector(args.rootSelector) ?? document.body;
    const box = document.createElement('div');
    box.setAttribute('aria-hidden', 'true');
    root.appendChild(box);
    const dbName = 'tavern-agent-bench-floor';
    // spacingMs 0: all at once, as a burst's events are appended.
    const source = `
        const open = () => new Promise((resolve, reject) => {
            const request = indexedDB.open('${dbName}', 1);
            request.onupgradeneeded = () => request.result.createObjectStore('s');
            request.onsuccess = () => resolve(request.result);
            request.onerror = () => reject(request.error);
        });
        onmessage = async (e) => {
            const { count, spacingMs, batch, recordChars } = e.data;
            const db = recordChars > 0 ? await open() : null;
            const filler = 'x'.repeat(recordChars);
            let i = 0;
            const tick = () => {
                const at = Date.now();
                const first = i;
                const n = Math.min(batch, count - i);
                i += n;
                const post = () => {
                    postMessage(Array.from({ length: n }, (_, k) => ({ i: first + k, at })));
                    if (i >= count) { db?.close(); return; }
                    if (spacingMs > 0) setTimeout(tick, spacingMs); else tick();
                };
                if (!db) return post();
                const tx = db.transaction('s', 'readwrite');
                tx.objectStore('s').put({ filler, first }, first);
                tx.oncomplete = post;
            };
            tick();
        };`;
    const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
    const worker = new Worker(url);
    const samples: FloorSample[] = [];
    await new Promise<void>((resolve) => {
        worker.onmessage = (event: MessageEvent<Array<{ i: number; at: number }>>) => {
            for (const item of event.data) {
                const row = document.createElement('div');
                const key = `floor-${item.i}`;
                row.setAttribute('data-row-key', key);
                row.setAttribute('data-event-type', 'tool-call-start');
                row.textContent = key;
                box.appendChild(row);
                samples.push({ at: item.at, key });
            }
            if (samples.length === args.count) resolve();
        };
        worker.postMessage({ count: args.count, spacingMs: args.spacingMs, batch: args.batch ?? 1, recordChars: args.recordChars ?? 0 });
    });
    // Let the last rows paint before the probe is read.
    await new Promise((resolve) => setTimeout(resolve, 100));
    worker.terminate();
    URL.revokeObjectURL(url);
    box.remove();
    await new Promise((resolve) => {
        const request = indexedDB.deleteDatabase(dbName);
        request.onsuccess = request.onerror = request.onblocked = resolve;
    });
    return samples;
}

/**
 * The stored size of each record of a run's journal (its JSON length, near what IndexedDB clones and
 * writes), read back from the page's own database after the run: the size a floor's write should have.
 */
export async function journalRecordSizes(runId: string): Promise<number[]> {
    const names = (await indexedDB.databases()).map((d) => d.name ?? '').filter((name) => name.startsWith('tavern-agent:'));
    const sizes: number[] = [];
    for (const name of names) {
        const db = await new Promise<IDBDatabase>((resolve, reject) => {
            const request = indexedDB.open(name);
            request.onsuccess = () => resolve(request.result);
            request.onerror = () => reject(request.error);
        });
        if (db.objectStoreNames.contains('events')) {
            const records = await new Promise<unknown[]>((resolve, reject) => {
                const request = db.transaction('events', 'readonly').objectStore('events').getAll(IDBKeyRange.bound([runId, 0], [runId, Number.MAX_SAFE_INTEGER]));
                request.onsuccess = () => resolve(request.result as unknown[]);
                request.onerror = () => reject(request.error);
            });
            for (const record of records) sizes.push(JSON.stringify(record).length);
        }
        db.close();
    }
    return sizes;
}
