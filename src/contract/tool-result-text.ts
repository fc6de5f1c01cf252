/**
 * What the model reads as a tool result, and what the timeline shows as "Result": one function, so the
 * panel shows exactly what the model was shown. Errors lead with their code so the model can act on them.
 * Structural on purpose: it takes the engine's ToolOutcome and a stored outcome parsed from JSON alike.
 */
export type ToolResultOutcome = { ok: true; result: { content: string } } | { ok: false; error: { code: string; message: string; hint: string } };

export function toolResultText(outcome: ToolResultOutcome): string {
    if (outcome.ok) return outcome.result.content;
    return `ERROR ${outcome.error.code}: ${outcome.error.message}\nHint: ${outcome.error.hint}`;
}
