import { toolError } from '../../contract/errors';
import { EMPTY_STATE, type CapturedState } from '../../contract/state';
import type { StateOutcome } from '../../state/outcome';
import { failure, type ToolContext, type ToolOutcome } from '../tool';

/** The run's frozen state (an input stored before issue 36 has none: every scope is unavailable then). */
export function capturedState(context: ToolContext): CapturedState {
    return context.input.state ?? EMPTY_STATE;
}

/** A state problem as the recoverable tool error it is. */
export function stateFailure(outcome: Extract<StateOutcome<unknown>, { ok: false }>): ToolOutcome {
    return failure(toolError(outcome.error.code, outcome.error.message, outcome.error.hint));
}

/** Pretty JSON for the model, or its one-line form when the pretty one would not fit `limit`. */
export function jsonText(value: unknown): string {
    return JSON.stringify(value, null, 1) ?? 'null';
}

export const SCOPE_DESCRIPTION =
    'chat: SillyTavern chat variables ({{getvar}}), branch-aware. global: global variables (writing asks the user). message: Tavern Helper message variables of this reply. mvu: MVU (MagVarUpdate) values under /stat_data. tracker: SillyTavern-Tracker (read-only).';
