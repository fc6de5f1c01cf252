import { IMPORTED_CHAT_KEY } from '../../contract/archive';
import { batch, computed, signal } from '@preact/signals';
import type { RunRecord } from '../../contract/records';
import type { JournalEvent } from '../../contract/events';
import type { RunOutcome } from '../../contract/run-input';
import { services } from '../services';
import { chatStatus } from '../state';
import { TimelineModel } from './timeline-model';

/**
 * The timeline's state. The model of the shown run is mutable and incremental (see TimelineModel); the
 * signals only say *that* it changed, so a burst of events costs one render of the rows in view.
 */

export type RunSource = 'live' | 'stored' | 'imported';

interface ViewedRun {
    model: TimelineModel;
    source: RunSource;
}


export const viewedRun = signal<ViewedRun | null>(null);
/** Bumped whenever the shown run's model changes. */
export const viewRevision = signal(0);
/**
 * The run going on in this page right now, if any. The host's run controller is the one source of truth:
 * src/index.ts mirrors it into chatStatus.run, and the timeline reads it from there.
 */
export const liveRunId = computed(() => chatStatus.value.run?.runId ?? null);
/** Rows the user opened, by row key (of the shown run). */
export const expandedRows = signal<ReadonlySet<string>>(new Set());
export const viewError = signal<string | null>(null);

/** What the run going on is doing, for the Send-button badge: its model turn and the call running now. */
export interface LiveProgress {
    runId: string;
    round: number;
    /** The tool running now (canonical name), or null between calls. */
    tool: string | null;
    /** The model is thinking (a turn sent, no answer yet). */
    waiting: boolean;
}

export const liveProgress = signal<LiveProgress | null>(null);

/** From the end of the rows: the newest model turn and a call still running (a few rows back at most). */
function progressOf(model: TimelineModel): LiveProgress {
    let round = 0;
    let tool: string | null = null;
    let waiting = false;
    for (let i = model.rows.length - 1; i >= 0; i--) {
        const row = model.rows[i]!;
        if (row.kind === 'tool' && row.status === 'running' && tool === null) tool = row.canonical ?? row.name;
        if (row.kind === 'model') {
            round = row.round;
            waiting = row.status === 'running';
            break;
        }
    }
    return { runId: model.runId, round, tool, waiting };
}

interface HistoryState {
    chatKey: string | null;
    runs: RunRecord[];
    imported: RunRecord[];
    loading: boolean;
    error: string | null;
}

export const history = signal<HistoryState>({ chatKey: null, runs: [], imported: [], loading: false, error: null });

let live: ViewedRun | null = null;
let historyChatKey: string | null | undefined;

/** Sets the live progress only when it changed, so the Send-button badge does not render again for each event. */
function setProgress(next: LiveProgress): void {
    const now = liveProgress.value;
    if (now && now.runId === next.runId && now.round === next.round && now.tool === next.tool && now.waiting === next.waiting) return;
    liveProgress.value = next;
}

function bump(): void {
    viewRevision.value += 1;
}

export function show(run: ViewedRun | null): void {
    batch(() => {
        viewedRun.value = run;
        expandedRows.value = new Set();
        viewError.value = null;
        bump();
    });
}

export function toggleRow(key: string): void {
    const next = new Set(expandedRows.value);
    if (!next.delete(key)) next.add(key);
    expandedRows.value = next;
}

export function latestLiveRun(): ViewedRun | null {
    return live;
}

// ── the live run, fed by live-feed.ts ──

export function startLive(runId: string, generationType: string, at: number): void {
    const model = new TimelineModel(runId);
    model.summary = { ...model.summary, state: 'preparing', generationType, startedAt: at };
    live = { model, source: 'live' };
    liveBackfill = null;
    liveProgress.value = progressOf(model);
    show(live);
}

/**
 * A live run joined part-way (a resumed run, or another tab's run seen here) starts with its stored
 * journal: later events wait for it, so rows stay in order.
 */
let liveBackfill: Promise<void> | null = null;

export function appendLive(events: readonly JournalEvent[]): void {
    if (!live || events.length === 0) return;
    const target = live;
    const first = events[0]!.seq;
    if (liveBackfill === null && target.model.summary.events === 0 && first > 0) {
        liveBackfill = services()
            .engine()
            .then((engine) => engine.readEvents(target.model.runId, 0))
            .then((stored) => {
                if (stored.ok) target.model.apply(stored.value.filter((event) => event.seq < first));
            })
            .catch(() => undefined);
    }
    if (liveBackfill !== null) {
        liveBackfill = liveBackfill.then(() => {
            target.model.apply(events);
            setProgress(progressOf(target.model));
            if (viewedRun.value === target) bump();
        });
        return;
    }
    target.model.apply(events);
    setProgress(progressOf(target.model));
    if (viewedRun.value === target) bump();
}

export function endLive(outcome: RunOutcome): void {
    if (liveBackfill !== null) {
        const pending = liveBackfill;
        liveBackfill = null;
        void pending.then(() => endLive(outcome));
        return;
    }
    if (live && live.model.runId === outcome.runId) {
        live.model.applyOutcome(outcome, Date.now());
        if (viewedRun.value === live) bump();
    }
    liveProgress.value = null;
    void refreshHistory();
}

// ── stored runs ──

async function loadModel(runId: string): Promise<TimelineModel> {
    const engine = await services().engine();
    const [record, events] = await Promise.all([engine.getRun(runId), engine.readEvents(runId, 0)]);
    if (!record.ok) throw new Error(`${record.error.message} (${record.error.code})`);
    if (!events.ok) throw new Error(`${events.error.message} (${events.error.code})`);
    const model = new TimelineModel(runId);
    model.apply(events.value);
    model.applyRecord(record.value);
    return model;
}

/** Shows a stored run (the live one when it is the run going on now). */
export async function openRun(runId: string): Promise<void> {
    if (live && live.model.runId === runId && (liveRunId.value === runId || viewedRun.value === live)) {
        show(live);
        return;
    }
    try {
        const model = await loadModel(runId);
        show({ model, source: model.summary.chatKey === IMPORTED_CHAT_KEY ? 'imported' : 'stored' });
    } catch (error) {
        viewError.value = error instanceof Error ? error.message : String(error);
    }
}

/** Reads the events the shown run got since it was loaded (after a restore, say). */
export async function refreshViewed(): Promise<void> {
    const viewed = viewedRun.value;
    // A run going on gets its events pushed; an ended one (live earlier, or stored) is read again.
    if (!viewed || liveRunId.value === viewed.model.runId) return;
    const engine = await services().engine();
    const events = await engine.readEvents(viewed.model.runId, viewed.model.summary.events === 0 ? 0 : viewed.model.nextSeq);
    if (events.ok && events.value.length > 0) {
        viewed.model.apply(events.value);
        if (viewedRun.value === viewed) bump();
    }
}

export function showLive(): void {
    if (live) show(live);
}

function openChatKey(): string | null {
    return services().chat.open()?.chatKey ?? null;
}

/**
 * Lists the open chat's runs and the imported ones. When the chat changed, the timeline moves to that
 * chat's latest run, unless it is showing a run still going on.
 */
export async function refreshHistory(): Promise<void> {
    const chatKey = openChatKey();
    history.value = { ...history.value, loading: true };
    try {
        const engine = await services().engine();
        const [runs, imported] = await Promise.all([chatKey ? engine.listRuns(chatKey) : null, engine.listRuns(IMPORTED_CHAT_KEY)]);
        if (openChatKey() !== chatKey) return; // the chat changed again meanwhile: that load wins
        const error = runs && !runs.ok ? runs.error.message : !imported.ok ? imported.error.message : null;
        const list = runs?.ok ? [...runs.value].sort((a, b) => b.createdAt - a.createdAt) : [];
        history.value = { chatKey, runs: list, imported: imported.ok ? [...imported.value].sort((a, b) => b.createdAt - a.createdAt) : [], loading: false, error };
        const chatChanged = historyChatKey !== chatKey;
        historyChatKey = chatKey;
        const viewed = viewedRun.value;
        const busy = viewed?.source === 'live' && liveRunId.value === viewed.model.runId;
        const belongs = viewed && (viewed.source === 'imported' || viewed.model.summary.chatKey === chatKey);
        if (chatChanged && !busy && !belongs) {
            const latest = list[0];
            if (latest) await openRun(latest.runId);
            else show(null);
        }
    } catch (error) {
        history.value = { ...history.value, loading: false, error: error instanceof Error ? error.message : String(error) };
    }
}

/** After a delete: the run leaves the history, and the timeline if it was shown. */
export function forgetRun(runId: string): void {
    const state = history.value;
    history.value = { ...state, runs: state.runs.filter((r) => r.runId !== runId), imported: state.imported.filter((r) => r.runId !== runId) };
    if (viewedRun.value?.model.runId === runId) show(null);
    if (live?.model.runId === runId && liveRunId.value !== runId) live = null;
}
