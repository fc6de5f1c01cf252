// What one request to the demo model offers and asks for, read from its OpenAI-shaped body (the demo's
// SillyTavern talks to it as a 'custom' Chat Completion source). Every field is bounded and defaulted, so a
// request of any shape gets an answer.

/** Who is asking: SillyTavern's own generation (no tools), or which kind of agent run. */
export type DemoRole = 'chat' | 'reply' | 'fix' | 'director' | 'keeper' | 'subagent' | 'background';

/** One tool call this run made in an earlier turn, with the result it got (empty until answered). */
export interface DemoStep {
    name: string;
    args: Record<string, unknown>;
    result: string;
}

export interface DemoRequest {
    role: DemoRole;
    /** The tool aliases offered (`workspace_write_file`, `ext_GladeLanterns` …). */
    tools: ReadonlySet<string>;
    /** Each offered tool's JSON schema of arguments, by alias. */
    schemas: ReadonlyMap<string, unknown>;
    /** The run's own system message (empty for SillyTavern's generation). */
    system: string;
    /** Every system message's text, joined: where a director's brief sits in SillyTavern's prompt. */
    systemText: string;
    /** The character the reply is for ("Seraphina"), or "she" when the request does not say. */
    speaker: string;
    /** The last user message before this run's first tool turn: the user's words, a fix request, a task. */
    ask: string;
    /** The last message before this run's first tool turn that is not the user's: a keeper's new reply. */
    lastReply: string;
    /** How many model turns with tool calls this run has made: the step it is at. */
    turn: number;
    /** This run's tool calls so far, in order. */
    steps: readonly DemoStep[];
}

interface WireMessage {
    role?: unknown;
    content?: unknown;
    tool_calls?: unknown;
    tool_call_id?: unknown;
}

const MAX_TEXT = 4000;

function textOf(content: unknown): string {
    if (typeof content === 'string') return content.slice(0, MAX_TEXT);
    if (!Array.isArray(content)) return '';
    return content
        .map((part) => (part && typeof part === 'object' && typeof (part as { text?: unknown }).text === 'string' ? (part as { text: string }).text : ''))
        .join(' ')
        .slice(0, MAX_TEXT);
}

function record(value: unknown): Record<string, unknown> {
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function parseArgs(raw: unknown): Record<string, unknown> {
    if (typeof raw !== 'string') return record(raw);
    try {
        return record(JSON.parse(raw));
    } catch {
        return {};
    }
}

function offeredTools(tools: unknown): Map<string, unknown> {
    const offered = new Map<string, unknown>();
    if (!Array.isArray(tools)) return offered;
    for (const tool of tools) {
        const fn = record(record(tool).function);
        if (typeof fn.name === 'string') offered.set(fn.name, fn.parameters);
    }
    return offered;
}

function roleOf(system: string, tools: ReadonlySet<string>): DemoRole {
    if (tools.size === 0) return 'chat';
    if (system.includes('a sub-agent of Tavern Agent') || tools.has('task_return')) return 'subagent';
    if (system.includes('This run REVISES an existing reply')) return 'fix';
    if (system.includes('This run comes BEFORE')) return 'director';
    if (system.includes('This run comes AFTER')) return 'keeper';
    if (!tools.has('workspace_commit')) return 'background';
    return 'reply';
}

function speakerOf(system: string): string {
    const named = /(?:write|writing) (.{1,60}?)'s next reply|working on (.{1,60}?)'s conversation/i.exec(system);
    const name = (named?.[1] ?? named?.[2] ?? '').trim();
    return name && name !== 'the character' ? name : 'she';
}

/** This run's tool calls and their results, from its assistant and tool messages. */
function stepsOf(messages: readonly WireMessage[]): DemoStep[] {
    const steps: DemoStep[] = [];
    const byId = new Map<string, DemoStep>();
    for (const message of messages) {
        if (message.role === 'assistant' && Array.isArray(message.tool_calls)) {
            for (const call of message.tool_calls) {
                const fn = record(record(call).function);
                const step: DemoStep = { name: typeof fn.name === 'string' ? fn.name : '', args: parseArgs(fn.arguments), result: '' };
                steps.push(step);
                const id = record(call).id;
                if (typeof id === 'string') byId.set(id, step);
            }
        }
        if (message.role === 'tool' && typeof message.tool_call_id === 'string') {
            const step = byId.get(message.tool_call_id);
            if (step) step.result = textOf(message.content);
        }
    }
    return steps;
}

export function readDemoRequest(body: unknown): DemoRequest {
    const raw = record(body);
    const messages: WireMessage[] = Array.isArray(raw.messages) ? raw.messages.map(record) : [];
    const schemas = offeredTools(raw.tools);
    const tools = new Set(schemas.keys());
    const first = messages[0];
    const system = tools.size > 0 && first?.role === 'system' ? textOf(first.content) : '';
    const toolTurns = messages.filter((m) => m.role === 'assistant' && Array.isArray(m.tool_calls) && m.tool_calls.length > 0);
    const firstToolTurn = messages.findIndex((m) => toolTurns.includes(m));
    const history = firstToolTurn === -1 ? messages : messages.slice(0, firstToolTurn);
    const lastOf = (match: (m: WireMessage) => boolean) => textOf([...history].reverse().find(match)?.content).trim();
    return {
        role: roleOf(system, tools),
        tools,
        schemas,
        system,
        systemText: messages
            .filter((m) => m.role === 'system')
            .map((m) => textOf(m.content))
            .join('\n'),
        speaker: speakerOf(system || textOf(messages.find((m) => m.role === 'system')?.content)),
        ask: lastOf((m) => m.role === 'user'),
        lastReply: lastOf((m) => m.role === 'assistant'),
        turn: toolTurns.length,
        steps: stepsOf(messages),
    };
}

/** The result of this run's latest call of `name`, or '' when it made none. */
export function resultOf(request: DemoRequest, name: string): string {
    return [...request.steps].reverse().find((step) => step.name === name)?.result ?? '';
}
