import { ErrorBoundary } from '../error-boundary';
import { useEffect, useState } from 'preact/hooks';
import type { RunRecord } from '../../contract/records';
import { t } from '../../i18n/t';
import type { ReplyPlace } from '../../contract/reply-place';
import { services } from '../services';
import { chatStatus } from '../state';
import { stateLabel } from '../../i18n/state-label';
import { formatCost, formatTime, generationLabel, shortId } from './format';
import { deleteRunRecord, importRunFile, isRunChatOpen, jumpToMessage } from './run-actions';
import { history, isRunGoing, openRun, refreshHistory, viewedRun } from './run-store';
import { emptySummary } from './timeline-model';
import type { RunPhase } from '../../contract/run-input';
import { chatEntries, importedEntries, PhaseBadge, RunStateBadge, SillyTavernReply } from './turn-view';
import type { RunEntry, Turn } from './turns';

/** Where the run's reply is now, read from the open chat (null: no reply, imported, or another chat). */
function placeOf(record: RunRecord, imported: boolean): ReplyPlace | null {
    if (imported || record.messageId === null || !isRunChatOpen(record)) return null;
    return services().chat.replyPlace(record.runId, record.messageId);
}

/** Says what became of a reply that is not the one shown; null when it is shown (or unknown). */
function placeNote(place: ReplyPlace | null): string | null {
    if (!place || place.state === 'shown') return null;
    if (place.state === 'swiped') return `${t`Swiped away: another swipe is shown.`} (#${place.index}, ${t`swipe`} ${place.swipe + 1})`;
    if (place.state === 'replaced') {
        return place.byRunId ? `${t`Replaced by a later run`} (#${shortId(place.byRunId)}).` : t`Replaced: the message now holds another reply.`;
    }
    return t`The reply is no longer in the chat (deleted).`;
}

/** One run; in a turn (or a run before or after a reply on its own), labelled with its phase. */
function HistoryItem({ record, imported, phase = null }: { record: RunRecord; imported: boolean; phase?: RunPhase | null }) {
    const shown = viewedRun.value?.model.runId === record.runId;
    const running = isRunGoing(record.runId);
    const state = running ? 'running' : record.state;
    const place = running ? null : placeOf(record, imported);
    const note = placeNote(place);
    // Jump to where the reply is (a swiped-away one is still in its message); never to a message another reply took.
    const messageId = place === null ? record.messageId : place.state === 'shown' || place.state === 'swiped' ? place.index : null;
    return (
        <li
            class={`tavern-agent__history-item${shown ? ' tavern-agent__history-item--shown' : ''}`}
            data-history-run={record.runId}
            data-state={state}
            data-reply={place?.state}
            data-phase={phase ?? undefined}
        >
            <button type="button" class="tavern-agent__link tavern-agent__history-open" aria-current={shown ? 'true' : undefined} onClick={() => void openRun(record.runId)}>
                {phase ? <PhaseBadge phase={phase} /> : null}
                {phase ? <RunStateBadge record={record} phase={phase} /> : <span class={`tavern-agent__badge tavern-agent__badge--${state}`}>{stateLabel(state)}</span>}
                <span>{formatTime(record.createdAt)}</span>
                <span class="tavern-agent__muted">{generationLabel(record.generationType)}</span>
                <span class="tavern-agent__muted">#{shortId(record.runId)}</span>
                {record.usage?.cost !== undefined ? (
                    <span class="tavern-agent__muted" data-testid="history-cost" data-value={String(record.usage.cost)} title={t`Cost`}>
                        <span class="fa-solid fa-coins" aria-hidden="true" /> {formatCost(record.usage.cost)}
                    </span>
                ) : null}
            </button>
            <span class="tavern-agent__history-actions">
                {messageId !== null && !imported ? (
                    <button
                        type="button"
                        class="tavern-agent__link"
                        data-action="jump"
                        title={t`Go to the message`}
                        onClick={() => jumpToMessage({ ...emptySummary(record.runId), chatKey: record.chatKey, chatId: record.chatId }, messageId)}
                    >
                        <span class="fa-solid fa-message" aria-hidden="true" /> #{messageId}
                    </button>
                ) : null}
                <button
                    type="button"
                    class="tavern-agent__icon-button fa-solid fa-trash-can"
                    data-action="delete"
                    title={t`Delete this run's record`}
                    aria-label={t`Delete this run's record`}
                    disabled={running}
                    onClick={() => void deleteRunRecord(record.runId)}
                />
            </span>
            {note ? (
                <p class="tavern-agent__history-note tavern-agent__muted" data-testid="reply-note">
                    <span class="fa-solid fa-circle-info" aria-hidden="true" /> {note}
                </p>
            ) : null}
        </li>
    );
}

function ImportButton() {
    const [error, setError] = useState<string | null>(null);
    const [busy, setBusy] = useState(false);
    return (
        <div class="tavern-agent__transfer">
            <label class="menu_button tavern-agent__button" aria-disabled={busy}>
                <span class="fa-solid fa-file-import" aria-hidden="true" /> {t`Import a run`}
                <input
                    id="tavern_agent_run_import"
                    type="file"
                    accept=".json,application/json"
                    class="tavern-agent__file-input"
                    disabled={busy}
                    onChange={async (event) => {
                        const input = event.currentTarget;
                        const file = input.files?.[0];
                        input.value = '';
                        if (!file) return;
                        setBusy(true);
                        setError(await importRunFile(file).finally(() => setBusy(false)));
                    }}
                />
            </label>
            {error ? (
                <p class="tavern-agent__error" role="alert">
                    {error}
                </p>
            ) : null}
        </div>
    );
}

/** A turn's runs together, in the order they ran, SillyTavern's own reply where it came. */
function HistoryTurn({ turn, imported }: { turn: Turn; imported: boolean }) {
    const chat = turn.items.find((item) => item.kind === 'run');
    return (
        <li class="tavern-agent__history-turn" data-turn-id={turn.turnId}>
            <ul class="tavern-agent__history-list" aria-label={t`This turn's runs`}>
                {turn.items.map((item) =>
                    item.kind === 'run' ? (
                        <ErrorBoundary key={item.record.runId} label={t`this run`}>
                            <HistoryItem record={item.record} imported={imported} phase={item.phase} />
                        </ErrorBoundary>
                    ) : (
                        <li key={`st-${item.messageId}`} class="tavern-agent__history-item" data-phase="sillytavern">
                            <span class="tavern-agent__history-open">
                                <SillyTavernReply messageId={item.messageId} turnId={turn.turnId} chat={chat?.kind === 'run' ? chat.record : { chatKey: '', chatId: '' }} />
                            </span>
                        </li>
                    ),
                )}
            </ul>
        </li>
    );
}

function HistoryEntries({ entries, imported }: { entries: readonly RunEntry[]; imported: boolean }) {
    return (
        <>
            {entries.map((entry) =>
                entry.kind === 'turn' ? (
                    <HistoryTurn key={entry.turn.key} turn={entry.turn} imported={imported} />
                ) : (
                    <ErrorBoundary key={entry.record.runId} label={t`this run`}>
                        <HistoryItem record={entry.record} imported={imported} phase={entry.record.phase === 'before' || entry.record.phase === 'after' ? entry.record.phase : null} />
                    </ErrorBoundary>
                ),
            )}
        </>
    );
}

/** The open chat's earlier runs, newest first (a turn's runs together), and the runs imported for viewing. */
export function RunHistory() {
    const chatId = chatStatus.value.chatId;
    useEffect(() => {
        void refreshHistory();
    }, [chatId]);
    const state = history.value;
    // Where each reply is is read from the chat when drawn: opening the list draws it afresh (swipes happen outside the panel).
    const [, setOpened] = useState(0);
    return (
        <details class="tavern-agent__history" onToggle={() => setOpened((n) => n + 1)}>
            <summary>
                {t`History`} <span class="tavern-agent__muted">({state.runs.length})</span>
            </summary>
            {state.error ? <p class="tavern-agent__error">{state.error}</p> : null}
            {chatId === null ? <p class="tavern-agent__muted">{t`Open a chat to see its runs.`}</p> : null}
            {chatId !== null && state.runs.length === 0 && !state.loading ? <p class="tavern-agent__muted">{t`No runs in this chat yet.`}</p> : null}
            <ul class="tavern-agent__history-list" aria-label={t`Runs of this chat`}>
                <HistoryEntries entries={chatEntries.value} imported={false} />
            </ul>
            <h5>{t`Imported runs`}</h5>
            <ImportButton />
            <ul class="tavern-agent__history-list" aria-label={t`Imported runs`}>
                <HistoryEntries entries={importedEntries.value} imported />
            </ul>
        </details>
    );
}
