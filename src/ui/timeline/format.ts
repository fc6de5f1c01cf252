import { toolResultText } from '../../contract/tool-result-text';
import { t } from '../../i18n/t';
import { uiLocale } from '../../i18n/locale';

/** Numbers, times and names as the timeline shows them. Every word goes through SillyTavern's i18n. */

export function formatDuration(ms: number | null | undefined): string {
    if (ms === null || ms === undefined || !Number.isFinite(ms)) return '';
    if (ms < 1000) return `${Math.round(ms)} ms`;
    const seconds = ms / 1000;
    if (seconds < 60) return `${seconds.toFixed(seconds < 10 ? 1 : 0)} s`;
    const minutes = Math.floor(seconds / 60);
    const rest = Math.floor(seconds % 60);
    if (minutes < 60) return `${minutes}:${String(rest).padStart(2, '0')}`;
    return `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}:${String(rest).padStart(2, '0')}`;
}

/** A cost in the currency the profile priced in, with no symbol: 0.0012, 0.53, 12.40. */
export function formatCost(cost: number): string {
    if (cost === 0) return '0';
    if (cost < 1) return String(Number(cost.toPrecision(2)));
    return cost.toFixed(2);
}

export function formatCount(n: number): string {
    if (n < 1000) return String(n);
    if (n < 10_000) return `${(n / 1000).toFixed(1)}k`;
    if (n < 1_000_000) return `${Math.round(n / 1000)}k`;
    return `${(n / 1_000_000).toFixed(1)}M`;
}

/**
 * The formatters of toLocaleTimeString and toLocaleString (the same default fields), made once per locale:
 * each of those calls builds a new formatter, and the header and the history format times on every render.
 */
const formatters = new Map<string, { time: Intl.DateTimeFormat; dateTime: Intl.DateTimeFormat }>();

function formattersFor(locale: string | undefined) {
    const key = locale ?? '';
    let found = formatters.get(key);
    if (!found) {
        found = {
            time: new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: 'numeric', second: 'numeric' }),
            dateTime: new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' }),
        };
        formatters.set(key, found);
    }
    return found;
}

export function formatTime(at: number | null): string {
    if (at === null) return '';
    const date = new Date(at);
    const today = new Date();
    const { time, dateTime } = formattersFor(uiLocale());
    return date.toDateString() === today.toDateString() ? time.format(date) : dateTime.format(date);
}

/** The first line of a text, for one-line summaries (the full text is in the expanded row). */
export function firstLine(text: string, max = 160): string {
    const line = text.trim().split('\n', 1)[0] ?? '';
    return line.length > max ? `${line.slice(0, max)}…` : line;
}

export function callStatusLabel(status: string): string {
    switch (status) {
        case 'pending':
            return t`pending`;
        case 'running':
            return t`running`;
        case 'completed':
            return t`completed`;
        case 'error':
            return t`error`;
        case 'stopped':
            return t`stopped`;
        default:
            return status;
    }
}

export function generationLabel(type: string): string {
    switch (type) {
        case 'normal':
            return t`new reply`;
        case 'regenerate':
            return t`regenerate`;
        case 'swipe':
            return t`swipe`;
        // A user's change in the Memory view (engine/memory/journal-memory-edit.ts), journaled as a run of its own.
        case 'memory-edit':
            return t`memory edited by you`;
        default:
            return type;
    }
}

/** A parsed JSON text pretty-printed, or the text itself when it is not JSON. */
export function prettyJson(text: string): string {
    try {
        return JSON.stringify(JSON.parse(text), null, 2);
    } catch {
        return text;
    }
}

/**
 * A stored tool result (tool-results/…, the outcome as JSON) as the model read it: the same text the engine
 * sent, from the same function. Anything else is shown as stored.
 */
export function storedToolResultText(stored: string): string {
    try {
        const outcome = JSON.parse(stored) as { ok?: unknown; result?: { content?: unknown }; error?: { code?: unknown; message?: unknown; hint?: unknown } };
        if (outcome.ok === true && typeof outcome.result?.content === 'string') return toolResultText({ ok: true, result: { content: outcome.result.content } });
        if (outcome.ok === false && outcome.error) {
            const { code, message, hint } = outcome.error;
            return toolResultText({ ok: false, error: { code: String(code ?? ''), message: String(message ?? ''), hint: String(hint ?? '') } });
        }
    } catch {
        // Not JSON: shown as stored.
    }
    return stored;
}

export function shortId(runId: string): string {
    return runId.replace(/^imported-/, '').slice(0, 8);
}

/** What made a checkpoint, as the checkpoint list and the diff say it. */
/** Why the model stopped, as providers name it (stop, tool_calls, length…), in words; an unknown reason as given. */
export function finishReasonLabel(reason: string | null): string {
    switch (reason) {
        case null:
            return '';
        case 'stop':
        case 'end_turn':
        case 'STOP':
            return t`its answer was complete`;
        case 'tool_calls':
        case 'tool_use':
        case 'function_call':
            return t`it called tools`;
        case 'length':
        case 'max_tokens':
        case 'MAX_TOKENS':
            return t`it reached its length limit`;
        case 'content_filter':
        case 'SAFETY':
            return t`the provider's content filter`;
        default:
            return reason;
    }
}

export function checkpointKindLabel(kind: string): string {
    switch (kind) {
        case 'write':
            return t`written`;
        case 'patch':
            return t`patched`;
        case 'commit':
            return t`committed to the chat`;
        case 'restore':
            return t`restored`;
        default:
            return kind;
    }
}

/**
 * A tool as the panel names it everywhere: its canonical dotted name. Providers get the alias
 * (`workspace_write_file`, dots not allowed there) and the model's turn lists those; namespaces have no
 * underscore, so the first one is the dot. A name already dotted, or unknown, is shown as it is.
 */
export function toolDisplayName(name: string): string {
    if (name.includes('.')) return name;
    return name.replace(/^(chat|worldinfo|skill|script|dice|workspace|agent|task)_/, '$1.');
}
