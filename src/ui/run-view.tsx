import { useCallback, useMemo } from 'preact/hooks';
import { t } from '../i18n/t';
import { LoreProposals } from './lore/lore-proposals';
import { RunFiles } from './timeline/files';
import { RunHistory } from './timeline/history';
import { RemoteReplies } from './timeline/remote-replies';
import { RunHeader } from './timeline/run-header';
import { PlanChecklist } from './timeline/plan-view';
import type { RowContext } from './timeline/row-context';
import { RowView } from './timeline/row-view';
import { END_STATES, type TimelineRow } from './timeline/rows';
import { isRunGoing, viewError, viewedRun, viewRevision } from './timeline/run-store';
import { TurnStrip } from './timeline/turn-view';
import { VirtualList } from './timeline/virtual-list';
import { ExtToolApprovals } from './ext-tools/ext-tool-approvals';
import { StreamingTurns } from './timeline/streaming-turn';
import { ErrorBoundary } from './error-boundary';

const rowKey = (row: TimelineRow) => row.key;

/**
 * The timeline of the shown run (live, stored or imported): header, controls, one row per step, then the
 * run's files and the chat's history. Keeps the hooks the e2e tests use: `.tavern-agent__run[data-run-state]`,
 * the `[role=alert]` with the error code, and `.tavern-agent__event[data-event-type]` on rows.
 */
export function RunView() {
    const viewed = viewedRun.value;
    const revision = viewRevision.value;
    const error = viewError.value;
    const model = viewed?.model ?? null;
    const source = viewed?.source ?? null;
    const ended = model !== null && END_STATES.has(model.summary.state);
    // Going on now: the chat's run, or a keeper working beside it (issue 34).
    const isLive = source === 'live' && model !== null && isRunGoing(model.runId);
    const canRestore = ended && !isLive && source !== 'imported';
    // The same context while the run goes on, so unchanged rows are not rendered again (see RowView).
    const ctx = useMemo<RowContext | null>(() => (model ? { model, canRestore, keyPrefix: '' } : null), [model, canRestore]);
    // The same function while the context is the same, so the list draws again only the rows that changed.
    const renderRow = useCallback(
        (row: TimelineRow) => (
            <ErrorBoundary label={t`this step`}>
                <RowView row={row} ctx={ctx!} />
            </ErrorBoundary>
        ),
        [ctx],
    );
    if (!viewed || !model || !ctx) {
        return (
            <div class="tavern-agent__timeline" aria-live="off">
                {error ? <p class="tavern-agent__error">{error}</p> : <p class="tavern-agent__muted">{t`No run in this chat yet.`}</p>}
                <RemoteReplies />
                <RunHistory />
            </div>
        );
    }
    const summary = model.summary;
    // aria-live off: the panel section is a polite live region, but only the status badge and the alert
    // should speak here, not every new row.
    return (
        <div class="tavern-agent__timeline" aria-live="off">
            <TurnStrip runId={model.runId} />
            <div class="tavern-agent__run" data-run-id={model.runId} data-run-state={summary.state} data-source={viewed.source}>
                <RunHeader summary={summary} source={viewed.source} />
                {summary.plan && summary.plan.length > 0 ? <PlanChecklist items={summary.plan} /> : null}
                {error ? <p class="tavern-agent__error">{error}</p> : null}
                <ExtToolApprovals runId={model.runId} />
                {model.rows.length === 0 ? (
                    <p class="tavern-agent__muted">{ended ? t`This run recorded no steps.` : t`Preparing the run…`}</p>
                ) : (
                    <VirtualList
                        items={model.rows}
                        listKey={model.runId}
                        revision={revision}
                        itemKey={rowKey}
                        renderItem={renderRow}
                        label={t`Run steps`}
                        follow={isLive}
                    />
                )}
                {/* Read again on a lore event, and once more when the run ends (a catch-up), not on every event of the run. */}
                <LoreProposals runId={model.runId} chatKey={summary.chatKey} revision={model.loreEvents * 2 + (ended ? 1 : 0)} canDecide={viewed.source !== 'imported'} />
                {isLive ? <StreamingTurns runId={model.runId} /> : null}
                <RunFiles summary={summary} canRestore={ctx.canRestore} revision={ended ? summary.events : summary.calls} />
            </div>
            <RemoteReplies />
            <RunHistory />
        </div>
    );
}
