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

/**
 * The demo model behind `npm start`. Without tools in the request (Agent Mode off) it answers like a plain
 * chat model; with Agent Mode on it plays a short agent run: plan, draft, read back, revise, commit, finish.
 */
export function demoResponder(request: RecordedRequest): MockTurn | undefined {
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
