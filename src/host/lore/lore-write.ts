import type { LoreAcceptOutcome, LoreAcceptRequest, LoreDecision, LoreProposal, LoreText } from '../../contract/lore';
import { describeError, fail, ok, type ErrorInfo, type Result } from '../../contract/result';
import { t } from '../../i18n/t';
import { chatBookName, ensureChatBook } from '../sillytavern/chat-lorebook';
import { openChatIdentity } from '../sillytavern/chat-identity';
import { getEngine } from '../worker/worker-client';
import { importWorldInfoModule, type WorldInfoModule } from '../sillytavern/world-info-module';
import { loadWorldInfoFresh } from '../sillytavern/world-info-fresh';
import { entryChange, sameAsShown } from './entry-change';

/** Writes one entry through SillyTavern's world-info API: the entry `uid` changed, or a new one made. */
async function writeEntry(wi: WorldInfoModule, book: string, uid: number | null, text: LoreText): Promise<{ uid: number; created: boolean }> {
    // The server's copy: writing back a copy this page read before another tab saved would undo that save.
    const data = await loadWorldInfoFresh(wi, book);
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

/** Writes the proposal's text to the chat's own lorebook (created and bound when missing) unless it names another in-scope book. */
async function writeProposal(wi: WorldInfoModule, proposal: LoreProposal, text: LoreText): Promise<Result<NonNullable<LoreDecision['written']>>> {
    try {
        const chatBook = chatBookName(wi);
        const toChatBook = proposal.target.book === null || proposal.target.book === chatBook;
        let book: string;
        if (toChatBook) {
            book = (await ensureChatBook(wi)).name;
        } else {
            book = proposal.target.book!;
            if (!wi.world_names.includes(book)) return fail('lore.write_failed', `${t`This lorebook no longer exists:`} ${book}`);
        }
        // The uid names an entry of the target book only; in a chat book made after the run it means nothing.
        const uid = proposal.target.book === book ? proposal.target.uid : null;
        return ok({ book, ...(await writeEntry(wi, book, uid, text)) });
    } catch (error) {
        return fail('lore.write_failed', t`SillyTavern could not save the lore entry.`, describeError(error));
    }
}

/** A refused claim in the user's words: another tab answers, or answered, the proposal. */
function claimRefused(error: ErrorInfo): Result<never> {
    if (error.code === 'lore.proposal_busy') return { ok: false, error: { ...error, message: t`Another tab is answering this lore proposal right now. Nothing was written here.` } };
    if (error.code === 'lore.already_decided') return { ok: false, error: { ...error, message: t`This lore proposal was already answered, perhaps in another tab. Nothing was written here.` } };
    return { ok: false, error };
}

/**
 * Accepts a lore proposal (issue 19, hardened by issue 39 §7). When the entry it edits changed since the run
 * began, nothing is written: the outcome carries the entry then and now for the panel's three-way view, and
 * only an Accept that saw the entry as it still is goes on. Then the proposal is claimed for this tab in
 * IndexedDB (another tab that answers it too is refused and writes nothing), written through SillyTavern's
 * world-info API, and the decision journaled in the run, which ends the claim.
 */
export async function acceptLoreProposal(request: LoreAcceptRequest): Promise<Result<LoreAcceptOutcome>> {
    if (openChatIdentity()?.integrity !== request.chatKey) return fail('lore.wrong_chat', t`Open the chat of this run to accept its lore proposals: they belong to that chat.`);
    const { proposal, text } = request;
    let wi: WorldInfoModule;
    try {
        wi = await importWorldInfoModule();
        const { book } = proposal.target;
        const current = book !== null && proposal.target.uid !== null && wi.world_names.includes(book) ? await loadWorldInfoFresh(wi, book) : null;
        const change = entryChange(current, proposal);
        if (change && proposal.before && !sameAsShown(request.acceptChanged, change)) return ok({ kind: 'changed', start: proposal.before, now: change.now });
    } catch (error) {
        return fail('lore.write_failed', t`SillyTavern could not read the lore entry.`, describeError(error));
    }
    const engine = await getEngine();
    const claim = await engine.claimLoreProposal(request.runId, proposal.proposalId);
    if (!claim.ok) return claimRefused(claim.error);
    // The entry was read, and the claim made, over awaits: a proposal for "this chat's book" is written into the
    // open chat's book, which must still be the run's chat.
    if (openChatIdentity()?.integrity !== request.chatKey) {
        await engine.releaseLoreClaim(request.runId, proposal.proposalId, claim.value.token);
        return fail('lore.wrong_chat', t`Another chat was opened while the proposal was being accepted; nothing was written.`);
    }
    const written = await writeProposal(wi, proposal, text);
    if (!written.ok) {
        await engine.releaseLoreClaim(request.runId, proposal.proposalId, claim.value.token);
        return written;
    }
    const decision: LoreDecision = { proposalId: proposal.proposalId, decision: 'accepted', text, edited: request.edited, written: written.value };
    const journaled = await engine.recordLoreDecision(request.runId, decision, claim.value.token);
    return journaled.ok ? ok({ kind: 'written', decision }) : journaled;
}

/** Discards a proposal: claimed like Accept, so a discard never lands beside another tab's accept. */
export async function discardLoreProposal(runId: string, proposalId: string): Promise<Result<LoreDecision>> {
    const engine = await getEngine();
    const claim = await engine.claimLoreProposal(runId, proposalId);
    if (!claim.ok) return claimRefused(claim.error);
    const decision: LoreDecision = { proposalId, decision: 'discarded', text: null, edited: false, written: null };
    const journaled = await engine.recordLoreDecision(runId, decision, claim.value.token);
    if (!journaled.ok) await engine.releaseLoreClaim(runId, proposalId, claim.value.token);
    return journaled.ok ? ok(decision) : journaled;
}
