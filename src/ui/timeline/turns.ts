import type { RunRecord } from '../../contract/records';
import type { RunPhase } from '../../contract/run-input';

/**
 * One turn's runs as the timeline shows them (issue 34 §5): the runs that share a `turnId` (the user message
 * they answer) form one turn, read top-down in the order they ran: before, the reply, after. A turn without
 * a run before or after its reply is no turn to show: its reply run looks as every run did before issue 34.
 */

/** A line of a turn: one of its runs, or SillyTavern's own reply (no run), with its message when known. */
export type TurnItem = { kind: 'run'; phase: RunPhase; record: RunRecord } | { kind: 'sillytavern'; messageId: number | null };

export interface Turn {
    key: string;
    turnId: string;
    /** In the order they ran; SillyTavern's reply stands where it came. */
    items: TurnItem[];
}

/** What a list of runs shows: a run on its own, or a turn of several. */
export type RunEntry = { kind: 'run'; record: RunRecord } | { kind: 'turn'; turn: Turn };

/** A run's phase in its turn: absent is the reply (every run before issue 34). */
export function phaseOf(record: Pick<RunRecord, 'phase'>): RunPhase {
    return record.phase ?? 'reply';
}

const PHASE_ORDER: Record<RunPhase, number> = { before: 0, reply: 1, after: 2 };

const byRunOrder = (a: RunRecord, b: RunRecord) => a.createdAt - b.createdAt || PHASE_ORDER[phaseOf(a)] - PHASE_ORDER[phaseOf(b)];

/** A before-run that ended this way let the reply go on (a stopped one stopped the turn). */
const REPLY_FOLLOWED = new Set(['completed', 'failed']);

/**
 * The lines of one turn. SillyTavern's own reply has no run: it is where an after-run follows a message no
 * reply run of the turn committed to, or (its message unknown) after a before-run that let the reply go on
 * when the turn has no reply run and nothing runs any more (`quiet`: a reply agent may be just starting).
 */
export function turnItems(records: readonly RunRecord[], quiet: boolean): TurnItem[] {
    const runs = [...records].sort(byRunOrder);
    const replied = new Set(runs.flatMap((run) => (phaseOf(run) === 'reply' && run.messageId !== null ? [run.messageId] : [])));
    const items: TurnItem[] = [];
    for (const run of runs) {
        const phase = phaseOf(run);
        if (phase === 'after' && run.follows !== undefined && !replied.has(run.follows)) {
            replied.add(run.follows);
            items.push({ kind: 'sillytavern', messageId: run.follows });
        }
        items.push({ kind: 'run', phase, record: run });
    }
    const hasReply = items.some((item) => item.kind === 'sillytavern' || item.phase === 'reply');
    let lastBefore = -1;
    items.forEach((item, index) => {
        if (item.kind === 'run' && item.phase === 'before') lastBefore = index;
    });
    const before = items[lastBefore];
    if (quiet && !hasReply && before?.kind === 'run' && REPLY_FOLLOWED.has(before.record.state)) {
        items.splice(lastBefore + 1, 0, { kind: 'sillytavern', messageId: null });
    }
    return items;
}

const isAroundReply = (record: RunRecord) => record.phase === 'before' || record.phase === 'after';

/**
 * A list of runs (newest first, as History lists them) with each turn's runs gathered into one entry, in the
 * place of its newest run. Runs without a turn, and the runs of a turn that had nothing around its reply,
 * stay entries of their own.
 */
export function groupTurns(records: readonly RunRecord[], quiet = true): RunEntry[] {
    const byTurn = new Map<string, RunRecord[]>();
    const keyOf = (record: RunRecord) => (record.turnId === undefined ? null : `${record.chatId}\u0000${record.turnId}`);
    for (const record of records) {
        const key = keyOf(record);
        if (key !== null) byTurn.set(key, [...(byTurn.get(key) ?? []), record]);
    }
    const entries: RunEntry[] = [];
    const placed = new Set<string>();
    for (const record of records) {
        const key = keyOf(record);
        const members = key === null ? undefined : byTurn.get(key);
        if (key === null || !members?.some(isAroundReply)) {
            entries.push({ kind: 'run', record });
            continue;
        }
        if (placed.has(key)) continue;
        placed.add(key);
        entries.push({ kind: 'turn', turn: { key, turnId: record.turnId!, items: turnItems(members, quiet) } });
    }
    return entries;
}

/** The turn a run is shown in, if it is in one. */
export function turnOfRun(entries: readonly RunEntry[], runId: string): Turn | null {
    for (const entry of entries) {
        if (entry.kind === 'turn' && entry.turn.items.some((item) => item.kind === 'run' && item.record.runId === runId)) return entry.turn;
    }
    return null;
}
