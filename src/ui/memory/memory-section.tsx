import { useEffect, useRef, useState } from 'preact/hooks';
import type { MemoryChange } from '../../contract/memory-change';
import type { MemorySeed } from '../../contract/memory-seed';
import { memoryEntries, type MemorySnapshot } from '../../contract/memory-view';
import { t } from '../../i18n/t';
import { MemoryBuildControl } from './memory-build-control';
import { services } from '../services';
import { chatRevision, chatStatus } from '../state';
import { refreshHistory } from '../timeline/run-store';
import { BringMemory } from './bring-memory';
import { MemoryEntryRow } from './memory-entry';

function seedOrigin(seed: MemorySeed): string {
    const when = new Date(seed.at).toLocaleString();
    return seed.source.kind === 'chat' ? `${t`from the chat`} ${seed.source.chat} · ${when}` : `${t`from this chat's memory build`} · ${when}`;
}

/** Where the memory shown comes from, and the chat's seed (shown even while a message's memory is in use). */
function MemoryOrigin({ snapshot }: { snapshot: MemorySnapshot }) {
    const { home, seed } = snapshot;
    return (
        <div class="tavern-agent__memory-origin">
            <p class="tavern-agent__muted" data-testid="memory-home" data-home={home.kind}>
                {home.kind === 'message' ? `${t`Current memory: carried by message`} #${home.messageId}` : home.kind === 'seed' ? t`Current memory: the chat's memory seed` : t`This chat has no memory yet.`}
            </p>
            {seed ? (
                <p class="tavern-agent__muted" data-testid="memory-seed" data-seed-chat={seed.source.kind === 'chat' ? seed.source.chat : ''}>
                    <span class="fa-solid fa-seedling" aria-hidden="true" /> {t`Memory seed`} {seedOrigin(seed)}
                    {home.kind === 'message' ? ` · ${t`not in use: a message of this chat carries memory`}` : ''}
                </p>
            ) : null}
        </div>
    );
}

function MemoryManager() {
    const memory = services().memory;
    const chatId = chatStatus.value.chatId;
    const revision = chatRevision.value;
    const [snapshot, setSnapshot] = useState<MemorySnapshot | null>(null);
    const [error, setError] = useState<string | null>(null);
    const [busy, setBusy] = useState(false);
    const reads = useRef(0);
    const load = async () => {
        if (!memory || chatId === null) return;
        // Reads answer in any order: only the last one asked is shown (a read from before a change shows less).
        const asked = (reads.current += 1);
        const result = await memory.read();
        if (asked !== reads.current) return;
        if (result.ok) {
            setSnapshot(result.value);
            setError(null);
        } else setError(`${result.error.message} (${result.error.code})`);
    };
    // The chat's messages carry its memory: read again whenever they may have changed, or another chat opened.
    useEffect(() => void load(), [chatId, revision]);
    // A memory build that finishes leaves its memory as the chat's seed: show it when it lands.
    const build = services().memoryBuild;
    useEffect(() => build?.onChange(() => void load()), [build, chatId]);
    if (!memory) return null;
    if (chatId === null) return <p class="tavern-agent__muted">{t`Open a chat to see its memory.`}</p>;
    const apply = async (change: MemoryChange): Promise<string | null> => {
        setBusy(true);
        const result = await memory.change(change);
        setBusy(false);
        if (!result.ok) return `${result.error.message} (${result.error.code})`;
        await load();
        // The change is journaled as a run of its own: History lists it.
        void refreshHistory();
        return null;
    };
    const entries = snapshot ? memoryEntries(snapshot.files) : [];
    return (
        <div class="tavern-agent__memory-body" data-testid="memory-view">
            {error ? (
                <p class="tavern-agent__error" role="alert">
                    {error}
                </p>
            ) : null}
            {snapshot ? <MemoryOrigin snapshot={snapshot} /> : <p class="tavern-agent__muted">{t`Reading the chat's memory…`}</p>}
            {entries.length ? (
                <ul class="tavern-agent__memory-list" aria-label={t`Memory files`}>
                    {entries.map((entry) => (
                        <MemoryEntryRow key={`${entry.path}\u0000${entry.text.length}`} entry={entry} apply={apply} disabled={busy} />
                    ))}
                </ul>
            ) : null}
            <div class="tavern-agent__memory-actions">
                <button type="button" class="menu_button" data-action="memory-refresh" onClick={() => void load()}>
                    <span class="fa-solid fa-rotate" aria-hidden="true" /> {t`Refresh`}
                </button>
            </div>
            {snapshot && snapshot.home.kind !== 'message' ? <BringMemory hasSeed={snapshot.seed !== null} onSeeded={() => void load()} /> : null}
            <MemoryBuildControl />
        </div>
    );
}

/** The collapsible "Memory" section (issue 37): the open chat's memory blocks and files; built only while open. */
export function MemorySection() {
    const [open, setOpen] = useState(false);
    if (!services().memory) return null;
    return (
        <details class="tavern-agent__section tavern-agent__memory" id="tavern_agent_memory" onToggle={(event) => setOpen(event.currentTarget.open)}>
            <summary>
                <h4>{t`Memory`}</h4>
            </summary>
            {/* One manager per chat: another chat's memory (and its Edit buttons, which would write into this chat)
                is never shown while this chat's is read. */}
            {open ? <MemoryManager key={chatStatus.value.chatId ?? ''} /> : null}
        </details>
    );
}
