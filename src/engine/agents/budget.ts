import type { WrapUpReason } from '../../contract/events';
import { DEFAULT_TOOL_CAPS, type Profile } from '../../contract/profile';

/** Tools a run may still call once its budget is spent, so a finished draft is never lost (SPEC §1). */
export const WRAP_UP_TOOLS: ReadonlySet<string> = new Set(['workspace.commit', 'workspace.finish']);

/** The one tool a sub-agent may still call when its budget is spent. */
export const TASK_WRAP_UP_TOOLS: ReadonlySet<string> = new Set(['task.return']);

export { DEFAULT_TOOL_CAPS };


/**
 * Counts model rounds and tool calls against a profile's limits. Calls refused by policy are not counted;
 * calls with invalid arguments are, so a model looping on bad JSON runs out of budget.
 */
export class Budget {
    rounds = 0;
    calls = 0;
    private readonly perTool = new Map<string, number>();
    /** Set by a Continue (issue 38 §5): the totals this run may reach now, past the profile's own. */
    private roundLimit: number;
    private callLimit: number;

    constructor(
        private readonly limits: Profile['tools'],
        /** Tools still callable once the totals are spent: commit and finish, or a sub-agent's task.return. */
        private readonly wrapUpTools: ReadonlySet<string> = WRAP_UP_TOOLS,
    ) {
        this.roundLimit = limits.maxRounds;
        this.callLimit = limits.maxCallsPerRun;
    }

    get roundsExhausted(): boolean {
        return this.rounds >= this.roundLimit;
    }

    get callsExhausted(): boolean {
        return this.calls >= this.callLimit;
    }

    /** `rounds` more model turns from here, and the profile's allowance of calls again. */
    extend(rounds: number): void {
        this.roundLimit = this.rounds + rounds;
        this.callLimit = this.calls + this.limits.maxCallsPerRun;
    }

    /** Why the run must wrap up now, or null while it may go on. */
    wrapUpReason(): WrapUpReason | null {
        if (this.roundsExhausted) return 'maxRounds';
        if (this.callsExhausted) return 'maxCallsPerRun';
        return null;
    }

    /** The per-run cap of one tool, or undefined when only the run's totals bound it. */
    toolCap(tool: string): number | undefined {
        return this.limits.maxCallsPerTool[tool] ?? DEFAULT_TOOL_CAPS[tool];
    }

    /**
     * A reason the call may not run, or null. Commit and finish stay callable when the run's totals are
     * spent (the wrap-up turn), but their own caps hold.
     */
    refusal(tool: string): string | null {
        if (!this.wrapUpTools.has(tool) && this.callsExhausted) return `the run's budget of ${this.callLimit} tool calls is used up`;
        const cap = this.toolCap(tool);
        if (cap !== undefined && (this.perTool.get(tool) ?? 0) >= cap) return `${tool} may be called at most ${cap} times in a run`;
        return null;
    }

    /** Counts one call of `tool`: the journal's projection does, as the call's start is journaled. */
    countCall(tool: string): void {
        this.calls += 1;
        this.perTool.set(tool, (this.perTool.get(tool) ?? 0) + 1);
    }

    /** The counts, for comparing a rebuilt budget with a live one. */
    counts(): { rounds: number; calls: number; perTool: Record<string, number> } {
        return { rounds: this.rounds, calls: this.calls, perTool: Object.fromEntries([...this.perTool].sort(([a], [b]) => (a < b ? -1 : 1))) };
    }
}
