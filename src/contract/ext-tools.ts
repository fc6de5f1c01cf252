import * as z from 'zod';

/** How long another extension's tool may work before the agent gets `tool.timeout` (SPEC §9). */
export const EXT_TOOL_TIMEOUT_MS = 30_000;

/** The prefix under which tools registered with SillyTavern's ToolManager are offered: `ext.<name>`. */
export const EXT_TOOL_PREFIX = 'ext.';

/**
 * One tool another extension registered with SillyTavern's ToolManager (and whose `shouldRegister` said
 * yes when the run started), frozen into the run's input like the rest of the snapshot.
 */
export const ExtToolSpecSchema = z.object({
    /** The name it was registered under (without `ext.`). */
    name: z.string().min(1).max(64),
    displayName: z.string(),
    description: z.string(),
    /** Its JSON schema, as registered: sent to the provider, and the dispatcher checks arguments against it. */
    parameters: z.record(z.string(), z.unknown()),
});
export type ExtToolSpec = z.infer<typeof ExtToolSpecSchema>;

/** What the worker asks the page for one call of such a tool. */
export interface ExtToolCallRequest {
    runId: string;
    name: string;
    args: unknown;
    /** The profile asks the user before each call (Approve / Deny in the timeline). */
    ask: boolean;
}

/** The page's answer: the result text, or why there is none (codes the agent can recover from). */
export type ExtToolCallReply =
    | { ok: true; text: string }
    | { ok: false; code: 'tool.denied_by_user' | 'tool.timeout' | 'tool.execution_failed' | 'tool.not_allowed'; message: string };

/** A call waiting for the user's Approve / Deny. */
export interface ExtToolApproval {
    id: string;
    runId: string;
    name: string;
    argsText: string;
}
