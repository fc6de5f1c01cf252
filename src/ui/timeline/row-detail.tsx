import { IMPORTED_CHAT_KEY } from '../../contract/archive';
import { t } from '../../i18n/t';
import { Block, CopyButton, Facts } from './detail-parts';
import { DiffView } from './diff-view';
import { finishReasonLabel, formatCost, formatCount, formatDuration, formatTime, prettyJson, storedToolResultText, toolDisplayName } from './format';
import { commitDraftText, jumpToMessage } from './run-actions';
import type { CommitRow, FileRow, ModelRow, NoteRow, TimelineRow, ToolRow } from './rows';
import type { NestedRows, RowContext } from './row-context';
import { ScriptInput, ScriptLog } from './script-detail';
import { scriptToolOf } from './script-details';
import { useRunFile } from './use-run-data';
import { commitModeLabel } from './tool-summary';
import { stateDiffText } from './state-rows';
import { RequestView } from './request-view';

/** The opened row: everything the step recorded. All of it is text from models, tools and chats: shown, never parsed as HTML. */

function ModelDetail({ row, runId }: { row: ModelRow; runId: string }) {
    const tokens = row.usage ? `${formatCount(row.usage.input)} ${t`in`} · ${formatCount(row.usage.output)} ${t`out`}` : '';
    const calls = row.toolCalls.map((c) => toolDisplayName(c.name)).join(', ');
    return (
        <>
            <Facts items={[[t`Duration`, formatDuration(row.durationMs)], [t`Tokens`, tokens], [t`Cost`, row.cost === null ? '' : formatCost(row.cost)], [t`Tool calls`, calls], [t`Stop reason`, finishReasonLabel(row.finishReason)]]} />
            {row.text ? <Block label={t`Narration`} text={row.text} /> : null}
            {row.reasoning ? (
                <details class="tavern-agent__reasoning">
                    <summary>{t`Reasoning`}</summary>
                    <pre class="tavern-agent__text">{row.reasoning}</pre>
                </details>
            ) : null}
            {row.request ? <RequestView runId={runId} request={row.request} /> : null}
            <div class="tavern-agent__toolbar">
                <CopyButton text={() => [row.text, row.reasoning ? `\n[${t`Reasoning`}]\n${row.reasoning}` : '', calls ? `\n[${t`Tool calls`}] ${calls}` : ''].join('\n').trim()} />
            </div>
        </>
    );
}

function ToolDetail({ row, ctx, nestedRows }: { row: ToolRow; ctx: RowContext; nestedRows: NestedRows }) {
    const args = useRunFile(ctx.model.runId, row.argsPath);
    const result = useRunFile(ctx.model.runId, row.status === 'completed' || row.status === 'error' ? row.resultPath : null);
    const argsText = args?.state === 'ready' ? prettyJson(args.value) : '';
    const resultText = result?.state === 'ready' ? storedToolResultText(result.value) : '';
    const nested = ctx.model.nestedOf(row.callId);
    const script = scriptToolOf(row);
    return (
        <>
            <Facts items={[[t`Duration`, formatDuration(row.durationMs)], [t`Call id`, <code class="tavern-agent__code">{row.callId}</code>]]} />
            {row.error ? (
                <div class="tavern-agent__call-error">
                    <p>
                        <code class="tavern-agent__code">{row.error.code}</code> {row.error.message}
                    </p>
                    {row.error.hint ? (
                        <p>
                            <span class="tavern-agent__strong">{t`Hint:`}</span> {row.error.hint}
                        </p>
                    ) : null}
                </div>
            ) : null}
            {row.changes.map((change) =>
                change.checkpointSeq === null ? null : <DiffView key={change.checkpointSeq} runId={ctx.model.runId} seq={change.checkpointSeq} canRestore={ctx.canRestore} summary={ctx.model.summary} />,
            )}
            {script && row.argsPath ? (
                <ScriptInput tool={script} row={row} args={args} ctx={ctx} nestedRows={nestedRows} />
            ) : row.argsPath ? (
                <Block label={t`Arguments`} loaded={args ? (args.state === 'ready' ? { state: 'ready', value: argsText } : args) : null} />
            ) : null}
            {row.resultPath ? <Block label={t`Result`} loaded={result ? (result.state === 'ready' ? { state: 'ready', value: resultText } : result) : null} /> : null}
            {script === 'skill' ? <ScriptLog result={result} /> : null}
            {nested && !nested.task && nested.rows.length > 0 ? (
                <section class="tavern-agent__nested" aria-label={t`Sub-agent steps`}>
                    <h5>{t`Sub-agent steps`}</h5>
                    <ol class="tavern-agent__events tavern-agent__events--nested">{nestedRows(nested.rows, nested)}</ol>
                </section>
            ) : null}
            <div class="tavern-agent__toolbar">
                <CopyButton text={() => `${row.canonical ?? row.name} (${row.status})\n\n[${t`Arguments`}]\n${argsText}\n\n[${t`Result`}]\n${resultText}`} />
            </div>
        </>
    );
}

function FileDetail({ row, ctx }: { row: FileRow; ctx: RowContext }) {
    const { change } = row;
    const committable = ctx.canRestore && change.path.startsWith('output/') && ['failed', 'cancelled', 'interrupted'].includes(ctx.model.summary.state);
    return (
        <>
            {change.checkpointSeq === null ? (
                <p class="tavern-agent__muted">{t`No checkpoint was recorded for this change.`}</p>
            ) : (
                <DiffView runId={ctx.model.runId} seq={change.checkpointSeq} canRestore={ctx.canRestore} summary={ctx.model.summary} />
            )}
            {committable ? (
                <div class="tavern-agent__toolbar">
                    <button type="button" class="menu_button tavern-agent__button" data-action="commit-draft" onClick={() => void commitDraftText(ctx.model.summary, change.path)}>
                        <span class="fa-solid fa-message" aria-hidden="true" /> {t`Commit this text`}
                    </button>
                </div>
            ) : null}
        </>
    );
}

function CommitDetail({ row, ctx }: { row: CommitRow; ctx: RowContext }) {
    return (
        <>
            <Facts items={[[t`File`, <code class="tavern-agent__code">{row.path}</code>], [t`Mode`, commitModeLabel(row.mode)], [t`Characters`, String(row.chars)], [t`Reason`, row.reason ?? '']]} />
            {ctx.model.summary.chatKey !== IMPORTED_CHAT_KEY ? (
                <div class="tavern-agent__toolbar">
                    <button type="button" class="menu_button tavern-agent__button" data-action="jump" onClick={() => jumpToMessage(ctx.model.summary, row.messageId)}>
                        <span class="fa-solid fa-arrow-right" aria-hidden="true" /> {t`Go to the message`}
                    </button>
                </div>
            ) : null}
        </>
    );
}

function NoteDetail({ row }: { row: NoteRow }) {
    const text = row.eventType === 'state-change' ? stateDiffText(row.payload) : JSON.stringify(row.payload, null, 2);
    return (
        <>
            <Facts items={[[t`Time`, formatTime(row.at)], [t`Event`, <code class="tavern-agent__code">{row.eventType}</code>]]} />
            <pre class="tavern-agent__text">{text}</pre>
            <div class="tavern-agent__toolbar">
                <CopyButton text={() => text} />
            </div>
        </>
    );
}

export function RowDetail({ row, ctx, nestedRows }: { row: TimelineRow; ctx: RowContext; nestedRows: NestedRows }) {
    switch (row.kind) {
        case 'model':
            return <ModelDetail row={row} runId={ctx.model.runId} />;
        case 'tool':
            return <ToolDetail row={row} ctx={ctx} nestedRows={nestedRows} />;
        case 'file':
            return <FileDetail row={row} ctx={ctx} />;
        case 'commit':
            return <CommitDetail row={row} ctx={ctx} />;
        case 'note':
            return <NoteDetail row={row} />;
    }
}
