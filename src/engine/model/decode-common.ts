import type { ModelTurn, TokenUsage } from '../../contract/model';

/** What a decoder returns: the one internal turn, or a short description of what was wrong with the response. */
export type DecodeResult = { ok: true; turn: ModelTurn } | { ok: false; message: string };

export interface DecodeContext {
    /** The agent round this response answers; part of generated tool-call ids. */
    round: number;
}

export type Json = Record<string, unknown>;

export const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

export const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

export const nonEmpty = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

export const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

export const malformed = (message: string): DecodeResult => ({ ok: false, message });

/**
 * The envelope problems every decoder reports the same way: not a JSON object, or SillyTavern's error body
 * (`{error: true}` or `{error: {message}}`, which the backend also sends with HTTP 200 for upstream failures).
 */
export function envelopeProblem(raw: unknown): string | null {
    if (!isObject(raw)) return `response is ${raw === null ? 'null' : Array.isArray(raw) ? 'an array' : `a ${typeof raw}`}, not an object`;
    const error = raw.error;
    if (error === undefined || error === null || error === false) return null;
    const detail = isObject(error) ? str(error.message) : str(error);
    return detail ? `backend returned an error: ${detail}` : 'backend returned an error';
}

/** Token usage when both counts are numbers, else null. */
export function usageOf(input: unknown, output: unknown): TokenUsage | null {
    const i = num(input);
    const o = num(output);
    return i === undefined || o === undefined ? null : { input: i, output: o };
}

/** Tool arguments as text: strings verbatim (the dispatcher parses them), objects from lenient proxies as JSON. */
export function argumentsText(value: unknown): string {
    if (typeof value === 'string') return value;
    if (value === undefined || value === null) return '{}';
    return JSON.stringify(value);
}

/** Gives each call an id: the provider's when present and unused in this turn, else a stable generated one. */
export function idFor(given: unknown, seen: Set<string>, fallback: string): string {
    const id = nonEmpty(given);
    const chosen = id !== undefined && !seen.has(id) ? id : fallback;
    seen.add(chosen);
    return chosen;
}

/** The first zod issue as `where: message`, with the issue path appended to `where`. */
export function issueText(where: string, error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }): string {
    const issue = error.issues[0];
    if (!issue) return `${where}: invalid`;
    const path = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('');
    return `${where}${path}: ${issue.message}`;
}
