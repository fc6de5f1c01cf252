import { storedSentence } from '../../i18n/failure-text';
import { t } from '../../i18n/t';
import { RunFileText } from './files';
import { firstLine, formatCount, formatDuration } from './format';
import type { NestedRows, RowContext } from './row-context';
import type { ToolRow } from './rows';
import { expandedRows, toggleRow } from './run-store';
import { shownTaskStatus, taskFigures, taskStatusLabel, type ShownTaskStatus } from './task-status';
import type { TimelineModel } from './timeline-model';
import { useElapsed } from './use-now';

const ICONS: Record<ShownTaskStatus, string> = {
    running: 'fa-spinner fa-spin',
    completed: 'fa-circle-check',
    failed: 'fa-circle-xmark',
    cancelled: 'fa-ban',
    interrupted: 'fa-plug-circle-xmark',
};

const TONES: Record<ShownTaskStatus, 'busy' | 'ok' | 'error' | 'info'> = {
    running: 'busy',
    completed: 'ok',
    failed: 'error',
    cancelled: 'info',
    interrupted: 'info',
};

function TaskResult({ nested, ctx, status }: { nested: TimelineModel; ctx: RowContext; status: ShownTaskStatus }) {
    const task = nested.task!;
    const fileKey = `${ctx.keyPrefix}task/${task.taskId}/summary-file`;
    const fileOpen = expandedRows.value.has(fileKey);
    return (
        <section class="tavern-agent__task-result" aria-label={t`Task result`}>
            {task.objective ? (
                <p class="tavern-agent__task-objective">
                    <span class="tavern-agent__strong">{t`Objective:`}</span> {task.objective}
                </p>
            ) : null}
            {status === 'running' ? <p class="tavern-agent__muted">{t`Working…`}</p> : null}
            {task.summary ? <pre class="tavern-agent__text" data-testid="task-summary">{task.summary}</pre> : null}
            {task.reason && status !== 'completed' ? (
                <p class="tavern-agent__call-error" data-testid="task-reason">
                    {storedSentence(task.reason)}
                </p>
            ) : null}
            {task.summaryPath ? (
                <div class="tavern-agent__toolbar">
                    <button type="button" class="menu_button tavern-agent__button" data-action="task-summary-file" aria-expanded={fileOpen} onClick={() => toggleRow(fileKey)}>
                        <span class="fa-solid fa-file-lines" aria-hidden="true" /> {task.summaryPath}
                    </button>
                </div>
            ) : null}
            {task.summaryPath && fileOpen ? <RunFileText runId={nested.runId} path={task.summaryPath} version={0} /> : null}
        </section>
    );
}

/**
 * One sub-agent task under the delegate call that started it: who works on what, its status, elapsed
 * time, tokens and rounds (live while it runs); opened, its result and its own steps, drawn by the same
 * row views as the run's.
 */
export function TaskBlock({ row, nested, ctx, nestedRows }: { row: ToolRow; nested: TimelineModel; ctx: RowContext; nestedRows: NestedRows }) {
    const task = nested.task!;
    const status = shownTaskStatus(task, ctx.model.summary.state);
    // The task's clock, read as a "now" for taskFigures: the same forward-only reading the run header uses.
    const elapsed = useElapsed(`${nested.runId}/${task.taskId}`, task.startedAt, task.endedAt ?? ctx.model.summary.endedAt, status === 'running') ?? 0;
    const figures = taskFigures(task, nested.summary, task.startedAt + elapsed, ctx.model.summary.endedAt);
    const expandKey = `${ctx.keyPrefix}${row.key}/task`;
    const open = expandedRows.value.has(expandKey);
    const bodyId = `tavern-agent-task-${nested.runId}-${task.taskId}`;
    const meta = [
        formatDuration(figures.elapsedMs) || '0 ms',
        `↑${formatCount(figures.tokensIn)} ↓${formatCount(figures.tokensOut)}`,
        `${t`rounds`} ${figures.rounds}`,
    ].join(' · ');
    const outcome = status === 'running' ? '' : firstLine(task.summary || storedSentence(task.reason ?? ''));
    return (
        <div
            class={`tavern-agent__task tavern-agent__task--${TONES[status]}${open ? ' tavern-agent__task--open' : ''}`}
            data-task-id={task.taskId}
            data-task-status={status}
            data-agent-id={task.agentId}
        >
            <button type="button" class="tavern-agent__task-toggle" aria-expanded={open} aria-controls={open ? bodyId : undefined} onClick={() => toggleRow(expandKey)}>
                <span class={`fa-solid ${ICONS[status]} fa-fw tavern-agent__row-icon`} aria-hidden="true" />
                <span class="tavern-agent__task-line">
                    <span class="tavern-agent__task-agent">{task.agentName}</span>
                    <span class={`tavern-agent__badge tavern-agent__badge--${status}`} data-testid="task-status">
                        {taskStatusLabel(status)}
                    </span>
                    <span class="tavern-agent__task-title">{task.title || firstLine(task.objective, 80)}</span>
                </span>
                <span class="tavern-agent__task-line tavern-agent__task-sub">
                    <span class="tavern-agent__event-meta" data-testid="task-meta">
                        {meta}
                    </span>
                </span>
                {outcome ? <span class="tavern-agent__task-line tavern-agent__task-outcome">{outcome}</span> : null}
            </button>
            {open ? (
                <div class="tavern-agent__task-body" id={bodyId}>
                    <TaskResult nested={nested} ctx={ctx} status={status} />
                    {nested.rows.length > 0 ? (
                        <ol class="tavern-agent__events tavern-agent__events--nested" aria-label={`${t`Steps of`} ${task.agentName}`}>
                            {nestedRows(nested.rows, nested)}
                        </ol>
                    ) : null}
                </div>
            ) : null}
        </div>
    );
}
