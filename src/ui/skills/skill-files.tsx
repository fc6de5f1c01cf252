import { useEffect, useState } from 'preact/hooks';
import type { SkillScope } from '../../contract/skills';
import type { SkillFileView, SkillsService } from '../../contract/skills-service';
import { t } from '../../i18n/t';
import { baseName, buildTree, type TreeFolder } from './file-tree';
import { SkillFileEditor } from './skill-file-editor';
import { errorText, formatBytes, isScript } from './skill-scope';

type Loaded = { state: 'loading' } | { state: 'error'; message: string } | { state: 'ready'; file: SkillFileView };

/**
 * One file's content: text as text (never HTML), anything else as its size only. A text file can be edited in
 * place (SPEC §6): every scope's skills are the user's own stored copies, so none is read-only.
 */
function FileViewer({ service, name, scope, path, revision }: { service: SkillsService; name: string; scope: SkillScope; path: string; revision: unknown }) {
    const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
    // The text the editor opened with; null when not editing. A reload of the file leaves the editor as it is.
    const [editing, setEditing] = useState<string | null>(null);
    useEffect(() => {
        let live = true;
        setLoaded({ state: 'loading' });
        service.readFile(name, scope, path).then(
            (file) => live && setLoaded({ state: 'ready', file }),
            (error: unknown) => live && setLoaded({ state: 'error', message: errorText(error) }),
        );
        return () => {
            live = false;
        };
        // `revision` changes when the listing is reloaded: a replaced skill shows its new content.
    }, [service, name, scope, path, revision]);

    const save = async (text: string) => {
        await service.writeFile(name, scope, path, text);
        // Shown at once; the listing's reload after the change reads it back from the store.
        setLoaded({ state: 'ready', file: { path, encoding: 'utf8', content: text, bytes: new TextEncoder().encode(text).length } });
        setEditing(null);
    };
    const text = loaded.state === 'ready' && loaded.file.encoding === 'utf8' ? loaded.file.content : null;

    return (
        <div class="tavern-agent__skill-viewer" data-testid="skill-viewer" data-path={path}>
            <div class="tavern-agent__skill-viewer-head">
                <span class="tavern-agent__mono">{path}</span>
                {loaded.state === 'ready' ? <span class="tavern-agent__muted">{formatBytes(loaded.file.bytes)}</span> : null}
                {text !== null && editing === null ? (
                    <button type="button" class="menu_button tavern-agent__button" data-testid="skill-file-edit" onClick={() => setEditing(text)}>
                        <span class="fa-solid fa-pen" aria-hidden="true" /> {t`Edit`}
                    </button>
                ) : null}
            </div>
            {editing !== null ? (
                <SkillFileEditor path={path} initial={editing} onSave={save} onCancel={() => setEditing(null)} />
            ) : (
                <>
                    {loaded.state === 'loading' ? <p class="tavern-agent__muted">{t`Loading…`}</p> : null}
                    {loaded.state === 'error' ? <p class="tavern-agent__error" role="alert">{loaded.message}</p> : null}
                    {text !== null ? (
                        <pre class="tavern-agent__skill-text" data-testid="skill-file-text">
                            {text}
                        </pre>
                    ) : null}
                    {loaded.state === 'ready' && text === null ? (
                        <p class="tavern-agent__muted" data-testid="skill-file-binary">
                            {t`binary,`} {loaded.file.bytes} {t`bytes`} · {t`view only: export the skill to change this file, then import it again`}
                        </p>
                    ) : null}
                </>
            )}
        </div>
    );
}

function Folder({ folder, open, onOpen }: { folder: TreeFolder; open: string | null; onOpen(path: string): void }) {
    return (
        <ul class="tavern-agent__skill-tree-list">
            {folder.files.map((path) => (
                <li>
                    <button
                        type="button"
                        class="tavern-agent__skill-file"
                        data-testid="skill-file"
                        data-path={path}
                        aria-pressed={open === path}
                        onClick={() => onOpen(path)}
                    >
                        <span class={`fa-solid ${isScript(path) ? 'fa-scroll' : 'fa-file-lines'} fa-fw`} aria-hidden="true" />
                        <span class="tavern-agent__mono">{baseName(path)}</span>
                    </button>
                    </li>
            ))}
            {folder.folders.map((child) => (
                <li class="tavern-agent__skill-folder">
                    <span class="fa-solid fa-folder fa-fw" aria-hidden="true" />
                    <span class="tavern-agent__mono">{child.name}/</span>
                    <Folder folder={child} open={open} onOpen={onOpen} />
                </li>
            ))}
        </ul>
    );
}

/** A skill's files as a tree; choosing a file shows it below (choosing it again closes it). */
export function SkillFiles({ service, name, scope, files }: { service: SkillsService; name: string; scope: SkillScope; files: readonly string[] }) {
    // `files` is a new array whenever the listing is reloaded (after an import, a move…).
    const [open, setOpen] = useState<string | null>(null);
    return (
        <div class="tavern-agent__skill-files" data-testid="skill-tree">
            <Folder folder={buildTree(files)} open={open} onOpen={(path) => setOpen(open === path ? null : path)} />
            {/* Keyed by path: another file opens with no editor left over from this one. */}
            {open ? <FileViewer key={open} service={service} name={name} scope={scope} path={open} revision={files} /> : null}
        </div>
    );
}
