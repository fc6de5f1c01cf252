import type { ToolError } from './errors';

/** What a tool gives back: bounded text for the model, details for the panel and the audit store. */
export interface ToolResult {
    content: string;
    details?: Record<string, unknown>;
}

/**
 * One tool call's outcome, as a tool returns it and as `tool-results/<callId>.json` stores it: the journal's
 * reducer reads it back to rebuild what the model was shown.
 */
export type ToolOutcome = { ok: true; result: ToolResult } | { ok: false; error: ToolError };

export function success(content: string, details?: Record<string, unknown>): ToolOutcome {
    return details === undefined ? { ok: true, result: { content } } : { ok: true, result: { content, details } };
}

export function failure(error: ToolError): ToolOutcome {
    return { ok: false, error };
}
