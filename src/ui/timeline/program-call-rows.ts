import type { EventPayloads } from '../../contract/events';
import type { ToolRow } from './rows';

/**
 * A program's inner calls (script.run, issue 35) as timeline rows. The engine journals each call a program
 * made as one `script-call` event, once it is answered: it becomes a finished call row, nested under the
 * row of the program that made it.
 */

/**
 * A failed call's summary is the start of what the program read, toolResultText's `ERROR <code>: <message>
 * \nHint: <hint>`, cut at 200 characters: its message and hint as far as they reach.
 */
function failureOf(summary: string, code: string): { code: string; message: string; hint: string } {
    const prefix = `ERROR ${code}: `;
    const text = summary.startsWith(prefix) ? summary.slice(prefix.length) : summary;
    const hintAt = text.indexOf('\nHint: ');
    return hintAt < 0 ? { code, message: text, hint: '' } : { code, message: text.slice(0, hintAt), hint: text.slice(hintAt + '\nHint: '.length) };
}

/** The row of one inner call; its start is its answer's time less the time it took. */
export function innerCallRow(p: EventPayloads['script-call'], at: number): ToolRow {
    return {
        kind: 'tool',
        key: `c${p.callId}`,
        eventType: 'script-call',
        at: at - p.durationMs,
        callId: p.callId,
        name: p.name,
        canonical: p.canonical,
        status: p.code === null ? 'completed' : 'error',
        argsPath: p.argsPath,
        resultPath: p.resultPath,
        durationMs: p.durationMs,
        summary: p.summary,
        error: p.code === null ? null : failureOf(p.summary, p.code),
        changes: [],
        nestedCount: 0,
        innerCalls: [],
    };
}

/** Program calls by status, for the program row's one-line summary. */
export function innerCallCounts(program: Pick<ToolRow, 'innerCalls'>): { calls: number; failed: number } {
    return { calls: program.innerCalls.length, failed: program.innerCalls.filter((call) => call.status === 'error').length };
}
