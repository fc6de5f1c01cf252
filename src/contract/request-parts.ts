import type { WireMessage, WireTool } from './model';

/**
 * What the model was sent (issue 38 §1), kept as content-addressed parts: each message of a request, and its
 * tool definitions, is stored once per run under `request-parts/<hash>.json`; each `model-request` names its
 * parts in order. A part keeps where its text comes from (`pieces`), so the timeline can size each kind.
 */
export const REQUEST_PARTS_ROOT = 'request-parts';

export const PART_KINDS = ['system', 'chat', 'lore', 'memory', 'tool-definitions', 'tool-results', 'agent', 'notes'] as const;
export type PartKind = (typeof PART_KINDS)[number];

/** A run of `kind` text in a part's sized text, from `from` to `to` (characters). */
export type PartPiece = [kind: PartKind, from: number, to: number];

export type RequestPart = { message: WireMessage; pieces: PartPiece[] } | { tools: WireTool[] };

/** The parts of one request, named by hash: its messages in order, and its tool definitions. */
export interface RequestRef {
    parts: string[];
    tools: string;
}

export function partPath(hash: string): string {
    return `${REQUEST_PARTS_ROOT}/${hash}.json`;
}

/** A message's text as it is sized: its content, then each tool call it makes (name and arguments). */
export function sizedText(message: WireMessage): string {
    const calls = (message.tool_calls ?? []).map((call) => `${call.function.name} ${call.function.arguments}`);
    return [message.content ?? '', ...calls].filter((text) => text !== '').join('\n');
}

/**
 * A content address: 53 bits of cyrb53 over the text, and its length. Not cryptographic (nothing here is a
 * secret or a trust boundary); synchronous and fast, so recording a request never holds it up.
 */
export function contentHash(text: string): string {
    let h1 = 0xdeadbeef;
    let h2 = 0x41c6ce57;
    for (let index = 0; index < text.length; index += 1) {
        const code = text.charCodeAt(index);
        h1 = Math.imul(h1 ^ code, 2654435761);
        h2 = Math.imul(h2 ^ code, 1597334677);
    }
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    const hash = 4294967296 * (2097151 & h2) + (h1 >>> 0);
    return `${hash.toString(16).padStart(14, '0')}-${text.length.toString(16)}`;
}
