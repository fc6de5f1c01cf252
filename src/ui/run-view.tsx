import { t } from '../i18n/t';
import { RunFiles } from './timeline/files';
import { RunHistory } from './timeline/history';
import { RunHeader } from './timeline/run-header';
import { RowView, type RowContext } from './timeline/row-view';
import { END_STATES, type TimelineRow } from './timeline/rows';
import { liveRunId, viewError, viewedRun, viewRevision } from './timeline/run-store';
import { VirtualList } from './timeline/virtual-list';

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
    if (!viewed) {
        return (
            <div class="tavern-agent__timeline" aria-live="off">
                {error ? <p class="tavern-agent__error">{error}</p> : <p class="tavern-agent__muted">{t`No run in this chat yet.`}</p>}
                <RunHistory />
            </div>
        );
    }
    const { model, source } = viewed;
    const summary = model.summary;
    const ended = END_STATES.has(summary.state);
    const isLive = source === 'live' && liveRunId.value === model.runId;
    const ctx: RowContext = { model, summary, canRestore: ended && !isLive && source !== 'imported', keyPrefix: '' };
    // aria-live off: the panel section is a polite live region, but only the status badge and the alert
    // should speak here, not every new row.
    return (
        <div class="tavern-agent__timeline" aria-live="off">
            <div class="tavern-agent__run" data-run-id={model.runId} data-run-state={summary.state} data-source={source}>
                <RunHeader summary={summary} source={source} />
                {error ? <p class="tavern-agent__error">{error}</p> : null}
                {model.rows.length === 0 ? (
                    <p class="tavern-agent__muted">{ended ? t`This run recorded no steps.` : t`Preparing the run…`}</p>
                ) : (
                    <VirtualList
                        items={model.rows}
                        listKey={model.runId}
                        revision={revision}
                        itemKey={rowKey}
                        renderItem={(row) => <RowView row={row} ctx={ctx} />}
                        label={t`Run steps`}
                        follow={isLive}
                    />
                )}
                <RunFiles summary={summary} canRestore={ctx.canRestore} revision={ended ? summary.events : summary.calls} />
            </div>
            <RunHistory />
        </div>
    );
}
