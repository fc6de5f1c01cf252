import type { MockTurn, RecordedRequest } from '../tests/harness/mock-model';

interface DemoMessage {
    role: string;
    content: unknown;
    tool_calls?: unknown[];
}

function textOf(content: unknown): string {
    if (typeof content === 'string') return content;
    return Array.isArray(content) ? content.map((part) => (part as { text?: string }).text ?? '').join(' ') : '';
}

/** What a demo turn takes by default: long enough to watch the live view and to press Stop, short enough to wait for. */
export const DEFAULT_DEMO_DELAY_MS = 600;

/** DEMO_DELAY_MS from the environment (0 for an instant model), else the default. */
export function demoDelayMs(env: Record<string, string | undefined> = process.env): number {
    const value = Number(env.DEMO_DELAY_MS);
    return env.DEMO_DELAY_MS !== undefined && env.DEMO_DELAY_MS !== '' && Number.isFinite(value) && value >= 0 ? value : DEFAULT_DEMO_DELAY_MS;
}

/**
 * The demo model behind `npm start`. Without tools in the request (Agent Mode off) it answers like a plain
 * chat model; with Agent Mode on it plays a short agent run: plan, draft, read back, revise, commit, finish.
 * Each answer takes `delayMs` (a model takes time; the demo shows the run as it happens).
 */
export function demoResponder(request: RecordedRequest, delayMs = 0): MockTurn | undefined {
    const turn = demoTurn(request);
    return turn && delayMs > 0 ? { ...turn, delayMs } : turn;
}

function demoTurn(request: RecordedRequest): MockTurn | undefined {
    const body = request.body as { tools?: unknown[]; messages?: DemoMessage[] };
    const messages = body.messages ?? [];
    // The user's own words: the last user message before the agent's first tool turn.
    const firstToolTurn = messages.findIndex((m) => m.role === 'assistant' && m.tool_calls?.length);
    const history = firstToolTurn === -1 ? messages : messages.slice(0, firstToolTurn);
    const said = textOf([...history].reverse().find((m) => m.role === 'user')?.content).trim().slice(0, 160);
    if (!body.tools?.length) {
        return { text: `*The demo model nods.* You said: "${said}". (Switch Agent Mode on to watch the agent work.)` };
    }
    const step = messages.filter((m) => m.role === 'assistant' && m.tool_calls?.length).length;
    const draft = `*She considers your words for a moment.* "${said || 'Hello'}"... draft reply: I hear you, and I will answer.`;
    const script: MockTurn[] = [
        { text: 'Let me plan first.', toolCalls: [{ name: 'workspace_write_file', arguments: { path: 'plan/outline.md', content: `- Reply to: ${said}\n- Keep it short and in character.\n` } }] },
        { toolCalls: [{ name: 'workspace_write_file', arguments: { path: 'output/main.md', content: draft } }] },
        { toolCalls: [{ name: 'workspace_read_file', arguments: { path: 'output/main.md' } }] },
        { text: 'Polishing the wording.', toolCalls: [{ name: 'workspace_apply_patch', arguments: { path: 'output/main.md', old_string: 'draft reply: I hear you, and I will answer.', new_string: '"I hear you. Stay a while, and tell me more."' } }] },
        { toolCalls: [{ name: 'workspace_commit', arguments: { reason: 'The reply is ready.' } }] },
        { toolCalls: [{ name: 'workspace_finish', arguments: { reason: 'Done.' } }] },
    ];
    return script[Math.min(step, script.length - 1)];
}
