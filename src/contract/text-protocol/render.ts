import type { WireMessage, WireTool } from '../model';
import { TOOL_CALL_CLOSE, TOOL_CALL_OPEN, TOOL_RESPONSE_CLOSE, TOOL_RESPONSE_OPEN } from './parse';

/** A message of a Text Completion prompt before SillyTavern's instruct template formats it. */
export interface TextPromptMessage {
    role: 'system' | 'user' | 'assistant';
    content: string;
    name?: string;
}

/**
 * The tools in the system part, as JSON signatures inside `<tools>…</tools>`, with how to call them: the
 * Hermes / Qwen convention local models are trained on.
 */
export function toolsBlock(tools: readonly WireTool[]): string {
    if (tools.length === 0) return '';
    const signatures = tools.map((tool) => JSON.stringify({ type: 'function', function: tool.function })).join('\n');
    return [
        '# Tools',
        '',
        'You may call one or more functions to assist with the user query.',
        '',
        'You are provided with function signatures within <tools></tools> XML tags:',
        '<tools>',
        signatures,
        '</tools>',
        '',
        'For each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:',
        `${TOOL_CALL_OPEN}`,
        '{"name": <function-name>, "arguments": <args-json-object>}',
        `${TOOL_CALL_CLOSE}`,
        'You may write several calls in one turn. The results come back in the next turn inside <tool_response></tool_response> tags, in the order of the calls; never write <tool_response> yourself.',
    ].join('\n');
}

/** One call as the model should have written it (invalid calls are shown back as the model wrote them). */
export function renderCall(call: { function: { name: string; arguments: string } }): string {
    if (call.function.name === '') return `${TOOL_CALL_OPEN}${call.function.arguments}${TOOL_CALL_CLOSE}`;
    let args: unknown;
    try {
        args = JSON.parse(call.function.arguments || '{}');
    } catch {
        args = call.function.arguments;
    }
    return `${TOOL_CALL_OPEN}\n${JSON.stringify({ name: call.function.name, arguments: args })}\n${TOOL_CALL_CLOSE}`;
}

/**
 * Turns the engine's chat-format conversation into the text protocol: every system message (the agent's
 * instructions, the card, notes) joins one system part with the tools block; an assistant turn with calls
 * is its narration plus the calls; the results of one turn's calls become one user turn of
 * `<tool_response>` blocks, in order.
 */
export function toTextMessages(messages: readonly WireMessage[], tools: readonly WireTool[]): TextPromptMessage[] {
    const system: string[] = [];
    const out: TextPromptMessage[] = [];
    let responses: string[] = [];
    const flushResponses = () => {
        if (responses.length === 0) return;
        out.push({ role: 'user', content: responses.join('\n') });
        responses = [];
    };
    for (const message of messages) {
        if (message.role === 'tool') {
            responses.push(`${TOOL_RESPONSE_OPEN}\n${message.content ?? ''}\n${TOOL_RESPONSE_CLOSE}`);
            continue;
        }
        flushResponses();
        const content = message.content ?? '';
        if (message.role === 'system' && out.length === 0) {
            if (content.trim()) system.push(content);
            continue;
        }
        if (message.role === 'assistant') {
            const parts = [content.trim(), ...(message.tool_calls ?? []).map(renderCall)].filter((part) => part !== '');
            out.push({ role: 'assistant', content: parts.join('\n'), ...(message.name ? { name: message.name } : {}) });
            continue;
        }
        // A later system message (a notice in the middle of the run) stays where it is.
        out.push({ role: message.role, content, ...(message.name ? { name: message.name } : {}) });
    }
    flushResponses();
    const tooling = toolsBlock(tools);
    const systemText = [...system, tooling].filter((part) => part.trim() !== '').join('\n\n');
    return systemText ? [{ role: 'system', content: systemText }, ...out] : out;
}

/** Stop strings for the text protocol: the model must not write results itself, yet may write many calls. */
export const TEXT_PROTOCOL_STOPS: readonly string[] = [TOOL_RESPONSE_OPEN];

/**
 * Puts the protocol's stops ahead of a connection's own, and drops `</tool_call>` (that would allow one
 * call per turn). First, because SillyTavern keeps only the first four stops for OpenAI-style backends.
 */
export function withProtocolStops(stops: unknown): string[] {
    const own = Array.isArray(stops) ? stops.filter((s): s is string => typeof s === 'string' && s !== '' && !s.includes(TOOL_CALL_CLOSE)) : [];
    return [...TEXT_PROTOCOL_STOPS, ...own.filter((stop) => !TEXT_PROTOCOL_STOPS.includes(stop))];
}
