import type { RecoverableCode } from '../contract/errors';

/**
 * What the state formats answer: a value, or a problem the model can fix (a recoverable tool error with its
 * code and hint). The tools pass the error on as it is.
 */
export type StateOutcome<T> = { ok: true; value: T } | { ok: false; error: { code: RecoverableCode; message: string; hint: string } };

export function stateOk<T>(value: T): StateOutcome<T> {
    return { ok: true, value };
}

export function stateError<T = never>(code: RecoverableCode, message: string, hint: string): StateOutcome<T> {
    return { ok: false, error: { code, message, hint } };
}
