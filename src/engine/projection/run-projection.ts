import { RunFailure } from '../../contract/errors';
import type { EventFact, EventPayloads } from '../../contract/events';
import type { ModelTurn } from '../../contract/model';
import type { ToolOutcome } from '../../contract/tool-outcome';
import type { StateChange } from '../../contract/state';
import { addUsage, type RunUsage } from '../../contract/usage';
import { decodeModelResponse } from '../model/decode';
import { ROOT_AGENT_KEY, type AgentTrack } from './agent-track';
import { applyEvent, noteEffect, type EventSources } from './apply-event';
import type { GuidanceNote } from './model-notes';

/** What the live loop hands along with an event it just made, so nothing is decoded or parsed twice. */
export interface Decoded {
    turn?: ModelTurn;
    outcome?: ToolOutcome;
}

/** Where an event's named files are read: the event's own attachments live, the stored files on resume. */
export type FileLookup = (path: string) => string | undefined;

/** A sub-agent task as the journal tells it: its start, and its end once journaled. */
export interface TaskFacts {
    start: EventPayloads['task-start'];
    startedAt: number;
    end: EventPayloads['task-end'] | null;
    endedAt: number | null;
}

/**
 * The whole run's projection of its journal: one AgentTrack per agent (the root and each sub-agent task,
 * routed by the task stamp on their events) and what the run itself knows (its commit, call and task
 * numbers, guidance, which task results the parent has seen). The journal calls `apply` for every event it
 * appends; a resume calls it for every stored event first. One fold, live and resumed alike.
 */
export class RunProjection {
    private readonly tracks = new Map<string, AgentTrack>();
    /** The chat message the run committed to. */
    messageId: number | null = null;
    /** The highest call number handed out (`call-0007` → 7): a resumed run goes on from the next. */
    callNumber = 0;
    readonly tasks = new Map<string, TaskFacts>();
    /** Finished task results the parent has been given (awaited, or injected into a turn). */
    readonly delivered = new Set<string>();
    readonly guidance = new Map<string, GuidanceNote>();
    readonly guidanceDelivered = new Set<string>();
    /** The run's end was journaled (`run-finish`). */
    finished = false;
    /** State changes the run staged (issue 36), in order: what its commit writes. */
    readonly stateChanges: StateChange[] = [];
    /** How many of them a `state-write` already put into the chat. */
    stateWritten = 0;
    /** Skill text handed to the run's agents, the sub-agents' included: the run's one skill read budget (issue 39 §10). */
    skillChars = 0;
    /** Every model turn's tokens and cost, the sub-agents' included (issue 38 §2). */
    usage: RunUsage = { input: 0, output: 0 };

    constructor(
        /** The run's chat completion source: stored responses decode by it. */
        private readonly source: string,
    ) {}

    /** Starts folding one agent's events into its track (before its first event). */
    register(track: AgentTrack): void {
        this.tracks.set(track.agentKey, track);
    }

    track(agentKey: string): AgentTrack | undefined {
        return this.tracks.get(agentKey);
    }

    /** Guidance queued and not yet put into a turn, oldest first. */
    pendingGuidance(): GuidanceNote[] {
        return [...this.guidance.values()].filter((note) => !this.guidanceDelivered.has(note.guidanceId));
    }

    apply(fact: EventFact, at: number, files: FileLookup, decoded?: Decoded): void {
        this.applyToRun(fact, at);
        const track = this.tracks.get(fact.payload.taskId ?? ROOT_AGENT_KEY);
        if (track) applyEvent(track, fact, this.sources(files, decoded));
        // A sub-agent's start is a change made by its parent's delegate call (stamped with the child's task).
        if (fact.type === 'task-start') {
            for (const parent of this.tracks.values()) if (parent.open?.cut?.callId === fact.payload.parentCallId) noteEffect(parent, fact);
        }
    }

    private applyToRun(fact: EventFact, at: number): void {
        switch (fact.type) {
            case 'commit':
                this.messageId = fact.payload.messageId;
                break;
            case 'tool-call-start':
                this.callNumber = Math.max(this.callNumber, Number(fact.payload.callId.replace(/\D/g, '')) || 0);
                break;
            case 'script-call':
                this.callNumber = Math.max(this.callNumber, Number(fact.payload.callId.replace(/\D/g, '')) || 0);
                this.skillChars += fact.payload.skillChars ?? 0;
                break;
            case 'tool-call-complete':
                this.skillChars += fact.payload.skillChars ?? 0;
                break;
            case 'task-start':
                this.tasks.set(fact.payload.taskId, { start: fact.payload, startedAt: at, end: null, endedAt: null });
                break;
            case 'task-end': {
                const task = this.tasks.get(fact.payload.taskId);
                if (task) Object.assign(task, { end: fact.payload, endedAt: at });
                break;
            }
            case 'state-change':
                this.stateChanges.push(fact.payload);
                break;
            case 'state-write':
                this.stateWritten = Math.max(this.stateWritten, fact.payload.changes);
                break;
            case 'task-inject':
                for (const id of fact.payload.taskIds) this.delivered.add(id);
                break;
            case 'guidance-queue':
                this.guidance.set(fact.payload.guidanceId, { guidanceId: fact.payload.guidanceId, text: fact.payload.text });
                break;
            case 'guidance-deliver':
                for (const id of fact.payload.guidanceIds) this.guidanceDelivered.add(id);
                break;
            case 'run-finish':
                this.finished = true;
                break;
            case 'run-continue':
                this.finished = false;
                break;
            case 'model-response':
                this.usage = addUsage(this.usage, fact.payload.usage, fact.payload.cost);
                break;
            default:
                break;
        }
    }

    /** Marks results an agent.await handed over (its outcome's `details.delivered`), as its outcome is read. */
    private noteAwaited(outcome: ToolOutcome): void {
        const delivered = outcome.ok ? outcome.result.details?.delivered : undefined;
        if (Array.isArray(delivered)) for (const id of delivered) if (typeof id === 'string') this.delivered.add(id);
    }

    private sources(files: FileLookup, decoded: Decoded | undefined): EventSources {
        const read = (path: string): unknown => {
            const content = files(path);
            if (content === undefined) throw new RunFailure('run.resume_failed', `The run cannot be resumed: ${path} is missing from its journal.`);
            try {
                return JSON.parse(content);
            } catch {
                throw new RunFailure('run.resume_failed', `The run cannot be resumed: ${path} is unreadable.`);
            }
        };
        return {
            turn: (payload) => {
                if (decoded?.turn) return decoded.turn;
                const result = decodeModelResponse(read(payload.stored), { round: payload.round, source: this.source });
                if (!result.ok) throw new RunFailure('run.resume_failed', 'The run cannot be resumed: a stored model response is unreadable.', result.message);
                return result.turn;
            },
            outcome: (resultPath) => {
                // Stored by executeToolCall from a ToolOutcome; the run's own files, never an import.
                const outcome = decoded?.outcome ?? (read(resultPath) as ToolOutcome);
                this.noteAwaited(outcome);
                return outcome;
            },
            guidance: (ids) => ids.flatMap((id) => this.guidance.get(id) ?? []),
        };
    }
}
