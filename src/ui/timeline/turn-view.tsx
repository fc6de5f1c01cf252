import { computed } from '@preact/signals';
import { IMPORTED_CHAT_KEY } from '../../contract/archive';
import type { RunRecord } from '../../contract/records';
import type { RunPhase } from '../../contract/run-input';
import { t } from '../../i18n/t';
import { stateLabel } from '../../i18n/state-label';
import { shortId } from './format';
import { jumpToChatMessage } from './run-actions';
import { services } from '../services';
import { goingRuns, history, isRunGoing, liveRunId, openRun, viewedRun } from './run-store';
import { groupTurns, turnOfRun, type Turn, type TurnItem } from './turns';

/**
 * A turn's runs in the panel (issue 34 §5): above the shown run, the turn it belongs to (before, reply or
 * SillyTavern's own reply, after), each line labelled with its phase; History lists turns the same way.
 */

/** The open chat's runs as History lists them, a turn's runs together. */
export const chatEntries = computed(() => groupTurns(history.value.runs, goingRuns.value.size === 0 && liveRunId.value === null));
export const importedEntries = computed(() => groupTurns(history.value.imported));

export function phaseLabel(phase: RunPhase | 'sillytavern'): string {
    switch (phase) {
        case 'before':
            return t`Before`;
        case 'reply':
            return t`Reply`;
        case 'sillytavern':
            return t`SillyTavern reply`;
        case 'after':
            return t`After (background)`;
    }
}

export function PhaseBadge({ phase }: { phase: RunPhase | 'sillytavern' }) {
    return (
        <span class={`tavern-agent__badge tavern-agent__phase tavern-agent__phase--${phase}`} data-phase={phase}>
            {phaseLabel(phase)}
        </span>
    );
}

/**
 * A run's state as a list shows it: a run going on is running, and a keeper runs in the background. `compact`
 * (a turn's line, where room is short, its phase saying "background"): a completed run is a check mark, any
 * other state is spelled out.
 */
export function RunStateBadge({ record, phase, compact = false }: { record: RunRecord; phase: RunPhase | null; compact?: boolean }) {
    const state = isRunGoing(record.runId) ? 'running' : record.state;
    if (compact && state === 'completed') {
        return (
            <span class="tavern-agent__turn-done fa-solid fa-check fa-fw" data-state={state} title={stateLabel(state)}>
                <span class="tavern-agent__visually-hidden">{stateLabel(state)}</span>
            </span>
        );
    }
    return (
        <span class={`tavern-agent__badge tavern-agent__badge--${state}`} data-state={state}>
            {state === 'running' && phase === 'after' && !compact ? t`running in the background` : stateLabel(state)}
        </span>
    );
}

/** The phase a run is labelled with: in a turn, or a run before or after a reply on its own; null for any other run. */
export function shownPhase(record: Pick<RunRecord, 'runId' | 'phase'> | undefined, turn: Turn | null): RunPhase | null {
    if (!record) return null;
    if (turn || record.phase === 'before' || record.phase === 'after') return record.phase ?? 'reply';
    return null;
}

/** The turn the run is in, from the open chat's runs or the imported ones. */
export function turnOf(runId: string): Turn | null {
    return turnOfRun(chatEntries.value, runId) ?? turnOfRun(importedEntries.value, runId);
}

export function recordOf(runId: string): RunRecord | undefined {
    const state = history.value;
    return state.runs.find((run) => run.runId === runId) ?? state.imported.find((run) => run.runId === runId);
}

/**
 * SillyTavern's own reply in a turn: no run, its message when known, a link to it as a commit row has (an
 * imported turn's message is in a chat elsewhere: only its number).
 */
export function SillyTavernReply({ messageId: named, turnId, chat }: { messageId: number | null; turnId: string; chat: Pick<RunRecord, 'chatKey' | 'chatId'> }) {
    // No keeper named the reply (a director alone): the open chat knows the message after the turn's own.
    const found = named === null && chat.chatKey !== IMPORTED_CHAT_KEY ? services().chat.turnReply?.(turnId) : null;
    const messageId = named ?? (found && found.runId === null ? found.index : null);
    return (
        <>
            <PhaseBadge phase="sillytavern" />
            {messageId === null ? null : chat.chatKey === IMPORTED_CHAT_KEY ? (
                <span class="tavern-agent__muted">#{messageId}</span>
            ) : (
                <button type="button" class="tavern-agent__link" data-action="jump" title={t`Go to the message`} onClick={() => jumpToChatMessage(chat, messageId)}>
                    <span class="fa-solid fa-message" aria-hidden="true" /> #{messageId}
                </button>
            )}
        </>
    );
}

function TurnLine({ item, turnId, chat }: { item: TurnItem; turnId: string; chat: Pick<RunRecord, 'chatKey' | 'chatId'> }) {
    if (item.kind === 'sillytavern') {
        return (
            <li class="tavern-agent__turn-item" data-phase="sillytavern">
                <SillyTavernReply messageId={item.messageId} turnId={turnId} chat={chat} />
            </li>
        );
    }
    const { record, phase } = item;
    const shown = viewedRun.value?.model.runId === record.runId;
    return (
        <li class={`tavern-agent__turn-item${shown ? ' tavern-agent__turn-item--shown' : ''}`} data-phase={phase} data-turn-run={record.runId}>
            <button type="button" class="tavern-agent__link" aria-current={shown ? 'true' : undefined} title={`${record.profileId} · #${shortId(record.runId)}`} onClick={() => void openRun(record.runId)}>
                <PhaseBadge phase={phase} />
                <code class="tavern-agent__code tavern-agent__turn-profile">{record.profileId}</code>
                <RunStateBadge record={record} phase={phase} compact />
            </button>
        </li>
    );
}

/** The turn of the shown run, when it has runs around its reply: one line per run, the shown one marked. */
export function TurnStrip({ runId }: { runId: string }) {
    const turn = turnOf(runId);
    if (!turn) return null;
    const first = turn.items.find((item) => item.kind === 'run');
    if (!first || first.kind !== 'run') return null;
    return (
        <nav class="tavern-agent__turn" aria-label={t`This turn's runs`} data-turn-id={turn.turnId}>
            <ol class="tavern-agent__turn-list">
                {turn.items.map((item) => (
                    <TurnLine key={item.kind === 'run' ? item.record.runId : `st-${item.messageId}`} item={item} turnId={turn.turnId} chat={first.record} />
                ))}
            </ol>
        </nav>
    );
}
