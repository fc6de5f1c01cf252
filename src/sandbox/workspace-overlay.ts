import type { RootPolicy } from '../workspace/roots';
import { checkVisible, checkWritable, normalizePath } from '../workspace/paths';

/** What each write or log entry costs besides its text (SKILL-SCRIPTS.md §1.5: the bookkeeping). */
export const ENTRY_OVERHEAD_BYTES = 64;

/**
 * A skill script's view of the workspace (SKILL-SCRIPTS.md §1.3): the files under the roots the agent may
 * see, as they were when the script started, with its writes laid over them. Nothing reaches the run's
 * workspace until the script has ended; the tool then applies the last write of each path, checked again.
 * Every method throws an Error the script can catch; the message says what to do.
 */
export class WorkspaceOverlay {
    private readonly writes = new Map<string, string>();
    lastWritePath: string | null = null;

    constructor(
        private readonly files: Readonly<Record<string, string>>,
        private readonly policy: RootPolicy,
    ) {}

    private visiblePath(raw: unknown, allowRoot: boolean): string {
        if (typeof raw !== 'string') throw new TypeError('A workspace path must be a string.');
        const checked = checkVisible(raw, this.policy, { allowRoot });
        if (!checked.ok) throw new Error(checked.error.message);
        return checked.path;
    }

    private current(path: string): string | undefined {
        return this.writes.get(path) ?? (Object.hasOwn(this.files, path) ? this.files[path] : undefined);
    }

    private allPaths(): string[] {
        return [...new Set([...Object.keys(this.files), ...this.writes.keys()])].filter((path) => this.policy.visible.some((root) => path.startsWith(`${root}/`)));
    }

    readText(raw: unknown): string {
        const path = this.visiblePath(raw, false);
        const text = this.current(path);
        if (text === undefined) throw new Error(`file not found: ${path}. Check the folder with workspace.listFiles.`);
        return text;
    }

    writeText(raw: unknown, text: unknown): void {
        if (typeof raw !== 'string') throw new TypeError('A workspace path must be a string.');
        if (typeof text !== 'string') throw new TypeError('workspace.writeText writes a string; JSON.stringify other values first.');
        const checked = checkWritable(raw, this.policy);
        if (!checked.ok) throw new Error(checked.error.message);
        this.writes.set(checked.path, text);
        this.lastWritePath = checked.path;
    }

    /** No argument: the top-level names. A folder: every file below it, relative to it, sorted. */
    listFiles(raw?: unknown): string[] {
        if (raw === undefined || raw === null || raw === '') return [...new Set(this.allPaths().map((path) => path.split('/')[0]!))].sort();
        const folder = this.visiblePath(raw, true);
        const prefix = folder === '' ? '' : `${folder}/`;
        return [...new Set(this.allPaths().filter((path) => path.startsWith(prefix)).map((path) => path.slice(prefix.length)))].sort();
    }

    /** False, never an error, for an invalid path or one outside the visible roots; a folder exists. */
    exists(raw: unknown): boolean {
        if (typeof raw !== 'string') return false;
        const normalized = normalizePath(raw, { allowRoot: true });
        if (!normalized.ok) return false;
        const checked = checkVisible(normalized.path, this.policy, { allowRoot: true });
        if (!checked.ok) return false;
        const path = checked.path;
        if (path === '' || this.policy.visible.includes(path)) return true;
        return this.current(path) !== undefined || this.allPaths().some((file) => file.startsWith(`${path}/`));
    }

    /** The final state of what the script wrote: each path once, with its last content, sorted by path. */
    finalWrites(): Array<{ path: string; content: string }> {
        return [...this.writes.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([path, content]) => ({ path, content }));
    }

    /** What the writes cost against the output budget: repeated writes to one path count once. */
    outputBytes(measure: (text: string) => number): number {
        let total = 0;
        for (const [path, content] of this.writes) total += measure(path) + measure(content) + ENTRY_OVERHEAD_BYTES;
        return total;
    }
}
