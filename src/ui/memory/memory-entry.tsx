import { useState } from 'preact/hooks';
import type { MemoryChange } from '../../contract/memory-change';
import type { MemoryEntry } from '../../contract/memory-view';
import { t } from '../../i18n/t';
import { services } from '../services';

/** Applies a change; resolves with the error to show (message and code), or null when it was made. */
export type ApplyChange = (change: MemoryChange) => Promise<string | null>;

function sizeText(entry: MemoryEntry): string {
    return entry.limit === null ? `${entry.chars} ${t`chars`}` : `${entry.chars} / ${entry.limit} ${t`chars`}`;
}

/** The editor of one file: its whole text, front matter included; a refused save keeps what was typed. */
function EntryEditor({ entry, apply, close }: { entry: MemoryEntry; apply: ApplyChange; close(): void }) {
    const [draft, setDraft] = useState(entry.text);
    const [error, setError] = useState<string | null>(null);
    const [busy, setBusy] = useState(false);
    const save = async () => {
        setBusy(true);
        const refused = await apply({ kind: 'write', path: entry.path, text: draft });
        setBusy(false);
        if (refused) setError(refused);
        else close();
    };
    return (
        <div class="tavern-agent__memory-editor">
            <textarea
                class="text_pole textarea_compact tavern-agent__memory-textarea"
                aria-label={`${t`Edit`} ${entry.path}`}
                data-testid="memory-textarea"
                rows={8}
                value={draft}
                onInput={(event) => setDraft(event.currentTarget.value)}
            />
            {error ? (
                <p class="tavern-agent__error" role="alert" data-testid="memory-error">
                    {error}
                </p>
            ) : null}
            <div class="tavern-agent__toolbar">
                <button type="button" class="menu_button tavern-agent__button" data-action="memory-save" disabled={busy || draft === entry.text} onClick={() => void save()}>
                    {t`Save`}
                </button>
                <button type="button" class="menu_button tavern-agent__button" data-action="memory-cancel" disabled={busy} onClick={close}>
                    {t`Cancel`}
                </button>
            </div>
        </div>
    );
}

/** One memory file: title, path, size and limit; pin, unpin, edit, delete. Its text is shown as text, never HTML. */
export function MemoryEntryRow({ entry, apply, disabled }: { entry: MemoryEntry; apply: ApplyChange; disabled: boolean }) {
    const [editing, setEditing] = useState(false);
    const [error, setError] = useState<string | null>(null);
    const run = async (change: MemoryChange) => setError(await apply(change));
    const remove = async () => {
        if (await services().confirm(`${t`Delete this memory file? Later runs of this chat will not see it.`} ${entry.path}`)) await run({ kind: 'delete', path: entry.path });
    };
    const over = entry.pinned && entry.limit !== null && entry.chars > entry.limit;
    return (
        <li class="tavern-agent__memory-entry" data-testid="memory-entry" data-path={entry.path} data-pinned={entry.pinned ? 'true' : 'false'} data-block={entry.block ? 'true' : 'false'}>
            <div class="tavern-agent__memory-head">
                {entry.pinned ? <span class="fa-solid fa-thumbtack" title={t`Pinned`} aria-label={t`Pinned`} /> : null}
                <strong class="tavern-agent__memory-title">{entry.title}</strong>
                <code class="tavern-agent__muted tavern-agent__memory-path">{entry.path}</code>
                <span class={over ? 'tavern-agent__error' : 'tavern-agent__muted'} data-testid="memory-size">
                    {sizeText(entry)}
                </span>
            </div>
            <div class="tavern-agent__toolbar">
                {entry.pinnable ? (
                    <button type="button" class="menu_button tavern-agent__button" data-action={entry.pinned ? 'memory-unpin' : 'memory-pin'} disabled={disabled} onClick={() => void run({ kind: 'pin', path: entry.path, pinned: !entry.pinned })}>
                        {entry.pinned ? t`Unpin` : t`Pin`}
                    </button>
                ) : null}
                <button type="button" class="menu_button tavern-agent__button" data-action="memory-edit" disabled={disabled || editing} onClick={() => setEditing(true)}>
                    {t`Edit`}
                </button>
                <button type="button" class="menu_button tavern-agent__button" data-action="memory-delete" disabled={disabled} onClick={() => void remove()}>
                    {t`Delete`}
                </button>
            </div>
            {error ? (
                <p class="tavern-agent__error" role="alert" data-testid="memory-error">
                    {error}
                </p>
            ) : null}
            {editing ? <EntryEditor entry={entry} apply={apply} close={() => setEditing(false)} /> : null}
        </li>
    );
}
