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

/** The latest run of the chat itself (the host's run, not a keeper beside it): "Back to the live run" and the Send badge follow it. */
let live: ViewedRun | null = null;
let historyChatKey: string | null | undefined;

/**
 * Every run the live feed reports in this page, by id: the chat's run and, beside it, keepers working after a
 * reply (issue 34), which may still run while the next turn's run starts. Each run's events go to its own
 * model. Ended runs stay a while, for events that arrive after their end.
 */
interface LiveEntry {
    view: ViewedRun;
    /** A run joined part-way waits for its stored journal: later events wait for it, so rows stay in order. */
    backfill: Promise<void> | null;
    /** Its record was read (for its phase and turn) once its first events came. */
    recordRead: boolean;
}

const liveEntries = new Map<string, LiveEntry>();
const LIVE_ENTRIES_KEPT = 8;

/** Runs of this page going on now (started and not ended), the chat's run and keepers alike. */
export const goingRuns = signal<ReadonlySet<string>>(new Set());

/** Whether a run is going on now in this page: the host's run of the chat, or one beside it. */
export function isRunGoing(runId: string): boolean {
    return liveRunId.value === runId || goingRuns.value.has(runId);
}

function setGoing(runId: string, going: boolean): void {
    if (goingRuns.value.has(runId) === going) return;
    const next = new Set(goingRuns.value);
    if (going) next.add(runId);
    else next.delete(runId);
    goingRuns.value = next;
}

/** Sets the live progress only when it changed, so the Send-button badge does not render again for each event. */
function setProgress(next: LiveProgress): void {
    const now = liveProgress.value;
    if (now && now.runId === next.runId && now.round === next.round && now.tool === next.tool && now.waiting === next.waiting) return;
    liveProgress.value = next;
}

function bump(): void {
    viewRevision.value += 1;
}

/** Counts what was asked to be shown: a stored run's load that lands after a later ask is dropped (see openRun). */
let showAsks = 0;

export function show(run: ViewedRun | null): void {
    showAsks += 1;
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

// ── live runs, fed by live-feed.ts ──

/**
 * A run starts. The chat's own run (the host reports it as the chat's run: before, reply, a script's run)
 * takes the view as it always did; a run beside it (a keeper after a reply) takes it only when the view shows
 * nothing still going and nothing the user opened, so it never hides the run the user watches.
 */
export function startLive(runId: string, generationType: string, at: number): void {
    const model = new TimelineModel(runId);
    model.summary = { ...model.summary, state: 'preparing', generationType, startedAt: at };
    const view: ViewedRun = { model, source: 'live' };
    liveEntries.delete(runId);
    liveEntries.set(runId, { view, backfill: null, recordRead: false });
    for (const [id] of liveEntries) {
        if (liveEntries.size <= LIVE_ENTRIES_KEPT) break;
        if (!goingRuns.value.has(id)) liveEntries.delete(id);
    }
    const chatsRun = liveRunId.value === runId;
    const viewed = viewedRun.value;
    setGoing(runId, true);
    if (chatsRun) {
        live = view;
        liveProgress.value = progressOf(model);
        show(view);
    } else if (viewed === null || (viewed.source === 'live' && !isRunGoing(viewed.model.runId))) {
        show(view);
    }
}

/** Splits a batch by run (a frame's batch may hold several runs' events), keeping each run's order. */
function byRun(events: readonly JournalEvent[]): Map<string, JournalEvent[]> {
    const runs = new Map<string, JournalEvent[]>();
    for (const event of events) {
        const list = runs.get(event.runId);
        if (list) list.push(event);
        else runs.set(event.runId, [event]);
    }
    return runs;
}

export function appendLive(events: readonly JournalEvent[]): void {
    if (events.length === 0) return;
    for (const [runId, batch] of byRun(events)) {
        const entry = liveEntries.get(runId);
        // A run the feed never started (nothing to show it in) is left to History.
        if (entry) appendTo(entry, batch);
    }
}

function appendTo(entry: LiveEntry, events: readonly JournalEvent[]): void {
    const target = entry.view;
    const first = events[0]!.seq;
    if (!entry.recordRead) {
        entry.recordRead = true;
        void listIfInTurn(target.model.runId);
    }
    if (entry.backfill === null && target.model.summary.events === 0 && first > 0) {
        entry.backfill = services()
            .engine()
            .then((engine) => engine.readEvents(target.model.runId, 0))
            .then((stored) => {
                if (stored.ok) target.model.apply(stored.value.filter((event) => event.seq < first));
            })
            .catch(() => undefined);
    }
    const apply = () => {
        target.model.apply(events);
        if (target === live) setProgress(progressOf(target.model));
        if (viewedRun.value === target) bump();
    };
    if (entry.backfill !== null) entry.backfill = entry.backfill.then(apply);
    else apply();
}

/**
 * A run of a turn around the reply (a director, a keeper, or the reply between them) is listed in History as
 * soon as it exists, so its turn shows it while it runs; any other run is listed when it ends, as always.
 */
async function listIfInTurn(runId: string): Promise<void> {
    try {
        const record = await (await services().engine()).getRun(runId);
        if (!record.ok) return;
        const { phase, turnId } = record.value;
        const turnAround = phase === 'before' || phase === 'after' || (turnId !== undefined && history.value.runs.some((run) => run.turnId === turnId && run.phase !== undefined && run.phase !== 'reply'));
        if (turnAround) await refreshHistory();
    } catch {
        // History lists it at its end.
    }
}

export function endLive(outcome: RunOutcome): void {
    const entry = liveEntries.get(outcome.runId);
    if (entry?.backfill) {
        const pending = entry.backfill;
        entry.backfill = null;
        void pending.then(() => endLive(outcome));
        return;
    }
    if (entry) {
        entry.view.model.applyOutcome(outcome, Date.now());
        if (viewedRun.value === entry.view) bump();
    }
    setGoing(outcome.runId, false);
    if (liveProgress.value?.runId === outcome.runId || live?.model.runId === outcome.runId) liveProgress.value = null;
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

/** Shows a stored run (the live one when it is going on now). */
export async function openRun(runId: string): Promise<void> {
    const entry = liveEntries.get(runId);
    if (entry && (isRunGoing(runId) || viewedRun.value === entry.view)) {
        show(entry.view);
        return;
    }
    // Loads answer in any order: a run clicked before another, or before the chat changed (the new chat's latest
    // run opened, or a live run shown), must not replace what was shown after it.
    const asked = (showAsks += 1);
    try {
        const model = await loadModel(runId);
        if (asked === showAsks) show({ model, source: model.summary.chatKey === IMPORTED_CHAT_KEY ? 'imported' : 'stored' });
    } catch (error) {
        if (asked === showAsks) viewError.value = error instanceof Error ? error.message : String(error);
    }
}

/** Reads the events the shown run got since it was loaded (after a restore, say). */
export async function refreshViewed(): Promise<void> {
    const viewed = viewedRun.value;
    // A run going on gets its events pushed; an ended one (live earlier, or stored) is read again.
    if (!viewed || isRunGoing(viewed.model.runId)) return;
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
    // Another chat's runs are not listed under this one while its own load (nor after it fails).
    history.value = history.value.chatKey === chatKey ? { ...history.value, loading: true } : { ...history.value, chatKey, runs: [], loading: true, error: null };
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
        const busy = viewed?.source === 'live' && isRunGoing(viewed.model.runId);
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
    if (isRunGoing(runId)) return;
    liveEntries.delete(runId);
    if (live?.model.runId === runId) live = null;
}
