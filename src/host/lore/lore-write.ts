import type { LoreAcceptRequest, LoreDecision, LoreText } from '../../contract/lore';
import { describeError, fail, ok, type Result } from '../../contract/result';
import { chatBookName, ensureChatBook } from '../sillytavern/chat-lorebook';
import { openChatIdentity } from '../sillytavern/chat-identity';
import { getEngine } from '../worker/worker-client';
import { importWorldInfoModule, type WorldInfoModule } from '../sillytavern/world-info-module';

/** Writes one entry through SillyTavern's world-info API: the entry `uid` changed, or a new one made. */
async function writeEntry(wi: WorldInfoModule, book: string, uid: number | null, text: LoreText): Promise<{ uid: number; created: boolean }> {
    const data = await wi.loadWorldInfo(book);
    if (!data?.entries) throw new Error(`The lorebook "${book}" could not be loaded.`);
    let entry = uid === null ? undefined : data.entries[String(uid)];
    const created = entry === undefined;
    // An entry deleted since the run started comes back as a new one: the user accepted this text.
    entry ??= wi.createWorldInfoEntry(book, data);
    if (!entry) throw new Error(`No free entry id in the lorebook "${book}".`);
    entry.comment = text.title;
    entry.key = [...text.keys];
    entry.content = text.content;
    await wi.saveWorldInfo(book, data, true);
    wi.reloadEditor(book, false);
    return { uid: entry.uid, created };
}

/**
 * Accepts a lore proposal (issue 19): writes it through SillyTavern's world-info API, to the chat's own
 * lorebook unless the proposal names another in-scope book, then journals where it went in the run.
 */
export async function acceptLoreProposal(request: LoreAcceptRequest): Promise<Result<LoreDecision>> {
    if (openChatIdentity()?.integrity !== request.chatKey) return fail('lore.wrong_chat', 'Open the chat of this run to accept its lore proposals: they belong to that chat.');
    const { proposal, text } = request;
    let written: NonNullable<LoreDecision['written']>;
    try {
        const wi = await importWorldInfoModule();
        const chatBook = chatBookName(wi);
        const toChatBook = proposal.target.book === null || proposal.target.book === chatBook;
        let book: string;
        if (toChatBook) {
            book = (await ensureChatBook(wi)).name;
        } else {
            book = proposal.target.book!;
            if (!wi.world_names.includes(book)) return fail('lore.write_failed', `The lorebook "${book}" no longer exists.`);
        }
        // The uid names an entry of the target book only; in a chat book made after the run it means nothing.
        const uid = proposal.target.book === book ? proposal.target.uid : null;
        written = { book, ...(await writeEntry(wi, book, uid, text)) };
    } catch (error) {
        return fail('lore.write_failed', 'SillyTavern could not save the lore entry.', describeError(error));
    }
    const decision: LoreDecision = { proposalId: proposal.proposalId, decision: 'accepted', text, edited: request.edited, written };
    const journaled = await (await getEngine()).recordLoreDecision(request.runId, decision);
    return journaled.ok ? ok(decision) : journaled;
}

export async function discardLoreProposal(runId: string, proposalId: string): Promise<Result<LoreDecision>> {
    const decision: LoreDecision = { proposalId, decision: 'discarded', text: null, edited: false, written: null };
    const journaled = await (await getEngine()).recordLoreDecision(runId, decision);
    return journaled.ok ? ok(decision) : journaled;
}
