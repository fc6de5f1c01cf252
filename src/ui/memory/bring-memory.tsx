import { useState } from 'preact/hooks';
import type { ChatWithMemory } from '../../contract/memory-view';
import { t } from '../../i18n/t';
import { services } from '../services';

type Listing = { state: 'closed' } | { state: 'loading' } | { state: 'listed'; chats: ChatWithMemory[] } | { state: 'failed'; error: string };

/**
 * *Bring memory from…* (issue 37 §2): the open character's other chats that carry memory, each of which can
 * become this chat's memory seed. The list is asked for only when opened (each chat is read by the worker).
 */
export function BringMemory({ hasSeed, onSeeded }: { hasSeed: boolean; onSeeded(): void }) {
    const memory = services().memory;
    const [listing, setListing] = useState<Listing>({ state: 'closed' });
    const [error, setError] = useState<string | null>(null);
    const [busy, setBusy] = useState(false);
    if (!memory) return null;
    const open = async () => {
        setListing({ state: 'loading' });
        const result = await memory.chatsWithMemory();
        setListing(result.ok ? { state: 'listed', chats: result.value } : { state: 'failed', error: `${result.error.message} (${result.error.code})` });
    };
    const choose = async (chat: ChatWithMemory) => {
        if (hasSeed && !(await services().confirm(`${t`Replace this chat's memory seed with the memory of another chat?`} ${chat.fileName}`))) return;
        setBusy(true);
        const result = await memory.seedFrom(chat.fileName);
        setBusy(false);
        if (!result.ok) setError(`${result.error.message} (${result.error.code})`);
        else {
            setError(null);
            setListing({ state: 'closed' });
            onSeeded();
        }
    };
    return (
        <div class="tavern-agent__memory-bring" data-testid="memory-bring">
            {listing.state === 'closed' || listing.state === 'failed' ? (
                <button type="button" class="menu_button tavern-agent__button" data-action="memory-bring" onClick={() => void open()}>
                    <span class="fa-solid fa-file-import" aria-hidden="true" /> {t`Bring memory from…`}
                </button>
            ) : null}
            {listing.state === 'loading' ? <p class="tavern-agent__muted" role="status">{t`Looking for this character's chats that carry memory…`}</p> : null}
            {listing.state === 'failed' ? (
                <p class="tavern-agent__error" role="alert">
                    {listing.error}
                </p>
            ) : null}
            {listing.state === 'listed' && listing.chats.length === 0 ? <p class="tavern-agent__muted">{t`No other chat of this character carries memory.`}</p> : null}
            {listing.state === 'listed' && listing.chats.length ? (
                <ul class="tavern-agent__memory-chats" aria-label={t`Chats that carry memory`}>
                    {listing.chats.map((chat) => (
                        <li key={chat.fileName} data-testid="memory-source" data-chat={chat.fileName}>
                            <button type="button" class="tavern-agent__link" disabled={busy} onClick={() => void choose(chat)}>
                                {chat.fileName}
                            </button>
                            <span class="tavern-agent__muted">
                                {' · '}
                                {chat.messages} {t`messages`} · {chat.files} {t`memory files`}
                            </span>
                        </li>
                    ))}
                </ul>
            ) : null}
            {error ? (
                <p class="tavern-agent__error" role="alert" data-testid="memory-bring-error">
                    {error}
                </p>
            ) : null}
        </div>
    );
}
