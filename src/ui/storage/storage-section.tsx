import { useEffect, useState } from 'preact/hooks';
import type { ChatRunCount } from '../../contract/storage';
import { t } from '../../i18n/t';
import { services } from '../services';
import { refreshHistory } from '../timeline/run-store';
import { formatBytes } from './format-bytes';
import { RetentionFields } from './retention-fields';

interface Usage {
    usage: number | null;
    quota: number | null;
    persisted: boolean | null;
}

/** The browser's own figures for this origin (every SillyTavern user and extension of it shares them). */
async function readUsage(): Promise<Usage> {
    const storage = globalThis.navigator?.storage;
    const [estimate, persisted] = await Promise.all([
        storage?.estimate ? storage.estimate().catch(() => null) : Promise.resolve(null),
        storage?.persisted ? storage.persisted().catch(() => null) : Promise.resolve(null),
    ]);
    return { usage: estimate?.usage ?? null, quota: estimate?.quota ?? null, persisted };
}

function StorageManager() {
    const [usage, setUsage] = useState<Usage | null>(null);
    const [chats, setChats] = useState<ChatRunCount[] | null>(null);
    const [notice, setNotice] = useState<{ text: string; error: boolean } | null>(null);
    const settings = services().storage;
    const openChat = services().chat.open();

    const refresh = async () => {
        setUsage(await readUsage());
        const overview = await (await services().engine()).storageOverview();
        if (overview.ok) setChats(overview.value.chats);
        else setNotice({ text: `${overview.error.message} (${overview.error.code})`, error: true });
    };
    useEffect(() => void refresh(), []);

    const prune = async (question: string, request: Parameters<Awaited<ReturnType<ReturnType<typeof services>['engine']>>['pruneRuns']>[0]) => {
        if (!(await services().confirm(question))) return;
        const result = await (await services().engine()).pruneRuns(request);
        if (!result.ok) setNotice({ text: `${result.error.message} (${result.error.code})`, error: true });
        else {
            const held = result.value.held ? ` · ${t`kept for the memory only they hold:`} ${result.value.held}` : '';
            setNotice({ text: `${t`Runs deleted:`} ${result.value.deleted} · ${t`kept as summaries:`} ${result.value.summarized}${held}`, error: false });
        }
        await refresh();
        await refreshHistory();
    };

    const totalRuns = chats?.reduce((sum, chat) => sum + chat.runs, 0) ?? 0;
    return (
        <div class="tavern-agent__storage-body">
            <p class="tavern-agent__muted" data-testid="storage-usage">
                {usage?.usage != null ? `${t`Browser storage used by this site:`} ${formatBytes(usage.usage)}${usage.quota ? ` / ${formatBytes(usage.quota)}` : ''}` : t`The browser does not report its storage use.`}
                {' · '}
                {usage?.persisted ? t`kept persistently` : t`may be cleared by the browser when space runs low`}
            </p>
            {usage && !usage.persisted && settings ? (
                <button
                    type="button"
                    class="menu_button tavern-agent__button"
                    data-testid="storage-persist"
                    onClick={() => void settings.persist().then(() => refresh())}
                >
                    {t`Ask to keep data persistently`}
                </button>
            ) : null}
            <RetentionFields onError={(text) => setNotice({ text, error: true })} />
            {notice ? (
                <p class={notice.error ? 'tavern-agent__error' : 'tavern-agent__muted'} role={notice.error ? 'alert' : 'status'} data-testid="storage-notice">
                    {notice.text}
                </p>
            ) : null}
            <p class="tavern-agent__muted" data-testid="storage-total">
                {chats === null ? t`Counting runs…` : `${t`Runs stored:`} ${totalRuns}`}
            </p>
            <div class="tavern-agent__toolbar">
                {settings ? (
                    <button
                        type="button"
                        class="menu_button tavern-agent__button"
                        data-testid="storage-prune-all"
                        onClick={() => void prune(t`Apply the retention settings to every chat now?`, { action: 'retention', chatKeys: 'all', policy: settings.retention() })}
                    >
                        {t`Prune now`}
                    </button>
                ) : null}
                <button
                    type="button"
                    class="menu_button tavern-agent__button"
                    data-testid="storage-delete-all"
                    disabled={totalRuns === 0}
                    onClick={() => void prune(t`Delete every stored run of every chat? The chats are not changed.`, { action: 'delete', chatKeys: 'all' })}
                >
                    {t`Delete all runs`}
                </button>
            </div>
            <ul class="tavern-agent__storage-chats">
                {(chats ?? []).map((chat) => (
                    <li data-testid="storage-chat" data-chat-key={chat.chatKey} data-runs={chat.runs}>
                        <span class="tavern-agent__storage-chat-name">{chat.chatId}</span>
                        {openChat?.chatKey === chat.chatKey ? <span class="tavern-agent__muted"> ({t`this chat`})</span> : null}
                        <span class="tavern-agent__muted">
                            {' · '}
                            {chat.runs} {t`runs`}
                            {chat.summaries ? ` (${chat.summaries} ${t`as summaries`})` : ''}
                        </span>
                        {chat.heldMemoryBytes ? (
                            <span class="tavern-agent__muted" data-testid="storage-held-memory" title={t`Memory too large to travel with the chat: this browser holds the only copy, and keeps it until a later reply carries the chat's memory.`}>
                                {' · '}
                                {t`memory held only here:`} {formatKilobytes(chat.heldMemoryBytes)}
                            </span>
                        ) : null}{' '}
                        <button
                            type="button"
                            class="menu_button tavern-agent__button"
                            data-testid="storage-delete-chat"
                            onClick={() => void prune(`${t`Delete every stored run of this chat? The chat is not changed.`} ${chat.chatId}`, { action: 'delete', chatKeys: [chat.chatKey] })}
                        >
                            {t`Delete runs`}
                        </button>
                    </li>
                ))}
            </ul>
        </div>
    );
}

/** The collapsible "Storage" section: usage, retention settings and pruning; built only while open. */
export function StorageSection() {
    const [open, setOpen] = useState(false);
    return (
        <details class="tavern-agent__section tavern-agent__storage" id="tavern_agent_storage" onToggle={(event) => setOpen(event.currentTarget.open)}>
            <summary>
                <h4>{t`Storage`}</h4>
            </summary>
            {open ? <StorageManager /> : null}
        </details>
    );
}

/** "312 KB": a size a user reads at a glance. */
function formatKilobytes(bytes: number): string {
    return `${Math.max(1, Math.round(bytes / 1024)).toLocaleString()} KB`;
}
