import type { TokenUsage } from './model';

/**
 * Cost (issue 38 §2): a profile's price per million input and output tokens, either of them unknown (null).
 * Costs are in the currency the user priced in; the panel shows them with no symbol.
 */
export interface Pricing {
    input: number | null;
    output: number | null;
}

/** What a run or a turn used: tokens, and what they cost when its profile has prices. */
export interface RunUsage {
    input: number;
    output: number;
    cost?: number;
}

/** The cost of one turn's usage at a profile's prices; undefined when the profile prices nothing. */
export function costOf(usage: TokenUsage | null, pricing: Pricing | null | undefined): number | undefined {
    if (!pricing || (pricing.input === null && pricing.output === null)) return undefined;
    if (!usage) return 0;
    return (usage.input * (pricing.input ?? 0) + usage.output * (pricing.output ?? 0)) / 1_000_000;
}

/** Adds a turn to a total; the total has a cost once any turn in it had one. */
export function addUsage(total: RunUsage, usage: TokenUsage | null, cost: number | undefined): RunUsage {
    const next: RunUsage = { input: total.input + (usage?.input ?? 0), output: total.output + (usage?.output ?? 0) };
    if (total.cost !== undefined || cost !== undefined) next.cost = (total.cost ?? 0) + (cost ?? 0);
    return next;
}
