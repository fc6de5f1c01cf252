import { t } from '../../i18n/t';

/**
 * A commit's mode in words ("replace" and "append" are the tool's argument values). "replaced" beside a
 * message number read as if a later reply had replaced it, so the label says what the commit wrote.
 */
export function commitModeLabel(mode: string): string {
    return mode === 'replace' ? t`whole text` : mode === 'append' ? t`appended` : mode;
}

/**
 * A tool row's one line, in the reader's language for the results every run has (commit, finish); other
 * tools' results are the model's view of the call, shown as the tool wrote them.
 */
export function toolSummaryLine(name: string, summary: string): string {
    if (name === 'workspace.commit' || name === 'workspace_commit') {
        const committed = /^Committed \S+ to the chat as message #(\d+) \((replace|append)\)/.exec(summary);
        if (committed) return `${t`Committed to the chat as message`} #${committed[1]} (${commitModeLabel(committed[2]!)})`;
    }
    if (name === 'workspace.finish' || name === 'workspace_finish') {
        if (summary.startsWith('Run finished; the committed reply stays in the chat.')) return t`Run finished; the committed reply stays in the chat.`;
        if (summary.startsWith('Run finished.')) return t`Run finished.`;
    }
    return summary;
}
