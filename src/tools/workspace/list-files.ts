import * as z from 'zod';
import { checkVisible } from '../../workspace/paths';
import { aliasOf, defineTool, failure, success } from '../tool';
import { fileNotFound } from './read-file';

export const MAX_LIST_ENTRIES = 200;

const args = z.object({
    path: z
        .string()
        .default('')
        .describe('Folder (or file) to list, relative to the workspace, e.g. "scratch". "", "." or "./" mean the workspace root (the default).'),
    depth: z.number().int().min(1).max(4).default(2).describe('How many folder levels below path to show (1–4, default 2). At the root, level 1 is the roots themselves.'),
});

type Entry = { kind: 'folder'; files: number } | { kind: 'file'; chars: number };

function plural(count: number, word: string): string {
    return `${count} ${word}${count === 1 ? '' : 's'}`;
}

export const listFilesTool = defineTool({
    name: 'workspace.list_files',
    alias: aliasOf('workspace.list_files'),
    description: [
        'Lists the files and folders of your workspace. Without a path it shows every root you can see (output/, scratch/, plan/, summaries/, persist/ unless your profile narrows them), even empty ones.',
        'Entries are full workspace paths you can pass to the other workspace tools; folders end with "/" and show how many files they hold, files show their size in characters.',
        `depth is 1–4 (default 2). At most ${MAX_LIST_ENTRIES} entries are shown; list a subfolder to see more.`,
    ].join(' '),
    args,
    readOnly: true,
    async execute(input, { workspace }) {
        const checked = checkVisible(input.path, workspace.policy, { allowRoot: true });
        if (!checked.ok) return failure(checked.error);
        const path = checked.path;

        if (path !== '') {
            const file = workspace.get(path);
            if (file) return success(`${path}  (${file.content.length} chars, version ${file.version})`, { path, kind: 'file', chars: file.content.length });
            if (!workspace.isDirectory(path)) return failure(fileNotFound(workspace, path));
        }

        const roots = workspace.policy.visible;
        const base = path === '' ? [] : path.split('/');
        const entries = new Map<string, Entry>();
        if (path === '') for (const root of roots) entries.set(root, { kind: 'folder', files: 0 });
        let fileCount = 0;
        for (const file of workspace.list()) {
            // The workspace only holds visible roots; the check keeps hidden stores out even if that changes.
            if (!checkVisible(file.path, workspace.policy, { allowRoot: false }).ok) continue;
            if (path !== '' && !file.path.startsWith(`${path}/`)) continue;
            fileCount += 1;
            const relative = file.path.split('/').slice(base.length);
            for (let level = 1; level <= Math.min(input.depth, relative.length - 1); level += 1) {
                const folder = [...base, ...relative.slice(0, level)].join('/');
                const current = entries.get(folder);
                entries.set(folder, { kind: 'folder', files: (current?.kind === 'folder' ? current.files : 0) + 1 });
            }
            if (relative.length <= input.depth) entries.set(file.path, { kind: 'file', chars: file.content.length });
        }

        // Tree order: roots in policy order, then by name, each folder right before its contents.
        const rootRank = (segment: string) => {
            const rank = roots.indexOf(segment);
            return rank === -1 ? roots.length : rank;
        };
        const sorted = [...entries.entries()].sort(([a], [b]) => {
            const left = a.split('/');
            const right = b.split('/');
            const byRoot = rootRank(left[0]!) - rootRank(right[0]!);
            if (byRoot !== 0) return byRoot;
            for (let i = 0; i < Math.min(left.length, right.length); i += 1) {
                if (left[i] !== right[i]) return left[i]! < right[i]! ? -1 : 1;
            }
            return left.length - right.length;
        });

        const lines = sorted.slice(0, MAX_LIST_ENTRIES).map(([entryPath, entry]) =>
            entry.kind === 'folder'
                ? `${entryPath}/  (${entry.files === 0 ? 'empty' : plural(entry.files, 'file')})`
                : `${entryPath}  (${entry.chars} chars)`,
        );
        if (sorted.length > MAX_LIST_ENTRIES) {
            lines.push(`… ${sorted.length - MAX_LIST_ENTRIES} more (list a subfolder or use a smaller depth to see them)`);
        }
        const header =
            path === ''
                ? `Workspace root, depth ${input.depth}: ${plural(roots.length, 'root')}, ${plural(fileCount, 'file')}. You see ${roots.map((r) => `${r}/`).join(', ')}; you may write ${workspace.policy.writable.map((r) => `${r}/`).join(', ')}.`
                : `${path}/, depth ${input.depth}: ${plural(fileCount, 'file')}.`;
        if (path !== '' && fileCount === 0) lines.push('(empty folder)');
        return success([header, ...lines].join('\n'), { path, depth: input.depth, entries: sorted.length, files: fileCount });
    },
});

