import type { WireMessage, WireTool } from '../../contract/model';

/**
 * A request's size in tokens, estimated in the worker (SillyTavern's tokenizer lives on the page): a
 * character of a CJK script is about a token, other text about four characters a token. Rough, and only
 * used to decide when to compact; each message is counted once (cached by object), so a long run's check
 * costs a sum over its messages, not a scan of their text.
 */
const counted = new WeakMap<object, number>();

export function estimateTextTokens(text: string): number {
    let wide = 0;
    for (let index = 0; index < text.length; index += 1) if (text.charCodeAt(index) >= 0x2e80) wide += 1;
    return Math.ceil(wide + (text.length - wide) / 4);
}

function messageTokens(message: WireMessage): number {
    let tokens = counted.get(message);
    if (tokens === undefined) {
        tokens = 4 + estimateTextTokens(message.content ?? '');
        for (const call of message.tool_calls ?? []) tokens += estimateTextTokens(call.function.name) + estimateTextTokens(call.function.arguments);
        counted.set(message, tokens);
    }
    return tokens;
}

function toolsTokens(tools: readonly WireTool[]): number {
    let tokens = counted.get(tools);
    if (tokens === undefined) {
        tokens = estimateTextTokens(JSON.stringify(tools));
        counted.set(tools, tokens);
    }
    return tokens;
}

export function estimateRequestTokens(messages: readonly WireMessage[], tools: readonly WireTool[]): number {
    let tokens = toolsTokens(tools);
    for (const message of messages) tokens += messageTokens(message);
    return tokens;
}
