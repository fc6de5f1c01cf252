/** A skill's flat file paths as a tree of folders, for the manager's file view. */
export interface TreeFolder {
    name: string;
    folders: TreeFolder[];
    /** Full paths of the files directly in this folder. */
    files: string[];
}

export function buildTree(paths: readonly string[]): TreeFolder {
    const root: TreeFolder = { name: '', folders: [], files: [] };
    for (const path of paths) {
        const parts = path.split('/');
        let folder = root;
        for (const part of parts.slice(0, -1)) {
            let next = folder.folders.find((item) => item.name === part);
            if (!next) folder.folders.push((next = { name: part, folders: [], files: [] }));
            folder = next;
        }
        folder.files.push(path);
    }
    sortTree(root);
    return root;
}

/** SKILL.md first, then files by name, then folders by name: the entry point leads. */
function sortTree(folder: TreeFolder): void {
    folder.files.sort((a, b) => (a === 'SKILL.md' ? -1 : b === 'SKILL.md' ? 1 : a.localeCompare(b)));
    folder.folders.sort((a, b) => a.name.localeCompare(b.name));
    for (const child of folder.folders) sortTree(child);
}

export function baseName(path: string): string {
    return path.slice(path.lastIndexOf('/') + 1);
}
