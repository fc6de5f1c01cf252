import type { WireMessage, WireTool } from '../../contract/model';
import type { WorkspaceFile } from '../../contract/records';
import { contentHash, partPath, sizedText, type PartKind, type PartPiece, type RequestPart, type RequestRef } from '../../contract/request-parts';
import type { AgentInvocation } from '../agents/agent';

/** Each message's and tool set's part, made once (by object): a long run hashes only what is new. */
const made = new WeakMap<object, { hash: string; content: string }>();
/** Parts already stored, per run session: a repeated part is stored once (a resumed run may store one again). */
const storedBySession = new WeakMap<object, Set<string>>();

/**
 * The request as content-addressed parts (issue 38 §1), and the files of the parts not stored yet, to go
 * with its `model-request` event.
 */
export function recordRequest(agent: AgentInvocation, messages: readonly WireMessage[], tools: WireTool[]): { request: RequestRef; files: WorkspaceFile[] } {
    let stored = storedBySession.get(agent.session);
    if (!stored) {
        stored = new Set();
        storedBySession.set(agent.session, stored);
    }
    const files: WorkspaceFile[] = [];
    const take = (key: object, part: () => RequestPart): string => {
        let entry = made.get(key);
        if (!entry) {
            const content = JSON.stringify(part());
            entry = { hash: contentHash(content), content };
            made.set(key, entry);
        }
        if (!stored.has(entry.hash)) {
            stored.add(entry.hash);
            files.push(agent.workspace.record(partPath(entry.hash), entry.content, 0));
        }
        return entry.hash;
    };
    const lore = agent.input.worldInfo.entries.map((entry) => entry.content.trim()).filter((content) => content.length >= 20);
    const parts = messages.map((message, index) => take(message, () => ({ message, pieces: piecesOf(message, index < agent.track.startLength, lore) })));
    return { request: { parts, tools: take(tools, () => ({ tools })) }, files };
}

/** Where a message's text comes from: the kind of message, with this turn's lore cut out of the prompt. */
export function piecesOf(message: WireMessage, starting: boolean, lore: readonly string[]): PartPiece[] {
    const text = sizedText(message);
    const kind: PartKind =
        message.role === 'system'
            ? 'system'
            : message.role === 'tool'
              ? (message.content ?? '').startsWith('persist/')
                  ? 'memory'
                  : 'tool-results'
              : starting
                ? 'chat'
                : message.role === 'assistant'
                  ? 'agent'
                  : 'notes';
    if (!starting || lore.length === 0) return text.length ? [[kind, 0, text.length]] : [];
    const found: Array<[number, number]> = [];
    for (const entry of lore) {
        for (let at = text.indexOf(entry); at !== -1; at = text.indexOf(entry, at + entry.length)) {
            if (!found.some(([from, to]) => at < to && at + entry.length > from)) found.push([at, at + entry.length]);
        }
    }
    found.sort((a, b) => a[0] - b[0]);
    const pieces: PartPiece[] = [];
    let at = 0;
    for (const [from, to] of found) {
        if (from > at) pieces.push([kind, at, from]);
        pieces.push(['lore', from, to]);
        at = to;
    }
    if (at < text.length) pieces.push([kind, at, text.length]);
    return pieces;
}
