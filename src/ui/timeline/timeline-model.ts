import type { EventPayloads } from '../../contract/events';
import type { RunRecord } from '../../contract/records';
import type { JournalEvent } from '../../contract/events';
import { innerCallRow } from './program-call-rows';
import { END_STATES, type FileChange, type ModelRow, type NoteTone, type RunSummary, type TaskInfo, type TaskState, type TimelineRow, type ToolRow, type NoteRow } from './rows';

type Payload<T extends keyof EventPayloads> = EventPayloads[T];

/** Events that only feed the header (or a row already shown); they get no row of their own. */
const HEADER_ONLY = new Set(['run-create', 'run-state', 'checkpoint', 'skills-resolve', 'plan-update']);

const NOTE_TONES: Record<string, NoteTone> = {
    'model-retry': 'error',
    'model-reminder': 'error',
    'budget-wrap-up': 'error',
    'run-fail': 'error',
    'run-cancel': 'error',
    'run-finish': 'ok',
    'persist-promote': 'ok',
    'memory-attach': 'ok',
    'checkpoint-restore': 'ok',
    'task-inject': 'info',
    'run-resume': 'info',
    'state-change': 'info',
    'state-write': 'ok',
    'run-continue': 'info',
    'conversation-compact': 'info',
};

export function emptySummary(runId: string): RunSummary {
    return {
        runId,
        state: 'created',
        generationType: '',
        profileId: '',
        chatKey: null,
        chatId: null,
        foreground: true,
        startedAt: null,
        lastAt: null,
        endedAt: null,
        tokensIn: 0,
        tokensOut: 0,
        cost: null,
        rounds: 0,
        calls: 0,
        failedCalls: 0,
        messageId: null,
        error: null,
        outputPaths: [],
        events: 0,
        tasks: { running: 0, completed: 0, failed: 0, cancelled: 0 },
        skills: null,
        plan: null,
        wrappedUp: false,
        roundBudget: null,
    };
}

/**
 * The timeline of one run, built incrementally from its journal: `apply` costs O(events applied), never
 * O(run length), so a live run stays cheap however long it gets. Rows are appended or replaced in place
 * (by index), never re-derived from the whole journal.
 *
 * Sub-agent tasks: an event whose payload carries `parentCallId` (the id of the call that started the task,
 * e.g. `agent.delegate`) goes into a nested timeline under that call, shown inside the call's row. One
 * delegate call starts one task, so a nested timeline is one task: its `task` comes from task-start and
 * task-end, and its tokens and calls count into this run's totals.
 */
export class TimelineModel {
    readonly rows: TimelineRow[] = [];
    summary: RunSummary;
    /** In a nested timeline: the task it shows (null before its task-start, and in a run's own timeline). */
    task: TaskInfo | null = null;
    private readonly positions = new Map<string, number>();
    private readonly callKeys = new Map<string, string>();
    private readonly nested = new Map<string, TimelineModel>();
    private readonly lastSeq = new Map<string, number>();
    /** The row of each queued guidance note, so its delivery updates that row (queued → delivered). */
    private readonly guidanceKeys = new Map<string, string>();
    private currentCall: string | null = null;
    private currentModel: string | null = null;
    private lastChange: { key: string; path: string; version: number } | null = null;
    /** Lore events (lore-propose, lore-decide) applied, nested ones included: the lore list reads the journal only when this changes. */
    loreEvents = 0;

    constructor(readonly runId: string) {
        this.summary = emptySummary(runId);
    }

    apply(events: readonly JournalEvent[]): void {
        // One copy of the summary per batch (the view compares it by identity), then changed in place.
        this.summary = { ...this.summary };
        for (const event of events) {
            if (event.type.startsWith('lore-')) this.loreEvents += 1;
            this.applyOne(event);
        }
    }

    /** The sequence number of the next event of this run. */
    get nextSeq(): number {
        return (this.lastSeq.get(this.runId) ?? -1) + 1;
    }

    /** The nested timeline of the tasks a call started, if any. */
    nestedOf(callId: string): TimelineModel | undefined {
        return this.nested.get(callId);
    }

    /** The stored record knows what the journal may not (the outcome of a run that failed before its first event). */
    applyRecord(record: RunRecord): void {
        const end = END_STATES.has(record.state);
        this.summary = {
            ...this.summary,
            state: record.state,
            chatKey: record.chatKey,
            chatId: record.chatId,
            profileId: record.profileId || this.summary.profileId,
            generationType: record.generationType || this.summary.generationType,
            messageId: record.messageId ?? this.summary.messageId,
            error: record.error ?? this.summary.error,
            startedAt: this.summary.startedAt ?? record.createdAt,
            endedAt: end ? (this.summary.endedAt ?? record.updatedAt) : null,
        };
        if (end) this.settleOpenRows();
    }

    applyOutcome(outcome: { state: string; messageId: number | null; error: { code: string; message: string } | null }, at: number): void {
        this.summary = {
            ...this.summary,
            state: outcome.state,
            messageId: outcome.messageId ?? this.summary.messageId,
            error: outcome.error ?? this.summary.error,
            endedAt: END_STATES.has(outcome.state) ? (this.summary.endedAt ?? at) : null,
        };
        if (END_STATES.has(outcome.state)) this.settleOpenRows();
    }

    /**
     * Once the run is over nothing of it is still going: a model turn without its answer and a call that never
     * finished (or never started) become `stopped`, in nested timelines too. The journal of a stopped, failed
     * or interrupted run (a reload in the middle) ends with such open rows; they must not spin forever.
     * Called when the run's outcome is known (live) or its record is read (stored), after its last event.
     */
    settleOpenRows(): void {
        for (let i = 0; i < this.rows.length; i++) {
            const row = this.rows[i]!;
            if (row.kind === 'model' && row.status === 'running') this.rows[i] = { ...row, status: 'stopped' };
            else if (row.kind === 'tool' && (row.status === 'pending' || row.status === 'running')) this.rows[i] = { ...row, status: 'stopped' };
        }
        for (const nested of this.nested.values()) nested.settleOpenRows();
        this.currentCall = null;
        this.currentModel = null;
    }

    private applyOne(event: JournalEvent): boolean {
        const last = this.lastSeq.get(event.runId) ?? -1;
        if (event.seq <= last) return false; // replayed and pushed copies of one event
        this.lastSeq.set(event.runId, event.seq);
        const parent = event.payload.parentCallId ?? null;
        if (parent && this.callKeys.has(parent)) return this.applyNested(parent, event);
        if (event.runId !== this.runId) return false; // another run's event, not nested under a call of this one

        const s = this.summary;
        s.events += 1;
        s.lastAt = event.at;
        s.startedAt ??= event.at;
        switch (event.type) {
            case 'run-create': {
                const p = event.payload;
                // The run's start is its first journal event, live as after a reload: the live view's
                // provisional start (the page's, before SillyTavern's dry run) gives way to it.
                s.startedAt = event.at;
                Object.assign(s, { chatKey: p.chatKey, chatId: p.chatId, profileId: p.profileId, generationType: p.generationType, foreground: p.foreground });
                break;
            }
            case 'run-state': {
                const p = event.payload;
                s.state = p.to;
                // Not settled here: the engine journals `completed` before the calls left in the last turn
                // (workspace.finish after a commit) start. The outcome and the stored record settle rows.
                if (END_STATES.has(p.to)) s.endedAt = event.at;
                break;
            }
            case 'model-request': {
                const p = event.payload;
                const row: ModelRow = {
                    kind: 'model', key: `m${event.seq}`, eventType: event.type, at: event.at, round: p.round, wrapUp: p.wrapUp, status: 'running',
                    durationMs: null, usage: null, text: '', reasoning: '', toolCalls: [], finishReason: null, stored: null, cost: null, request: p.request ?? null,
                };
                this.currentModel = row.key;
                this.push(row);
                break;
            }
            case 'model-response':
                this.modelAnswered(event, event.payload);
                break;
            case 'tool-call-start': {
                const p = event.payload;
                const key = this.adoptAnnounced(p) ?? this.callKey(p.callId, p.name, event.at, true);
                this.update<ToolRow>(key, { status: 'running', eventType: event.type, argsPath: p.argsPath, canonical: p.canonical, name: p.name, at: event.at });
                this.currentCall = p.callId;
                s.calls += 1;
                break;
            }
            case 'tool-call-complete': {
                const p = event.payload;
                const key = this.callKey(p.callId, p.name, event.at, false);
                this.update<ToolRow>(key, { status: 'completed', eventType: event.type, durationMs: p.durationMs, summary: p.summary, resultPath: p.resultPath });
                this.currentCall = null;
                break;
            }
            case 'tool-call-fail': {
                const p = event.payload;
                const key = this.callKey(p.callId, p.name, event.at, false);
                this.update<ToolRow>(key, {
                    status: 'error', eventType: event.type, durationMs: p.durationMs, resultPath: p.resultPath,
                    error: { code: p.code, message: p.message, hint: p.hint },
                });
                s.failedCalls += 1;
                this.currentCall = null;
                break;
            }
            case 'script-call':
                this.programCalled(innerCallRow(event.payload, event.at), event.payload.programCallId);
                break;
            case 'file-write': {
                const p = event.payload;
                this.fileChanged(event, { path: p.path, action: p.mode, version: p.version, checkpointSeq: null, chars: p.chars, replacements: null });
                break;
            }
            case 'patch-apply': {
                const p = event.payload;
                this.fileChanged(event, { path: p.path, action: 'patch', version: p.version, checkpointSeq: null, chars: null, replacements: p.replacements });
                break;
            }
            case 'checkpoint':
                this.checkpointed(event.payload);
                break;
            case 'commit': {
                const p = event.payload;
                s.messageId = p.messageId;
                this.push({ kind: 'commit', key: `e${event.seq}`, eventType: event.type, at: event.at, path: p.path, mode: p.mode, messageId: p.messageId, chars: p.chars, reason: p.reason });
                break;
            }
            case 'skills-resolve': {
                const p = event.payload;
                s.skills = Array.isArray(p.skills) ? p.skills : [];
                break;
            }
            case 'plan-update':
                s.plan = event.payload.items;
                break;
            case 'budget-wrap-up':
                s.wrappedUp = true;
                s.roundBudget = event.payload.maxRounds ?? event.payload.rounds;
                this.note(event);
                break;
            case 'run-continue':
                // The run goes on past its end, as the same run.
                s.wrappedUp = false;
                s.error = null;
                s.endedAt = null;
                this.note(event);
                break;
            case 'run-fail': {
                const p = event.payload;
                s.error = { code: p.code, message: p.message };
                this.note(event);
                break;
            }
            case 'run-resume': {
                // The interruption is over: the run goes on, its earlier failure note stays in the rows.
                s.error = null;
                s.endedAt = null;
                this.note(event);
                break;
            }
            case 'run-cancel': {
                const p = event.payload;
                s.error ??= { code: 'run.cancelled', message: p.reason };
                this.note(event);
                break;
            }
            case 'guidance-queue': {
                const p = event.payload;
                this.guidanceKeys.set(p.guidanceId, `e${event.seq}`);
                this.note(event);
                break;
            }
            case 'guidance-deliver': {
                const p = event.payload;
                for (const id of p.guidanceIds) {
                    const key = this.guidanceKeys.get(id);
                    const index = key === undefined ? undefined : this.positions.get(key);
                    const row = index === undefined ? undefined : this.rows[index];
                    if (key && row?.kind === 'note') this.update<NoteRow>(key, { eventType: event.type, tone: 'ok', payload: { ...row.payload, round: p.round } });
                }
                break;
            }
            case 'task-start':
                this.taskStarted(event, event.payload);
                break;
            case 'task-end':
                this.taskEnded(event, event.payload);
                break;
            default:
                // A memory promotion of no files changed nothing: no "Memory saved · 0" row.
                if (event.type === 'persist-promote' && event.payload.files === 0) break;
                if (!HEADER_ONLY.has(event.type)) this.note(event);
        }
        return true;
    }

    private modelAnswered(event: JournalEvent, p: Payload<'model-response'>): void {
        const s = this.summary;
        s.rounds += 1;
        s.tokensIn += p.usage?.input ?? 0;
        s.tokensOut += p.usage?.output ?? 0;
        if (p.cost !== undefined) s.cost = (s.cost ?? 0) + p.cost;
        const patch: Partial<ModelRow> = {
            status: 'completed', eventType: event.type, durationMs: p.durationMs, usage: p.usage, text: p.text, reasoning: p.reasoning,
            toolCalls: p.toolCalls, finishReason: p.finishReason, stored: p.stored, cost: p.cost ?? null,
        };
        if (this.currentModel && this.positions.has(this.currentModel)) this.update<ModelRow>(this.currentModel, patch);
        else this.push({ kind: 'model', key: `m${event.seq}`, at: event.at, round: p.round, wrapUp: false, request: null, ...(patch as Omit<ModelRow, 'kind' | 'key' | 'at' | 'round' | 'wrapUp' | 'request'>) });
        this.currentModel = null;
        // The calls the model asked for are listed at once, pending, in the order they will run.
        for (const call of p.toolCalls) this.callKey(call.id, call.name, event.at, true);
    }

    /**
     * The model announces its calls by the provider's ids (`call_0`, repeated every round by some); the run
     * then starts each under a run-unique id and names the provider's. The announced row becomes that call's.
     */
    private adoptAnnounced(p: Payload<'tool-call-start'>): string | null {
        const provider = p.providerCallId;
        if (!provider || provider === p.callId) return null;
        const key = this.callKeys.get(provider);
        const row = key === undefined ? undefined : this.rows[this.positions.get(key)!];
        // A `stopped` row was settled early (the stored record said the run ended before its last call ran): the
        // call did start, so it is that row's again, not a second one.
        if (!key || row?.kind !== 'tool' || (row.status !== 'pending' && row.status !== 'stopped')) return null;
        this.callKeys.delete(provider);
        this.callKeys.set(p.callId, key);
        this.update<ToolRow>(key, { callId: p.callId });
        return key;
    }

    /** The row key of a call: an announced call keeps its row; a reused id after the call ended gets a new one. */
    private callKey(callId: string, name: string, at: number, announce: boolean): string {
        const existing = this.callKeys.get(callId);
        const row = existing ? (this.rows[this.positions.get(existing)!] as ToolRow | undefined) : undefined;
        if (row && (row.status === 'pending' || row.status === 'stopped' || !announce || (row.status === 'running' && announce))) return existing!;
        const key = this.positions.has(`c${callId}`) ? `c${callId}#${this.rows.length}` : `c${callId}`;
        this.callKeys.set(callId, key);
        this.push({
            kind: 'tool', key, eventType: undefined, at, callId, name, canonical: null, status: 'pending', argsPath: null, resultPath: null,
            durationMs: null, summary: '', error: null, changes: [], nestedCount: 0, innerCalls: [],
        });
        return key;
    }

    /**
     * A program's inner call goes under the program's row (its calls count in the run's, as they count against
     * its budget); one whose program has no row (a journal cut short before it) stands on its own.
     */
    private programCalled(call: ToolRow, programCallId: string): void {
        this.summary.calls += 1;
        if (call.status === 'error') this.summary.failedCalls += 1;
        const key = this.callKeys.get(programCallId);
        const program = key === undefined ? undefined : this.rows[this.positions.get(key)!];
        if (key && program?.kind === 'tool') this.update<ToolRow>(key, { innerCalls: [...program.innerCalls, call] });
        else this.push(call);
    }

    private fileChanged(event: JournalEvent, change: FileChange): void {
        if (change.path.startsWith('output/') && !this.summary.outputPaths.includes(change.path)) {
            this.summary.outputPaths = [...this.summary.outputPaths, change.path];
        }
        const callKey = this.currentCall ? this.callKeys.get(this.currentCall) : undefined;
        if (callKey) {
            const row = this.rows[this.positions.get(callKey)!] as ToolRow;
            this.update<ToolRow>(callKey, { changes: [...row.changes, change] });
            this.lastChange = { key: callKey, path: change.path, version: change.version };
            return;
        }
        const key = `e${event.seq}`;
        this.push({ kind: 'file', key, eventType: event.type, at: event.at, change });
        this.lastChange = { key, path: change.path, version: change.version };
    }

    private checkpointed(p: Payload<'checkpoint'>): void {
        const last = this.lastChange;
        if (!last || last.path !== p.path || last.version !== p.version) return; // a commit-time checkpoint: listed with the files
        const index = this.positions.get(last.key);
        const row = index === undefined ? undefined : this.rows[index];
        if (row?.kind === 'tool') {
            this.update<ToolRow>(last.key, { changes: row.changes.map((c) => (c.path === p.path && c.version === p.version && c.checkpointSeq === null ? { ...c, checkpointSeq: p.seq } : c)) });
        } else if (row?.kind === 'file') {
            this.rows[index!] = { ...row, change: { ...row.change, checkpointSeq: p.seq } };
        }
        this.lastChange = null;
    }

    private applyNested(parentCallId: string, event: JournalEvent): boolean {
        let nested = this.nested.get(parentCallId);
        if (!nested) {
            nested = new TimelineModel(event.runId);
            this.nested.set(parentCallId, nested);
        }
        const before = { ...nested.summary, status: nested.task?.status ?? null };
        nested.apply([event]);
        const after = nested.summary;
        // The run's totals include its children: what their model turns used and the calls they made.
        const s = this.summary;
        s.tokensIn += after.tokensIn - before.tokensIn;
        s.tokensOut += after.tokensOut - before.tokensOut;
        if (after.cost !== before.cost) s.cost = (s.cost ?? 0) + (after.cost ?? 0) - (before.cost ?? 0);
        s.calls += after.calls - before.calls;
        s.failedCalls += after.failedCalls - before.failedCalls;
        s.lastAt = event.at;
        const status = nested.task?.status ?? null;
        if (status !== before.status) {
            const tasks = { ...s.tasks };
            if (before.status) tasks[before.status] -= 1;
            if (status) tasks[status] += 1;
            s.tasks = tasks;
        }
        const key = this.callKeys.get(parentCallId)!;
        this.update<ToolRow>(key, { nestedCount: nested.rows.length });
        return true;
    }

    private taskStarted(event: JournalEvent, p: Payload<'task-start'>): void {
        this.task = {
            taskId: p.taskId, agentId: p.agentId, agentName: p.agentName || p.agentId, title: p.title, objective: p.objective, parentCallId: p.parentCallId,
            status: 'running', startedAt: event.at, endedAt: null, summary: '', reason: null, resultPath: null, summaryPath: null, final: null,
        };
    }

    private taskEnded(event: JournalEvent, p: Payload<'task-end'>): void {
        // A task-end without its start (a journal cut short) still tells what the task was and how it ended.
        const task: TaskInfo = this.task ?? {
            taskId: p.taskId, agentId: p.agentId, agentName: p.agentId, title: '', objective: '', parentCallId: p.parentCallId,
            status: 'running', startedAt: event.at - p.durationMs, endedAt: null, summary: '', reason: null, resultPath: null, summaryPath: null, final: null,
        };
        this.task = {
            ...task, status: p.status, endedAt: event.at, summary: p.summary, reason: p.reason, resultPath: p.resultPath, summaryPath: p.summaryPath,
            final: { rounds: p.rounds, calls: p.calls, tokensIn: p.tokensIn, tokensOut: p.tokensOut, durationMs: p.durationMs },
        };
    }

    private note(event: JournalEvent): void {
        this.push({ kind: 'note', key: `e${event.seq}`, eventType: event.type, at: event.at, tone: NOTE_TONES[event.type] ?? 'info', payload: event.payload });
    }

    private push(row: TimelineRow): void {
        this.positions.set(row.key, this.rows.length);
        this.rows.push(row);
    }

    private update<T extends TimelineRow>(key: string, patch: Partial<T>): void {
        const index = this.positions.get(key);
        if (index === undefined) return;
        this.rows[index] = { ...this.rows[index]!, ...patch } as TimelineRow;
    }
}
