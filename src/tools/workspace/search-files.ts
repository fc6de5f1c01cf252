import * as z from 'zod';
import { toolError } from '../../contract/errors';
import { checkVisible } from '../../workspace/paths';
import { yieldPacer } from '../yield-to-events';
import { SEARCH_MAX_MS } from '../search-deadline';
import { aliasOf, defineTool, failure, success } from '../tool';
import { fileNotFound, lineAt, lineEnd, lineStarts, lineText, numberedLine } from './read-file';

/** Long lines are cut in snippets so 50 hits with context stay a bounded result. */
const MAX_SNIPPET_LINE = 300;
const MAX_OUTPUT_CHARS = 70_000;
/**
 * Bounds on one search, so a one-character query over large files stays fast and small: it stops after
 * this many hits, this many characters scanned or this much time, and says so in its result.
 */
export const SEARCH_MAX_HITS = 1_000;
export const SEARCH_MAX_SCANNED_CHARS = 16 * 1024 * 1024;

interface SearchBudget {
    hits: number;
    scanned: number;
    deadline: number;
    signal: AbortSignal;
    /** Why the search stopped early, or null when it covered everything. */
    stopped: 'hits' | 'size' | 'time' | null;
}

function exhausted(budget: SearchBudget): boolean {
    if (budget.signal.aborted) return true;
    if (budget.stopped) return true;
    if (budget.hits >= SEARCH_MAX_HITS) budget.stopped = 'hits';
    else if (budget.scanned > SEARCH_MAX_SCANNED_CHARS) budget.stopped = 'size';
    else if (Date.now() > budget.deadline) budget.stopped = 'time';
    return budget.stopped !== null;
}

const args = z.object({
    query: z.string().min(1).describe('Text to find: a case-insensitive substring (not a regex). May span lines.'),
    path: z
        .string()
        .default('')
        .describe('Limit the search to this folder or file, e.g. "scratch" or "output/main.md". Default: every visible file.'),
    limit: z.number().int().min(1).max(50).default(20).describe('Most hits to return (1–50, default 20).'),
    context_lines: z.number().int().min(0).max(5).default(2).describe('Lines shown before and after each hit (0–5, default 2).'),
});

interface Hit {
    path: string;
    line: number;
    endLine: number;
    column: number;
}

/** Cuts a long line to a window around `focus`, marking the cuts with "…". */
export function clip(text: string, focus: number): string {
    if (text.length <= MAX_SNIPPET_LINE) return text;
    const start = Math.max(0, Math.min(focus - 100, text.length - MAX_SNIPPET_LINE));
    const end = start + MAX_SNIPPET_LINE;
    return `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`;
}

/** Every match, one per line (a line holding the query twice is one hit), within the search's budget. */
function findHits(path: string, content: string, needle: string, budget: SearchBudget): Hit[] {
    if (exhausted(budget)) return [];
    budget.scanned += content.length;
    // Lowercasing keeps every newline, so line numbers found in the lowered text hold for the original.
    const lowered = content.toLowerCase();
    const starts = lineStarts(lowered);
    const hits: Hit[] = [];
    let from = 0;
    for (let at = lowered.indexOf(needle, from); at !== -1; at = lowered.indexOf(needle, from)) {
        const line = lineAt(starts, at);
        const endLine = lineAt(starts, at + needle.length - 1);
        hits.push({ path, line, endLine, column: at - starts[line - 1]! });
        budget.hits += 1;
        from = lineEnd(lowered, starts, endLine);
        if (from >= lowered.length) break;
        // Checked every 64 hits: Date.now per hit would cost more than the search.
        if (budget.hits % 64 === 0 && exhausted(budget)) break;
    }
    return hits;
}

function stoppedNote(budget: SearchBudget): string {
    switch (budget.stopped) {
        case 'hits':
            return ` The search stopped after ${SEARCH_MAX_HITS} hits; narrow the query or path to see the rest.`;
        case 'size':
            return ` The search stopped after ${SEARCH_MAX_SCANNED_CHARS} characters; later files were not searched. Narrow the path.`;
        case 'time':
            return ` The search stopped after ${SEARCH_MAX_MS / 1000} s; later files were not searched. Narrow the query or path.`;
        default:
            return '';
    }
}

export const searchFilesTool = defineTool({
    name: 'workspace.search_files',
    alias: aliasOf('workspace.search_files'),
    description: [
        'Finds text in your workspace files: a case-insensitive substring search (no regex) over the visible files, or only under path.',
        'Each hit shows "path:line", the numbered lines around it, and a ref such as workspace:scratch/a.md#L10-L14. Hits are ordered by path, then line.',
        'limit 1–50 (default 20), context_lines 0–5 (default 2). Zero hits is a normal answer, not an error.',
        'Long lines are cut with "…" and the "<n>│" prefix is not file text, so before workspace_apply_patch read the file with workspace_read_file: a search does not count as reading it.',
    ].join(' '),
    args,
    readOnly: true,
    async execute(input, { workspace, signal }) {
        const checked = checkVisible(input.path, workspace.policy, { allowRoot: true });
        if (!checked.ok) return failure(checked.error);
        const path = checked.path;
        if (path !== '' && !workspace.get(path) && !workspace.isDirectory(path)) return failure(fileNotFound(workspace, path));

        // Only visible files are ever searched: hidden stores are not in the workspace, and the check says so twice.
        const files = workspace
            .list()
            .filter((file) => path === '' || file.path === path || file.path.startsWith(`${path}/`))
            .filter((file) => checkVisible(file.path, workspace.policy, { allowRoot: false }).ok);
        const needle = input.query.toLowerCase();
        const budget: SearchBudget = { hits: 0, scanned: 0, deadline: Date.now() + SEARCH_MAX_MS, signal, stopped: null };
        const hits: Hit[] = [];
        const pacer = yieldPacer();
        for (const file of files) {
            hits.push(...findHits(file.path, file.content, needle, budget));
            if (pacer.due()) await pacer.yield();
            if (signal.aborted) return failure(toolError('tool.execution_failed', 'The search was stopped.', 'The run is ending; nothing to do.'));
        }
        const scope = path === '' ? 'the workspace' : `"${path}"`;
        const searched = `${files.length} file${files.length === 1 ? '' : 's'} searched`;
        const note = stoppedNote(budget);
        const bound = budget.stopped === null ? {} : { stopped: budget.stopped };
        if (hits.length === 0) {
            return success(`No matches for ${JSON.stringify(input.query)} in ${scope} (${searched}).${note}`, { query: input.query, path, hits: 0, files: files.length, ...bound });
        }

        const blocks: string[] = [];
        let size = 0;
        for (const hit of hits.slice(0, input.limit)) {
            const content = workspace.get(hit.path)!.content;
            const starts = lineStarts(content);
            const first = Math.max(1, hit.line - input.context_lines);
            const last = Math.min(starts.length, hit.endLine + input.context_lines);
            const width = String(last).length;
            const lines: string[] = [];
            for (let line = first; line <= last; line += 1) {
                lines.push(numberedLine(line, width, clip(lineText(content, starts, line), line === hit.line ? hit.column : 0)));
            }
            const where = hit.endLine === hit.line ? `${hit.line}` : `${hit.line}-${hit.endLine}`;
            const block = `${hit.path}:${where}  (workspace:${hit.path}#L${first}-L${last})\n${lines.join('\n')}`;
            if (size + block.length > MAX_OUTPUT_CHARS) break;
            blocks.push(block);
            size += block.length + 2;
        }

        const shown = blocks.length;
        const header =
            shown < hits.length
                ? `${hits.length} hits for ${JSON.stringify(input.query)} in ${scope} (${searched}); showing the first ${shown}. Narrow the query or path, or raise limit (max 50), to see the others.`
                : `${hits.length} hit${hits.length === 1 ? '' : 's'} for ${JSON.stringify(input.query)} in ${scope} (${searched}).`;
        return success([header + note, ...blocks].join('\n\n'), { query: input.query, path, hits: hits.length, shown, files: files.length, ...bound });
    },
});
