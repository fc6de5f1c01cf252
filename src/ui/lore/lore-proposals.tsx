import { useState } from 'preact/hooks';
import type { LoreProposal, LoreText } from '../../contract/lore';
import type { Result } from '../../contract/result';
import { t } from '../../i18n/t';
import { services } from '../services';
import { DiffBody } from '../timeline/diff-view';
import { refreshViewed } from '../timeline/run-store';
import { loreDiff, parseKeys } from './lore-diff';
import { useLoreProposals, type ProposalItem } from './lore-data';
import { threeWay } from './lore-three-way';
import { ThreeWayView } from './lore-three-way-view';
import { confirmRegexKeys, RegexKeysNote } from './regex-keys-note';

/** An Accept the entry's change held back: what to write, and the entry as the user is shown it now. */
interface HeldAccept {
    text: LoreText;
    edited: boolean;
    start: LoreText;
    now: LoreText | null;
}

function targetText(proposal: LoreProposal): string {
    const book = proposal.target.book === null ? t`the chat's lorebook (created on accept)` : proposal.target.book;
    if (proposal.target.uid !== null) return `${t`Edit in`} ${book}`;
    return proposal.ref ? `${t`This chat's own version, in`} ${book}` : `${t`New entry in`} ${book}`;
}

function EditForm({ initial, busy, onAccept, onCancel }: { initial: LoreText; busy: boolean; onAccept(text: LoreText): void; onCancel(): void }) {
    const [title, setTitle] = useState(initial.title);
    const [keys, setKeys] = useState(initial.keys.join(', '));
    const [content, setContent] = useState(initial.content);
    return (
        <div class="tavern-agent__lore-edit">
            <label>
                {t`Title`}
                <input class="text_pole" data-field="title" value={title} onInput={(e) => setTitle((e.currentTarget as HTMLInputElement).value)} />
            </label>
            <label>
                {t`Keys (comma-separated)`}
                <input class="text_pole" data-field="keys" value={keys} onInput={(e) => setKeys((e.currentTarget as HTMLInputElement).value)} />
            </label>
            <label>
                {t`Content`}
                <textarea class="text_pole" data-field="content" rows={6} value={content} onInput={(e) => setContent((e.currentTarget as HTMLTextAreaElement).value)} />
            </label>
            <div class="tavern-agent__lore-actions">
                <button type="button" class="menu_button tavern-agent__button" data-action="accept-edit" disabled={busy || content.trim() === ''} onClick={() => onAccept({ title: title.trim(), keys: parseKeys(keys), content })}>
                    {t`Accept the edit`}
                </button>
                <button type="button" class="menu_button tavern-agent__button" data-action="cancel-edit" disabled={busy} onClick={onCancel}>
                    {t`Cancel`}
                </button>
            </div>
        </div>
    );
}

function ProposalView({ item, runId, chatKey, canDecide, reload }: { item: ProposalItem; runId: string; chatKey: string | null; canDecide: boolean; reload(): Promise<void> }) {
    const { proposal, decision } = item;
    const [editing, setEditing] = useState(false);
    const [busy, setBusy] = useState(false);
    const [error, setError] = useState<string | null>(null);
    const [held, setHeld] = useState<HeldAccept | null>(null);
    const state = decision ? decision.decision : 'pending';
    const shown = decision?.text ?? proposal.after;

    async function decide<T>(action: () => Promise<Result<T>>, onValue?: (value: T) => void): Promise<void> {
        setBusy(true);
        setError(null);
        try {
            const result = await action();
            if (!result.ok) setError(`${result.error.message} (${result.error.code})`);
            else {
                setEditing(false);
                setHeld(null);
                onValue?.(result.value);
            }
            await reload();
            await refreshViewed();
        } catch (failure) {
            setError(failure instanceof Error ? failure.message : String(failure));
        } finally {
            setBusy(false);
        }
    }
    const lore = services().lore;
    /** Writes `text`, or holds it in the three-way view when the entry changed since the run began (and again if it changes meanwhile). */
    const write = (text: LoreText, edited: boolean, acceptChanged?: { now: LoreText | null }) =>
        decide(
            () => lore!.accept({ runId, chatKey: chatKey ?? '', proposal, text, edited, ...(acceptChanged ? { acceptChanged } : {}) }),
            (outcome) => {
                if (outcome.kind === 'changed') setHeld({ text, edited, start: outcome.start, now: outcome.now });
            },
        );
    const accept = async (text: LoreText, edited: boolean) => {
        // Keys SillyTavern runs as regular expressions need a second yes, in its own popup.
        if (!(await confirmRegexKeys(text.keys, services().confirm))) return;
        await write(text, edited);
    };
    const discard = () => void decide(() => lore!.discard(runId, proposal.proposalId));

    return (
        <li class="tavern-agent__lore-proposal" data-proposal-id={proposal.proposalId} data-state={state}>
            <div class="tavern-agent__lore-head">
                <strong>{proposal.after.title || t`(untitled)`}</strong> <span class="tavern-agent__muted">{targetText(proposal)}</span>
                {proposal.ref ? <code class="tavern-agent__code">{proposal.ref}</code> : null}
            </div>
            {proposal.reason ? <p class="tavern-agent__lore-reason">{proposal.reason}</p> : null}
            <div class="tavern-agent__diff">
                <DiffBody diff={{ ops: loreDiff(proposal.before, shown) }} />
            </div>
            <RegexKeysNote keys={shown.keys} />
            {error ? (
                <p class="tavern-agent__error" role="alert">
                    {error}
                </p>
            ) : null}
            {decision ? (
                <p class="tavern-agent__lore-decision" data-decision={decision.decision}>
                    {decision.decision === 'accepted' && decision.written
                        ? `${t`Accepted: written to`} ${decision.written.book} #${decision.written.uid}${decision.edited ? ` (${t`edited`})` : ''}`
                        : t`Discarded: nothing was written.`}
                </p>
            ) : canDecide && lore ? (
                held ? (
                    <ThreeWayView model={threeWay(held.start, held.now, held.text)} busy={busy} onAccept={() => void write(held.text, held.edited, { now: held.now })} onCancel={() => setHeld(null)} />
                ) : editing ? (
                    <EditForm initial={proposal.after} busy={busy} onAccept={(text) => void accept(text, true)} onCancel={() => setEditing(false)} />
                ) : (
                    <div class="tavern-agent__lore-actions">
                        <button type="button" class="menu_button tavern-agent__button" data-action="accept" disabled={busy} onClick={() => void accept(proposal.after, false)}>
                            <span class="fa-solid fa-check" aria-hidden="true" /> {t`Accept`}
                        </button>
                        <button type="button" class="menu_button tavern-agent__button" data-action="edit" disabled={busy} onClick={() => setEditing(true)}>
                            <span class="fa-solid fa-pen" aria-hidden="true" /> {t`Edit then accept`}
                        </button>
                        <button type="button" class="menu_button tavern-agent__button" data-action="discard" disabled={busy} onClick={discard}>
                            <span class="fa-solid fa-xmark" aria-hidden="true" /> {t`Discard`}
                        </button>
                    </div>
                )
            ) : null}
        </li>
    );
}

/**
 * The run's lore proposals (issue 19), live while it works and after: each a diff against the entry it
 * changes, with Accept, Edit then accept and Discard. Nothing is written to a lorebook before Accept; keys
 * SillyTavern runs as regular expressions are marked and need a second yes, and an entry changed since the run
 * began is shown three ways first (issue 39 §7).
 */
export function LoreProposals({ runId, chatKey, revision, canDecide }: { runId: string; chatKey: string | null; revision: number; canDecide: boolean }) {
    const { items, reload } = useLoreProposals(runId, revision);
    if (items.length === 0) return null;
    const pending = items.filter((item) => !item.decision).length;
    return (
        <section class="tavern-agent__lore" aria-label={t`Lore proposals`}>
            <h5>
                {t`Lore proposals`} <span class="tavern-agent__muted">({pending} {t`waiting`})</span>
            </h5>
            <ul class="tavern-agent__lore-list">
                {items.map((item) => (
                    <ProposalView key={item.proposal.proposalId} item={item} runId={runId} chatKey={chatKey} canDecide={canDecide} reload={reload} />
                ))}
            </ul>
        </section>
    );
}
