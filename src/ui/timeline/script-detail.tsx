import { t } from '../../i18n/t';
import { Block, Facts } from './detail-parts';
import type { NestedRows, RowContext } from './row-context';
import type { ToolRow } from './rows';
import { programInput, scriptLogs, skillScriptInput, type ScriptTool } from './script-details';
import type { Loaded } from './use-run-data';

/**
 * An opened script call (issue 35), before its result: a program's code, its args and every tool it called
 * (nested rows, each opening into its own arguments and result); a skill script's skill, path and args.
 * All of it is the model's or the script's text: shown, never parsed as HTML.
 */
export function ScriptInput({ tool, row, args, ctx, nestedRows }: { tool: ScriptTool; row: ToolRow; args: Loaded<string> | null; ctx: RowContext; nestedRows: NestedRows }) {
    const stored = args?.state === 'ready' ? args.value : null;
    if (tool === 'skill') {
        const input = stored === null ? null : skillScriptInput(stored);
        if (!input) return <Block label={t`Arguments`} loaded={args} />;
        return (
            <>
                <Facts items={[[t`Skill`, input.skill], [t`Script`, <code class="tavern-agent__code">{input.path}</code>]]} />
                {input.args ? <Block label={t`Arguments`} text={input.args} /> : null}
            </>
        );
    }
    const input = stored === null ? null : programInput(stored);
    return (
        <>
            {input ? <Block label={t`Program`} text={input.code} testId="program-code" /> : <Block label={t`Arguments`} loaded={args} />}
            {input?.args ? <Block label={t`Program arguments`} text={input.args} /> : null}
            {row.innerCalls.length > 0 ? (
                <section class="tavern-agent__nested" aria-label={t`Tools the program called`} data-testid="program-calls">
                    <h5>
                        {t`Tools the program called`} ({row.innerCalls.length})
                    </h5>
                    <ol class="tavern-agent__events tavern-agent__events--nested">{nestedRows(row.innerCalls, ctx.model)}</ol>
                </section>
            ) : null}
        </>
    );
}

/** A skill script's log, after its result: what it wrote with log.*, which the model never reads. */
export function ScriptLog({ result }: { result: Loaded<string> | null }) {
    const logs = result?.state === 'ready' ? scriptLogs(result.value) : [];
    if (!logs.length) return null;
    return <Block label={t`Script log`} text={logs.map((log) => `[${log.level}] ${log.text}`).join('\n')} testId="script-log" />;
}
