import type { Profile } from '../contract/profile';

/** Tools a run may still call once its budget is spent, so a finished draft is never lost (SPEC §1). */
export const WRAP_UP_TOOLS: ReadonlySet<string> = new Set(['workspace.commit', 'workspace.finish']);

/** Counts model rounds and tool calls against a profile's limits. Denied calls are not counted. */
export class Budget {
    rounds = 0;
    calls = 0;
    private readonly perTool = new Map<string, number>();

    constructor(private readonly limits: Profile['tools']) {}

    get roundsExhausted(): boolean {
        return this.rounds >= this.limits.maxRounds;
    }

    get callsExhausted(): boolean {
        return this.calls >= this.limits.maxCallsPerRun;
    }

    /** Why the run must wrap up now, or null while it may go on. */
    wrapUpReason(): 'maxRounds' | 'maxCallsPerRun' | null {
        if (this.roundsExhausted) return 'maxRounds';
        if (this.callsExhausted) return 'maxCallsPerRun';
        return null;
    }

    /** A reason the call may not run, or null. Commit and finish stay allowed when the budget is spent. */
    refusal(tool: string): string | null {
        if (WRAP_UP_TOOLS.has(tool)) return null;
        if (this.callsExhausted) return `the run's budget of ${this.limits.maxCallsPerRun} tool calls is used up`;
        const toolLimit = this.limits.maxCallsPerTool[tool];
        if (toolLimit !== undefined && (this.perTool.get(tool) ?? 0) >= toolLimit) {
            return `${tool} may be called at most ${toolLimit} times in a run`;
        }
        return null;
    }

    countCall(tool: string): void {
        this.calls += 1;
        this.perTool.set(tool, (this.perTool.get(tool) ?? 0) + 1);
    }
}
