import { t } from '../../i18n/t';

/**
 * How the timeline shows the state tools' work (issue 36): each staged change as a diff of the state (path,
 * value before, value after), and the write that put the run's changes into the chat. Values are the JSON
 * lines the journal keeps, shown as text.
 */
interface DiffLine {
    path: string;
    before: string | null;
    after: string | null;
}

function diffLines(payload: Record<string, unknown>): DiffLine[] {
    return Array.isArray(payload.diff) ? (payload.diff as DiffLine[]) : [];
}

/** `scope: /hp 10 → 7, /gold 3 → 5` on one line. */
export function stateChangeSummary(payload: Record<string, unknown>): string {
    const lines = diffLines(payload).map((line) => `${line.path} ${line.before ?? '∅'} → ${line.after ?? '∅'}`);
    return [String(payload.scope ?? ''), lines.join(', ')].filter(Boolean).join(': ');
}

/** The change as a unified diff of the state, with its reason. */
export function stateDiffText(payload: Record<string, unknown>): string {
    const lines = diffLines(payload).flatMap((line) => [...(line.before === null ? [] : [`- ${line.path}: ${line.before}`]), ...(line.after === null ? [] : [`+ ${line.path}: ${line.after}`])]);
    const reason = typeof payload.reason === 'string' && payload.reason ? [`# ${payload.reason}`] : [];
    return [`${t`State`}: ${String(payload.scope ?? '')}`, ...reason, ...lines].join('\n');
}

export function stateWriteSummary(payload: Record<string, unknown>): string {
    const scopes = Array.isArray(payload.scopes) ? payload.scopes.join(', ') : '';
    const where = typeof payload.messageId === 'number' ? ` → #${payload.messageId}` : '';
    return `${scopes}${where} · ${t`changes:`} ${String(payload.changes ?? 0)}`;
}
