import { failureText, storedSentence } from '../../i18n/failure-text';
import { t } from '../../i18n/t';
import { callStatusLabel, firstLine, formatCost, formatCount, formatDuration, toolDisplayName } from './format';
import { RowDetail } from './row-detail';
import { scriptResultLine, scriptToolOf } from './script-details';
import { innerCallCounts } from './program-call-rows';
import type { FileChange, NoteRow, TimelineRow, ToolRow } from './rows';
import { expandedRows, toggleRow } from './run-store';
import { TaskBlock } from './task-view';
import { stateChangeSummary, stateWriteSummary } from './state-rows';
import type { NestedRows, RowContext } from './row-context';
import { useElapsed } from './use-now';
import { commitModeLabel, toolSummaryLine } from './tool-summary';

interface Face {
    icon: string;
    title: string;
    detail: string;
    tone: 'info' | 'ok' | 'error' | 'busy';
    meta: string;
    /** Said to screen readers; the eye reads it from the icon. */
    status?: string;
}

function changeTitle(change: FileChange): string {
    switch (change.action) {
        case 'direct_output':
            return t`Plain text saved`;
        case 'patch':
            return t`Patch applied`;
        case 'append':
            return t`Appended to file`;
        case 'restore':
            return t`Checkpoint restored`;
        default:
            return t`File written`;
    }
}

function noteFace(row: NoteRow): Omit<Face, 'meta'> {
    const p = row.payload;
    const text = (key: string) => (p[key] === null || p[key] === undefined ? '' : String(p[key]));
    switch (row.eventType) {
        case 'model-retry':
            return { icon: 'fa-rotate', title: t`Retrying the model call`, detail: [text('status'), text('message'), formatDuration(Number(p.delayMs))].filter(Boolean).join(' · '), tone: 'error' };
        case 'model-reminder':
            return { icon: 'fa-bell', title: t`Reminded to use tools`, detail: text('savedTo'), tone: 'error' };
        case 'budget-wrap-up':
            return { icon: 'fa-hourglass-end', title: t`Budget used up: one last turn to commit`, detail: text('reason'), tone: 'error' };
        case 'persist-promote':
            return { icon: 'fa-floppy-disk', title: t`Memory saved`, detail: `persist/ · ${text('files')}`, tone: 'ok' };
        case 'memory-attach':
            return p.stored
                ? { icon: 'fa-comment-dots', title: t`Memory written into the chat`, detail: `${text('mode')} · ${text('bytes')} B`, tone: 'ok' }
                : { icon: 'fa-triangle-exclamation', title: t`Memory kept in this browser only`, detail: text('reason'), tone: 'error' };
        case 'persist-skip':
            return { icon: 'fa-circle-info', title: t`Memory not saved: the run did not finish`, detail: text('reason'), tone: 'info' };
        case 'run-finish':
            return { icon: 'fa-flag-checkered', title: t`Finished`, detail: text('reason'), tone: 'ok' };
        case 'run-fail':
            return { icon: 'fa-circle-xmark', title: t`Failed`, detail: `${text('code')}: ${failureText({ code: text('code'), message: text('message') })}`, tone: 'error' };
        case 'run-resume':
            return { icon: 'fa-play', title: t`Resumed`, detail: `${text('events')} ${t`journaled events kept`}`, tone: 'info' };
        case 'conversation-compact': {
            const stubs = Array.isArray(p.stubs) ? p.stubs.length : 0;
            return { icon: 'fa-compress', title: t`Old tool results compacted`, detail: `${stubs} · ~${formatCount(Number(p.tokens))} / ${formatCount(Number(p.limit))} ${t`tokens`}`, tone: 'info' };
        }
        case 'run-continue':
            return { icon: 'fa-forward', title: t`Continued with more rounds`, detail: `+${text('rounds')}`, tone: 'info' };
        case 'run-cancel':
            return { icon: 'fa-ban', title: t`Stopped`, detail: storedSentence(text('reason')), tone: 'error' };
        case 'checkpoint-restore':
            return { icon: 'fa-clock-rotate-left', title: t`Checkpoint restored`, detail: `${text('path')} → v${text('version')}`, tone: 'ok' };
        case 'task-inject':
            return { icon: 'fa-inbox', title: t`Sub-agent results handed to the model`, detail: Array.isArray(p.taskIds) ? p.taskIds.join(', ') : '', tone: 'info' };
        case 'guidance-queue':
            return { icon: 'fa-hourglass-half', title: t`Guidance queued for the next turn`, detail: text('text'), tone: 'info' };
        case 'guidance-deliver':
            return { icon: 'fa-compass', title: t`Guidance delivered to the model`, detail: text('text'), tone: 'ok' };
        case 'lore-propose': {
            const after = (p.after ?? {}) as { title?: string };
            return { icon: 'fa-book', title: t`Lore change proposed`, detail: [after.title, text('reason')].filter(Boolean).join(' · '), tone: 'info' };
        }
        case 'lore-decide': {
            const written = p.written as { book?: string; uid?: number } | null;
            return p.decision === 'accepted'
                ? { icon: 'fa-book', title: t`Lore proposal accepted`, detail: written ? `${written.book} #${written.uid}` : '', tone: 'ok' }
                : { icon: 'fa-book', title: t`Lore proposal discarded`, detail: '', tone: 'info' };
        }
        case 'state-change':
            return { icon: 'fa-sliders', title: t`State change staged`, detail: stateChangeSummary(p), tone: 'info' };
        case 'state-write':
            return p.error
                ? { icon: 'fa-triangle-exclamation', title: t`State changes not written`, detail: text('error'), tone: 'error' }
                : { icon: 'fa-sliders', title: t`State written to the chat`, detail: stateWriteSummary(p), tone: 'ok' };
        default:
            return { icon: 'fa-circle-info', title: row.eventType ?? '', detail: firstLine(JSON.stringify(p)), tone: 'info' };
    }
}

/** "tool calls: 50 (2 ✕)" for a program's row, as its calls come in; empty for any other call. */
function programCallsText(row: ToolRow): string {
    const { calls, failed } = innerCallCounts(row);
    if (!calls) return '';
    return `${t`tool calls:`} ${calls}${failed ? ` (${failed} ✕)` : ''}`;
}

const STATUS_ICONS = { pending: 'fa-clock', running: 'fa-spinner fa-spin', completed: 'fa-check', error: 'fa-triangle-exclamation', stopped: 'fa-ban' } as const;

function faceOf(row: TimelineRow, hasTask: boolean): Face {
    switch (row.kind) {
        case 'model': {
            const tokens = row.usage ? `↑${formatCount(row.usage.input)} ↓${formatCount(row.usage.output)}` : '';
            const cost = row.cost === null ? '' : `${t`cost`} ${formatCost(row.cost)}`;
            const detail =
                row.status === 'running'
                    ? t`waiting for the model…`
                    : row.status === 'stopped'
                      ? t`no answer: the run ended first`
                      : firstLine(row.text) || row.toolCalls.map((c) => toolDisplayName(c.name)).join(', ') || (row.reasoning ? t`(reasoning only)` : t`(no text)`);
            return {
                icon: row.status === 'running' ? 'fa-spinner fa-spin' : row.status === 'stopped' ? 'fa-ban' : 'fa-comment-dots',
                title: `${t`Model`} #${row.round}${row.wrapUp ? ` · ${t`last turn`}` : ''}`,
                detail,
                tone: row.status === 'running' ? 'busy' : 'info',
                meta: [formatDuration(row.durationMs), tokens, cost].filter(Boolean).join(' · '),
                status: callStatusLabel(row.status),
            };
        }
        case 'tool': {
            const change = row.changes.at(-1);
            const script = scriptToolOf(row);
            // A finished script says what it returned (a skill script's files written are in the opened row).
            const detail = row.error
                ? `${row.error.code}: ${row.error.message}`
                : script && row.status === 'completed'
                  ? scriptResultLine(script, row.summary)
                  : change
                  ? `${change.path} · v${change.version}`
                  : row.status === 'pending'
                    ? t`waiting to run`
                    : row.status === 'running'
                      ? t`running…`
                      : row.status === 'stopped'
                        ? t`not finished: the run ended first`
                        : firstLine(toolSummaryLine(row.canonical ?? row.name, row.summary));
            return {
                icon: STATUS_ICONS[row.status],
                title: row.canonical ?? toolDisplayName(row.name),
                // A program's call count first: its result may take both lines the row shows.
                detail: [programCallsText(row), detail, row.nestedCount > 0 && !hasTask ? `${t`nested steps:`} ${row.nestedCount}` : ''].filter(Boolean).join(' · '),
                tone: row.status === 'error' ? 'error' : row.status === 'completed' ? 'ok' : row.status === 'stopped' ? 'info' : 'busy',
                meta: formatDuration(row.durationMs),
                status: callStatusLabel(row.status),
            };
        }
        case 'file':
            return { icon: 'fa-file-pen', title: changeTitle(row.change), detail: `${row.change.path} · v${row.change.version}`, tone: 'info', meta: '' };
        case 'commit':
            return { icon: 'fa-message', title: t`Committed to chat`, detail: `${row.path} → #${row.messageId} (${commitModeLabel(row.mode)})`, tone: 'ok', meta: '' };
        case 'note':
            return { ...noteFace(row), meta: '' };
    }
}

/**
 * The row's meta: its fixed text, or a running step's time so far, ticking on its own (the row around it is
 * memoised and does not re-render). One span for the row's whole life whose text changes: SillyTavern's
 * keyboard.js re-scans every element added under the body (some 25 selector queries each), and swapping a
 * running span for a finished one cost it a scan on every completed row.
 */
function RowMeta({ meta, running, rowKey, at }: { meta: string; running: boolean; rowKey: string; at: number }) {
    const elapsed = useElapsed(rowKey, at, null, running);
    const text = meta || (running ? formatDuration(elapsed) || '0 ms' : '');
    return (
        <span class="tavern-agent__event-meta" hidden={!text}>
            {text}
        </span>
    );
}

/**
 * One timeline row: a one-line summary that opens (Enter, Space, click) into the full step. It reads a
 * signal (expandedRows), so @preact/signals' shouldComponentUpdate skips it while its props (the row object,
 * the context) are the same: a burst of events renders only the rows it replaced. Its tone is a data
 * attribute, not a class: SillyTavern's keyboard.js re-scans every element whose class changes (some 25
 * selector queries each), and a live run changes its rows' tones all the time.
 */
export function RowView({ row, ctx }: { row: TimelineRow; ctx: RowContext }) {
    const nested = row.kind === 'tool' ? ctx.model.nestedOf(row.callId) : undefined;
    const face = faceOf(row, Boolean(nested?.task));
    const expandKey = ctx.keyPrefix + row.key;
    const open = expandedRows.value.has(expandKey);
    const status = row.kind === 'tool' ? row.status : row.kind === 'model' ? row.status : undefined;
    const detailId = `tavern-agent-row-${ctx.model.runId}-${expandKey}`;
    const nestedRows: NestedRows = (rows, model) =>
        rows.map((child) => (
            <li key={child.key}>
                <RowView row={child} ctx={{ ...ctx, model, keyPrefix: `${ctx.keyPrefix}${row.key}/` }} />
            </li>
        ));
    return (
        <div
            class={`tavern-agent__event${open ? ' tavern-agent__event--open' : ''}`}
            data-tone={face.tone}
            data-event-type={row.eventType}
            data-kind={row.kind}
            data-status={status}
            data-row-key={row.key}
            data-call-id={row.kind === 'tool' ? row.callId : undefined}
            data-cost={row.kind === 'model' && row.cost !== null ? String(row.cost) : undefined}
        >
            <button
                type="button"
                class="tavern-agent__row-toggle"
                data-row-focus=""
                aria-expanded={open}
                aria-controls={open ? detailId : undefined}
                onClick={() => toggleRow(expandKey)}
            >
                <span class={`fa-solid ${face.icon} fa-fw tavern-agent__row-icon`} aria-hidden="true" />
                <span class="tavern-agent__event-title">{face.title}</span>
                <span class="tavern-agent__event-detail">{face.detail}</span>
                <RowMeta meta={face.meta} running={!face.meta && status === 'running'} rowKey={ctx.model.runId + expandKey} at={row.at} />
                {/* Always there, empty when the row has no status: for the same reason as RowMeta. */}
                <span class="tavern-agent__visually-hidden">{face.status ?? ''}</span>
            </button>
            {open ? (
                <div class="tavern-agent__row-body" id={detailId}>
                    <RowDetail row={row} ctx={ctx} nestedRows={nestedRows} />
                </div>
            ) : null}
            {row.kind === 'tool' && nested?.task ? <TaskBlock row={row} nested={nested} ctx={ctx} nestedRows={nestedRows} /> : null}
        </div>
    );
}
