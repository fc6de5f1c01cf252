// The worker side of the worker figures (3, 4, 5), bundled by bench/lib/worker-page.ts and run as a module
// Worker in headless Chromium. It exposes the real engine (the same createEngine the extension's worker
// exposes) plus the pieces the other figures drive directly.
import '../../src/contract/zod-setup';
import { expose } from 'comlink';
import { createEngine } from '../../src/engine/engine';
import { Journal } from '../../src/engine/journal/journal';
import { openTavernAgentDb } from '../../src/store/db';
import { createIdbRunStorage } from '../../src/store/idb-run-storage';
import { groupRecord } from '../../src/store/event-groups';
import { chatSearchTool } from '../../src/tools/chat/search';
import type { ToolContext, ToolOutcome } from '../../src/tools/tool';
import { rebuildCheckpoint } from '../../src/workspace/checkpoints';
import { DEFAULT_ROOT_POLICY } from '../../src/workspace/roots';
import { Workspace } from '../../src/workspace/workspace';
import type { PrefixMessage, RunInput } from '../../src/contract/run-input';
import type { HostBridge } from '../../src/contract/wire';
import { runAgent } from '../../src/engine/run/run-lifecycle';
import { createMemoryRunStorage, type EventWrite, type RunStorage } from '../../src/store/run-storage';
import { ALL_TOOLS } from '../../src/tools/registry';
import { prng, prose } from './text';
import { subagentHost, type SubagentScript } from './subagent-host';
import { zipSync } from 'fflate';
import { BUILT_IN_PROFILES, WRITER_PROFILE } from '../../src/contract/profile';
import { skillFileReader } from '../../src/engine/api/skills-api';
import { parseSkillSources } from '../../src/skills/parse-sources';
import { createMemorySkillCache } from '../../src/store/skill-cache';
import { skillSearchTool } from '../../src/tools/skill/search';
import { cutAndResume, referenceRun } from '../../tests/fixtures/reliability';
import { SCRIPT_LIMITS, type SkillScriptRequest } from '../../src/contract/scripts';
import { workerSandboxPool } from '../../src/engine/scripts/sandbox-pool';
import { compactionRun } from './long-run-bench';

function utf8Bytes(text: string | null): number {
    return text === null ? 0 : new TextEncoder().encode(text).length;
}

function medianOf(values: number[]): number {
    const s = [...values].sort((a, b) => a - b);
    const m = s.length >> 1;
    return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** One bare readwrite transaction: put one small record, wait for complete. Raw IndexedDB, no wrapper. */
/**
 * `count` bare readwrite transactions one after another: each one's time, and the whole sequence's wall time
 * (a worker's clock ticks in 0.1 ms, so one transaction's time is quantized; the sequence's mean is not).
 */
async function bareTransactions(count: number): Promise<{ samples: number[]; wallMs: number }> {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open(`bench-bare-${crypto.randomUUID()}`, 1);
        request.onupgradeneeded = () => request.result.createObjectStore('records', { keyPath: 'id' });
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
    });
    const samples: number[] = [];
    const first = performance.now();
    for (let i = 0; i < count; i += 1) {
        const started = performance.now();
        await new Promise<void>((resolve, reject) => {
            const tx = db.transaction('records', 'readwrite');
            tx.objectStore('records').put({ id: i, at: Date.now(), type: 'bench', payload: { i } });
            tx.oncomplete = () => resolve();
            tx.onerror = () => reject(tx.error);
        });
        samples.push(performance.now() - started);
    }
    const wallMs = performance.now() - first;
    db.close();
    return { samples, wallMs };
}

/** The write batch of one read-only tool round, as the engine last wrote it (kept by inWorkerRun). */
let roundBatch: EventWrite[] | null = null;

function rawTx(db: IDBDatabase, stores: string[], queue: (tx: IDBTransaction) => void): Promise<void> {
    return new Promise<void>((resolve, reject) => {
        const tx = db.transaction(stores, 'readwrite');
        queue(tx);
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error);
    });
}

/**
 * The floors of a round's write, interleaved in one worker: one raw readwrite transaction over 1, 2 and 3
 * stores (one small put in each); the exact records of one read-only round (4 events, 3 small hidden files)
 * in raw IndexedDB as the journal stores them (one group record, with the events store's indexes) and as it
 * stored them before database version 4 (4 event records and 3 file records); and through our storage layer.
 */
async function transactionFloors(count: number) {
    if (!roundBatch) throw new Error('run inWorkerRun with rounds first: no round batch was captured');
    const batch = roundBatch;
    const small = (i: number) => ({ runId: 'floor', seq: i, path: `p-${i}`, at: Date.now(), type: 'bench', payload: { i } });
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open(`bench-floors-${crypto.randomUUID()}`, 1);
        request.onupgradeneeded = () => {
            const raw = request.result;
            raw.createObjectStore('events', { keyPath: ['runId', 'seq'] });
            raw.createObjectStore('files', { keyPath: ['runId', 'path'] });
            raw.createObjectStore('checkpoints', { keyPath: ['runId', 'seq'] });
            // The events store as db.ts makes it (version 5), for the group record.
            raw.createObjectStore('groups', { keyPath: ['runId', 'seq'] }).createIndex('byFile', 'fileKeys', { multiEntry: true });
        };
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
    });
    const tavern = await openTavernAgentDb(`bench-floors-tavern-${crypto.randomUUID()}`);
    const storage = createIdbRunStorage(tavern);
    const samples = { oneStore: [] as number[], twoStores: [] as number[], threeStores: [] as number[], roundRaw: [] as number[], roundSplit: [] as number[], roundStorage: [] as number[] };
    const time = async (into: number[], work: () => Promise<void>) => {
        const started = performance.now();
        await work();
        into.push(performance.now() - started);
    };
    let seq = 0;
    // The round's events renumbered (and moved to run "floor"), so each write adds new keys as the journal does.
    const renumbered = (): EventWrite[] =>
        batch.map((w) => ({
            event: { ...w.event, runId: 'floor', seq: (seq += 1) },
            ...(w.attachments ? { attachments: { ...w.attachments, files: w.attachments.files?.map((f) => ({ ...f, runId: 'floor' })) } } : {}),
        }));
    for (let i = 0; i < count; i += 1) {
        await time(samples.oneStore, () => rawTx(db, ['events'], (tx) => tx.objectStore('events').add(small((seq += 1)))));
        await time(samples.twoStores, () => rawTx(db, ['events', 'files'], (tx) => {
            tx.objectStore('events').add(small((seq += 1)));
            tx.objectStore('files').put(small(seq));
        }));
        await time(samples.threeStores, () => rawTx(db, ['events', 'files', 'checkpoints'], (tx) => {
            tx.objectStore('events').add(small((seq += 1)));
            tx.objectStore('files').put(small(seq));
            tx.objectStore('checkpoints').put(small(seq));
        }));
        const grouped = groupRecord(renumbered());
        if (grouped.files.length > 0) throw new Error('a read-only round stored a file outside its group');
        await time(samples.roundRaw, () => rawTx(db, ['groups'], (tx) => tx.objectStore('groups').add(grouped.record)));
        const split = renumbered();
        await time(samples.roundSplit, () => rawTx(db, ['events', 'files'], (tx) => {
            for (const w of split) tx.objectStore('events').add(w.event);
            for (const w of split) for (const file of w.attachments?.files ?? []) tx.objectStore('files').put(file);
        }));
        const ours = renumbered();
        await time(samples.roundStorage, () => storage.appendEvents(ours));
    }
    db.close();
    tavern.close();
    return {
        samples,
        round: {
            events: batch.map((w) => w.event.type),
            files: batch.flatMap((w) => (w.attachments?.files ?? []).map((f) => ({ path: f.path, chars: f.content.length }))),
        },
    };
}

/**
 * Worker → page → worker round trips, interleaved: a bare postMessage echoed on a MessagePort (the floor
 * of any request to the page), and a comlink call on a proxy with a small payload (how the host is called).
 */
async function roundTrips(port: MessagePort, echo: { echo(value: unknown): Promise<unknown> }, count: number, payload: unknown) {
    const samples = { bare: [] as number[], comlink: [] as number[] };
    const next = () => new Promise<unknown>((resolve) => (port.onmessage = (event) => resolve(event.data)));
    for (let i = 0; i < count; i += 1) {
        let started = performance.now();
        const reply = next();
        port.postMessage(payload);
        await reply;
        samples.bare.push(performance.now() - started);
        started = performance.now();
        await echo.echo(payload);
        samples.comlink.push(performance.now() - started);
    }
    port.close();
    return samples;
}

/**
 * 200 patches to a 50 KB file through the real Workspace (journal + checkpoints on IndexedDB), then the
 * stored checkpoint bytes beside one full copy per checkpoint, and rebuild times read back from storage.
 */
async function checkpoints(opts: { fileChars: number; patches: number; rebuildRepeats: number }) {
    const db = await openTavernAgentDb(`bench-checkpoints-${crypto.randomUUID()}`);
    const storage = createIdbRunStorage(db);
    const runId = 'bench-checkpoints';
    const journal = new Journal(runId, storage, () => undefined);
    const workspace = new Workspace(runId, DEFAULT_ROOT_POLICY, storage, journal);
    const random = prng(42);
    const path = 'output/main.md';
    let text = prose(random, opts.fileChars);
    const versions: string[] = [text];
    await workspace.write(path, text, 'replace');
    const patchStarted = performance.now();
    for (let i = 0; i < opts.patches; i += 1) {
        // A small edit somewhere in the file: replace one sentence-sized span with new words.
        const at = Math.floor(random() * (text.length - 120));
        const replaced = text.slice(at, at + 40 + Math.floor(random() * 60));
        const written = prose(random, replaced.length + Math.floor(random() * 20) - 10);
        text = text.slice(0, at) + written + text.slice(at + replaced.length);
        versions.push(text);
        await workspace.patch(path, text, [{ offset: at, oldLength: replaced.length, newLength: written.length }]);
    }
    const patchMs = performance.now() - patchStarted;
    const stored = await storage.listCheckpoints(runId, path);
    stored.sort((a, b) => a.seq - b.seq);
    const storedBytes = stored.reduce((sum, c) => sum + utf8Bytes(c.delta) + utf8Bytes(c.full), 0);
    const fullCopyBytes = versions.reduce((sum, v) => sum + utf8Bytes(v), 0);
    const fullCopies = stored.filter((c) => c.full !== null).length;

    // Rebuild = what the timeline does: read the path's checkpoints from IndexedDB, then rebuild one.
    async function timeRebuild(seq: number, expected: string): Promise<number[]> {
        const samples: number[] = [];
        for (let i = 0; i < opts.rebuildRepeats; i += 1) {
            const started = performance.now();
            const chain = await storage.listCheckpoints(runId, path);
            const rebuilt = rebuildCheckpoint(chain, seq);
            samples.push(performance.now() - started);
            if (rebuilt !== expected) throw new Error(`checkpoint ${seq} rebuilt wrong`);
        }
        return samples;
    }
    const oldest = stored[0]!;
    // The longest delta chain: the checkpoint just before the next full copy.
    let worstIndex = 0;
    let chain = 0;
    let longest = -1;
    stored.forEach((c, index) => {
        chain = c.full !== null ? 0 : chain + 1;
        if (chain > longest) {
            longest = chain;
            worstIndex = index;
        }
    });
    const oldestSamples = await timeRebuild(oldest.seq, versions[0]!);
    const worstSamples = await timeRebuild(stored[worstIndex]!.seq, versions[worstIndex]!);
    db.close();
    return {
        fileBytes: utf8Bytes(versions[0]!),
        checkpoints: stored.length,
        fullCopies,
        storedBytes,
        fullCopyBytes,
        patchMs,
        oldestRebuildMs: medianOf(oldestSamples),
        oldestSamples,
        worstChainLength: longest,
        worstRebuildMs: medianOf(worstSamples),
        worstSamples,
    };
}

/**
 * Each query `repeats` times: the tool, then each baseline, interleaved so a slow moment of the shared
 * machine hits them all alike. The tool's hit count is kept from its details.
 */
async function timeQueries<B extends string>(
    queries: readonly string[],
    repeats: number,
    tool: (query: string) => Promise<ToolOutcome>,
    baselines: Record<B, (query: string) => unknown>,
): Promise<Array<{ query: string; tool: number[]; hits: unknown; baselines: Record<B, number[]> }>> {
    const names = Object.keys(baselines) as B[];
    const perQuery = [];
    for (const query of queries) {
        const entry = { query, tool: [] as number[], hits: null as unknown, baselines: Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<B, number[]> };
        for (let i = 0; i < repeats; i += 1) {
            let started = performance.now();
            const outcome = await tool(query);
            entry.tool.push(performance.now() - started);
            if (outcome.ok) entry.hits = outcome.result.details?.hits;
            for (const name of names) {
                started = performance.now();
                baselines[name](query);
                entry.baselines[name].push(performance.now() - started);
            }
        }
        perQuery.push(entry);
    }
    return perQuery;
}

/** A 10,000-message chat of about 10 MB, built in the worker (as the run's frozen prefix would be). */
function buildPrefix(messages: number, charsPerMessage: number): PrefixMessage[] {
    const random = prng(7);
    const prefix: PrefixMessage[] = [];
    for (let index = 0; index < messages; index += 1) {
        const user = index % 2 === 1;
        let text = prose(random, charsPerMessage);
        // A few rare words, so some queries have few hits.
        if (index % 997 === 0) text = `${text.slice(0, 200)} the obsidian xylophone ${text.slice(200)}`;
        prefix.push({ index, role: user ? 'user' : 'assistant', name: user ? 'Tester' : 'Seraphina', text, hidden: false, agentRunId: null });
    }
    return prefix;
}

async function chatSearch(opts: { messages: number; charsPerMessage: number; queries: string[]; repeats: number }) {
    const prefix = buildPrefix(opts.messages, opts.charsPerMessage);
    const totalChars = prefix.reduce((sum, m) => sum + m.text.length, 0);
    // The tool reads the profile's hidden-message setting (issue 13's privacy default) besides the prefix.
    const context = { input: { prefix, profile: WRITER_PROFILE } as unknown as RunInput } as ToolContext;
    const run = (query: string) => chatSearchTool.execute({ query, limit: 20 } as never, context);

    // The first search of a run lowercases the messages it scans (once per snapshot).
    const coldStarted = performance.now();
    const cold = await run(opts.queries[0]!);
    const coldMs = performance.now() - coldStarted;
    if (!cold.ok) throw new Error('chat.search failed');

    // Baselines: a plain scan, lowercasing every message on each search (what a naive tool does), and
    // the tightest possible one: indexOf over text lowercased once in advance.
    const lowered = prefix.map((m) => m.text.toLowerCase());
    const naive = (query: string) => {
        const q = query.toLowerCase();
        const hits: number[] = [];
        for (let i = 0; i < prefix.length; i += 1) if (prefix[i]!.text.toLowerCase().indexOf(q) !== -1) hits.push(i);
        return hits.length;
    };
    const preLowered = (query: string) => {
        const q = query.toLowerCase();
        const hits: number[] = [];
        for (let i = 0; i < lowered.length; i += 1) if (lowered[i]!.indexOf(q) !== -1) hits.push(i);
        return hits.length;
    };

    const timed = await timeQueries(opts.queries, opts.repeats, run, { naive, preLowered });
    const perQuery = timed.map(({ baselines, ...q }) => ({ ...q, naive: baselines.naive, preLowered: baselines.preLowered }));
    return { messages: prefix.length, totalChars, coldMs, perQuery };
}

/**
 * The same run as the page's timedRun, with the host inside the worker (no comlink) and the storage either
 * IndexedDB or memory: the differences split the loop's time into CPU, IndexedDB and worker↔page traffic.
 */
async function inWorkerRun(input: RunInput, replies: unknown[], storageKind: 'idb' | 'memory'): Promise<{ ms: number; storageCalls: number; storageMs: number }> {
    let inner: RunStorage;
    let close = () => undefined as void;
    if (storageKind === 'idb') {
        const db = await openTavernAgentDb(`bench-inworker-${crypto.randomUUID()}`);
        inner = createIdbRunStorage(db);
        close = () => db.close();
    } else {
        inner = createMemoryRunStorage();
    }
    // Every storage call is one IndexedDB transaction: count them.
    let storageCalls = 0;
    // Time spent with a storage call in flight (they never overlap in a run: the journal writes one at a time).
    let storageMs = 0;
    const storage = new Proxy(inner, {
        get(target, key, receiver) {
            const value = Reflect.get(target, key, receiver);
            if (typeof value !== 'function') return value;
            return (...args: unknown[]) => {
                storageCalls += 1;
                // Keep one read-only round's batch (its call start, result and the next request) for the floors.
                if (key === 'appendEvents' && storageKind === 'idb') {
                    const writes = args[0] as EventWrite[];
                    const types = writes.map((w) => w.event.type);
                    if (types.includes('tool-call-start') && types.includes('model-request') && writes.some((w) => (w.event.payload as { name?: string }).name === 'workspace_list_files')) roundBatch = structuredClone(writes);
                }
                const started = performance.now();
                const result = value.apply(target, args);
                if (result instanceof Promise) void result.finally(() => (storageMs += performance.now() - started));
                return result;
            };
        },
    });
    const host = instantHost(replies);
    const started = performance.now();
    const outcome = await runAgent(input, { storage, host, tools: ALL_TOOLS, sink: () => undefined, signal: new AbortController().signal });
    const elapsed = performance.now() - started;
    close();
    if (outcome.state !== 'completed') throw new Error(`in-worker run ${outcome.state}: ${outcome.error?.message}`);
    return { ms: elapsed, storageCalls, storageMs };
}

/**
 * One run of the real loop on IndexedDB whose parent delegates by `script` and whose children answer after
 * `childDelayMs` (the host lives in the worker: only the engine's own time and the model's delay count).
 */
async function subagentRun(input: RunInput, script: SubagentScript, childDelayMs: number): Promise<{ ms: number; state: string; childRequests: number; error: string | null }> {
    const db = await openTavernAgentDb(`bench-subagents-${crypto.randomUUID()}`);
    const host = subagentHost(script, childDelayMs);
    const started = performance.now();
    const outcome = await runAgent(input, { storage: createIdbRunStorage(db), host, tools: ALL_TOOLS, sink: () => undefined, signal: new AbortController().signal, profiles: BUILT_IN_PROFILES });
    const ms = performance.now() - started;
    db.close();
    return { ms, state: outcome.state, childRequests: host.childRequests, error: outcome.error?.message ?? null };
}

/** About `chars` characters of prose in lines of about 100 characters, as a reference file would be. */
function proseLines(random: () => number, chars: number): string {
    const lines: string[] = [];
    let length = 0;
    while (length < chars) {
        const line = prose(random, 60 + Math.floor(random() * 80));
        lines.push(line);
        length += line.length + 1;
    }
    return lines.join('\n');
}

/**
 * skill.search (the real tool, its run memo of lowercased text included) over one skill holding about
 * `chars` characters, beside a scan that lowercases the same text and finds every indexOf of the query.
 */
async function skillSearch(opts: { chars: number; files: number; queries: string[]; repeats: number }) {
    const random = prng(11);
    const encoder = new TextEncoder();
    const sources = [{ name: 'big-lore/SKILL.md', bytes: encoder.encode('---\nname: big-lore\ndescription: A large reference.\n---\nRead references/.\n').buffer as ArrayBuffer }];
    const texts: string[] = [];
    for (let i = 0; i < opts.files; i += 1) {
        let text = proseLines(random, Math.floor(opts.chars / opts.files));
        if (i % 3 === 0) text = `${text.slice(0, 500)}\nthe obsidian xylophone\n${text.slice(500)}`;
        texts.push(text);
        sources.push({ name: `big-lore/references/part-${i}.md`, bytes: encoder.encode(text).buffer as ArrayBuffer });
    }
    const [parsed] = await parseSkillSources(sources);
    const bundle = parsed!.bundle!;
    const cache = createMemorySkillCache();
    await cache.put([bundle]);
    const profile = { ...WRITER_PROFILE, skills: { ...WRITER_PROFILE.skills, maxReadCharsPerCall: 80_000, maxReadCharsPerRun: 1_000_000 } };
    const skills = { readFile: skillFileReader(cache), charsRead: 0 };
    const context = {
        input: { profile, skills: [{ name: bundle.name, description: bundle.description, scope: 'global', hash: bundle.hash, files: bundle.files.map((f) => ({ path: f.path, bytes: f.bytes })) }], hiddenSkills: [] },
        skills,
    } as unknown as ToolContext;
    const run = (query: string) => {
        skills.charsRead = 0;
        return skillSearchTool.execute({ name: 'big-lore', query, path: '', limit: 20, context_lines: 2 } as never, context);
    };
    const coldStarted = performance.now();
    const cold = await run(opts.queries[0]!);
    const coldMs = performance.now() - coldStarted;
    if (!cold.ok) throw new Error(`skill.search failed: ${cold.error.message}`);

    const naive = (query: string) => {
        const q = query.toLowerCase();
        let hits = 0;
        for (const text of texts) {
            const lowered = text.toLowerCase();
            for (let at = lowered.indexOf(q); at !== -1; at = lowered.indexOf(q, at + 1)) hits += 1;
        }
        return hits;
    };
    const timed = await timeQueries(opts.queries, opts.repeats, run, { naive });
    const perQuery = timed.map(({ baselines, ...q }) => ({ ...q, naive: baselines.naive }));
    return { totalChars: texts.reduce((sum, t) => sum + t.length, 0), coldMs, perQuery };
}

/** A zip of one skill with `files` files (SKILL.md and references), as a user would import. */
function skillZip(opts: { files: number; charsPerFile: number }): Uint8Array {
    const random = prng(5);
    const encoder = new TextEncoder();
    const entries: Record<string, Uint8Array> = { 'many-files/SKILL.md': encoder.encode('---\nname: many-files\ndescription: A skill of many small references.\n---\nSee references/.\n') };
    for (let i = 1; i < opts.files; i += 1) entries[`many-files/references/${String(i).padStart(4, '0')}.md`] = encoder.encode(proseLines(random, opts.charsPerFile));
    return zipSync(entries);
}

/**
 * The reliability scenario on IndexedDB in this worker: an uncut run (its length, and how long it takes to
 * its first model request), or one cut after `cutAfter` events and resumed (how long the next page takes to
 * its first model request, and to the end).
 */
async function resumeTiming(cutAfter: number | null) {
    const db = await openTavernAgentDb(`bench-resume-${crypto.randomUUID()}`);
    const storage = createIdbRunStorage(db);
    try {
        if (cutAfter === null) {
            const started = performance.now();
            let firstRequestMs: number | null = null;
            const reference = await referenceRun(storage, () => void (firstRequestMs ??= performance.now() - started));
            return { events: reference.events.length, ending: reference.outcome.state, toRequestMs: firstRequestMs, totalMs: performance.now() - started };
        }
        const cut = await cutAndResume(storage, cutAfter);
        return { events: cut.events.length, ending: cut.ending, toRequestMs: cut.resumeToRequestMs, totalMs: cut.resumeMs };
    } finally {
        db.close();
    }
}

/** A host inside the worker answering from replies built before the run: model and SillyTavern cost nothing. */
function instantHost(replies: unknown[]): HostBridge {
    return {
        async requestModel(request) {
            return { ok: true, raw: replies[request.round - 1], durationMs: 0 };
        },
        async commit() {
            return { ok: true, value: { messageId: 2 } };
        },
        onEvents() {},
    };
}

const engine = createEngine();

/**
 * The sandbox's first script (start its worker, load and instantiate QuickJS, run) and `warm` more through
 * the same pool: each a script that does nothing, so its time is the sandbox's own.
 */
async function scriptStarts(warm: number): Promise<{ coldMs: number; warmMs: number[] }> {
    const pool = workerSandboxPool();
    const request: SkillScriptRequest = {
        kind: 'skill',
        modules: { 'scripts/noop.js': 'export default () => null;' },
        entry: 'scripts/noop.js',
        args: {},
        workspace: { files: { 'scratch/a.md': 'a' }, visible: ['scratch'], writable: ['scratch'] },
        context: { worldInfo: { entries: [] }, variables: { local: {}, global: {} } },
        limits: SCRIPT_LIMITS,
    };
    const once = async () => {
        const started = performance.now();
        const result = await pool.run(request, async () => ({ ok: false, code: 'tool.not_allowed', message: '' }), new AbortController().signal);
        if (!result.ok) throw new Error(`the script failed: ${result.message}`);
        return performance.now() - started;
    };
    const coldMs = await once();
    const warmMs: number[] = [];
    for (let i = 0; i < warm; i += 1) warmMs.push(await once());
    return { coldMs, warmMs };
}

/**
 * The same tally two ways over a 2,000-message chat, for the page to run each as a whole run (page.ts
 * tallyTwoWays): one script_run calling chat_search `searches` times, and `searches` model rounds of one
 * chat_search each, then the reply. The input's profile lets both run to their end.
 */
function tallyScripts(searches: number): { input: RunInput; program: unknown[]; rounds: unknown[] } {
    const words = ['obsidian', 'river', 'lantern', 'stone', 'night'];
    const reply = (round: number, calls: Array<{ name: string; args: unknown }>) => ({
        choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: calls.map((call, i) => ({ id: `c${round}_${i}`, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.args) } })) }, finish_reason: 'tool_calls' }],
        usage: { prompt_tokens: 100, completion_tokens: 10 },
    });
    const finish = (round: number) => reply(round, [{ name: 'workspace_write_file', args: { path: 'output/main.md', content: 'Counted.' } }, { name: 'workspace_commit', args: {} }, { name: 'workspace_finish', args: {} }]);
    const code = `const tally = {}; for (let i = 0; i < ${searches}; i++) { const word = args.words[i % args.words.length]; const text = await tools.chat_search({ query: word, limit: 50 }); tally[word] = (text.match(/ref chat:current#/g) || []).length; } return tally;`;
    return {
        input: { ...tallyInput('tally'), prefix: buildPrefix(2_000, 300) },
        program: [reply(1, [{ name: 'script_run', args: { code, args: { words } } }]), finish(2)],
        rounds: [...Array.from({ length: searches }, (_, i) => reply(i + 1, [{ name: 'chat_search', args: { query: words[i % words.length], limit: 50 } }])), finish(searches + 1)],
    };
}

function tallyInput(runId: string): RunInput {
    return {
        runId,
        generationType: 'normal',
        chat: { chatId: 'bench', integrity: `bench-${runId}`, characterId: '0', groupId: null, characterName: 'Seraphina', userName: 'Tester' },
        prefix: [],
        prompt: [{ role: 'system', content: 'You are Seraphina.' }, { role: 'user', content: 'How often did we mention each thing?' }],
        worldInfo: { captured: true, entries: [] },
        profile: { ...WRITER_PROFILE, tools: { ...WRITER_PROFILE.tools, maxRounds: 500, maxCallsPerRun: 2000 } },
        source: 'custom',
        retry: { maxRetries: 0, baseDelayMs: 0 },
        skills: [],
        hiddenSkills: [],
    };
}

/**
 * The page's timedRun with the host inside the worker: the same engine (opened by the page, so the same
 * database, live channel, lease and retention), only no comlink. Beside timedRun it shows what crossing to
 * the page costs; beside inWorkerRun what the engine's wrapper adds.
 */
async function engineLocalRun(input: RunInput, replies: unknown[]): Promise<{ ms: number; state: string }> {
    const host = instantHost(replies);
    const prepared = await engine.prepareRun(input.runId, input.profile.id, { [input.profile.id]: input.profile });
    if (!prepared.ok) throw new Error(prepared.error.message);
    const started = performance.now();
    const outcome = await engine.startRun(input, host);
    const ms = performance.now() - started;
    if (!outcome.ok) throw new Error(outcome.error.message);
    return { ms, state: outcome.value.state };
}

export const workerBench = {
    ...engine,
    bareTransactions,
    transactionFloors,
    roundTrips,
    engineLocalRun,
    inWorkerRun,
    checkpoints,
    chatSearch,
    subagentRun,
    resumeTiming,
    skillSearch,
    skillZip,
    scriptStarts,
    tallyScripts,
    compactionRun,
};

export type WorkerBench = typeof workerBench;

expose(workerBench);
