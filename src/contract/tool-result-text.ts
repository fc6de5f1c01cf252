/** The shape of a tool outcome both sides know (tools/tool.ts's ToolOutcome fits it). */
export type ToolOutcomeLike = { ok: true; result: { content: string } } | { ok: false; error: { code: string; message: string; hint: string } };

/** What the model reads as a tool result. Errors lead with their code so the model can act on them. */
export function toolResultText(outcome: ToolOutcomeLike): string {
    if (outcome.ok) return outcome.result.content;
    return `ERROR ${outcome.error.code}: ${outcome.error.message}\nHint: ${outcome.error.hint}`;
}
