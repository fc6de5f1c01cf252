import { useEffect, useState } from 'preact/hooks';
import type { CheckpointInfo, RunFileInfo } from '../../contract/archive';
import { t } from '../../i18n/t';
import { DiffView } from './diff-view';
import { checkpointKindLabel, formatTime } from './format';
import type { RunSummary } from './rows';
import { commitDraftText } from './run-actions';
import { services } from '../services';
import { useRunFile } from './use-run-data';

interface Listing {
    files: RunFileInfo[];
    checkpoints: CheckpointInfo[];
}

/** One file of a run, as text (also the timeline's viewer of a task's summary file). */
export function RunFileText({ runId, path, version }: { runId: string; path: string; version: number }) {
    const loaded = useRunFile(runId, path, version);
    if (!loaded || loaded.state === 'loading') return <p class="tavern-agent__muted">{t`Loading…`}</p>;
    if (loaded.state === 'error') return <p class="tavern-agent__error">{loaded.message}</p>;
    return <pre class="tavern-agent__text" data-file={path}>{loaded.value}</pre>;
}

function FileContent({ runId, file }: { runId: string; file: RunFileInfo }) {
    return <RunFileText runId={runId} path={file.path} version={file.version} />;
}

function FileItem({ runId, file, committable, summary }: { runId: string; file: RunFileInfo; committable: boolean; summary: RunSummary }) {
    const [open, setOpen] = useState(false);
    return (
        <li class="tavern-agent__file" data-path={file.path}>
            <div class="tavern-agent__file-head">
                <button type="button" class="tavern-agent__link" aria-expanded={open} onClick={() => setOpen(!open)}>
                    <span class={`fa-solid ${file.hidden ? 'fa-lock' : 'fa-file-lines'} fa-fw`} aria-hidden="true" />
                    <span class="tavern-agent__mono">{file.path}</span>
                </button>
                <span class="tavern-agent__muted">
                    {t`version`} {file.version} · {file.chars} {t`characters`}
                </span>
                {committable ? (
                    <button type="button" class="menu_button tavern-agent__button" data-action="commit-draft" onClick={() => void commitDraftText(summary, file.path)}>
                        <span class="fa-solid fa-message" aria-hidden="true" /> {t`Commit this text`}
                    </button>
                ) : null}
            </div>
            {open ? <FileContent runId={runId} file={file} /> : null}
        </li>
    );
}

function CheckpointItem({ runId, checkpoint, canRestore, summary, replaced }: { runId: string; checkpoint: CheckpointInfo; canRestore: boolean; summary: RunSummary; replaced: boolean }) {
    const [open, setOpen] = useState(false);
    return (
        <li class="tavern-agent__file" data-checkpoint={checkpoint.seq} data-kind={checkpoint.kind} data-replaced={replaced ? 'true' : undefined}>
            <div class="tavern-agent__file-head">
                <button type="button" class="tavern-agent__link" aria-expanded={open} onClick={() => setOpen(!open)}>
                    <span class="fa-solid fa-code-compare fa-fw" aria-hidden="true" />
                    <span>
                        {t`checkpoint`} {checkpoint.seq}
                    </span>{' '}
                    <span class="tavern-agent__mono">{checkpoint.path}</span>
                </button>
                <span class="tavern-agent__muted" data-checkpoint-kind={checkpoint.kind}>
                    {replaced ? t`committed earlier, since replaced` : checkpointKindLabel(checkpoint.kind)}
                    {checkpoint.version ? ` · v${checkpoint.version}` : ''} · {formatTime(checkpoint.at)}
                </span>
            </div>
            {open ? <DiffView runId={runId} seq={checkpoint.seq} canRestore={canRestore} summary={summary} replaced={replaced} /> : null}
        </li>
    );
}

/**
 * The run's workspace as stored: visible files, the hidden stores (read-only) and every checkpoint, each
 * viewable as a diff and restorable. Read when opened, and again when the run gets new events.
 */
export function RunFiles({ summary, canRestore, revision }: { summary: RunSummary; canRestore: boolean; revision: number }) {
    const [open, setOpen] = useState(false);
    // Each answer names its run: while another run's listing loads, the last run's files (and their Restore and
    // diff buttons, which would act on this run) are not shown under it.
    const [loaded, setLoaded] = useState<{ runId: string; listing: Listing | null; error: string | null } | null>(null);
    const runId = summary.runId;
    const listing = loaded?.runId === runId ? loaded.listing : null;
    const error = loaded?.runId === runId ? loaded.error : null;
    useEffect(() => {
        if (!open) return;
        let alive = true;
        void (async () => {
            const engine = await services().engine();
            const [files, checkpoints] = await Promise.all([engine.listRunFiles(runId), engine.listCheckpoints(runId)]);
            if (!alive) return;
            if (!files.ok || !checkpoints.ok) {
                const failed = !files.ok ? files.error : !checkpoints.ok ? checkpoints.error : null;
                // A failed read again of the same run keeps the listing it had, with the error beside it.
                setLoaded((last) => ({ runId, listing: last?.runId === runId ? last.listing : null, error: failed ? `${failed.message} (${failed.code})` : null }));
                return;
            }
            setLoaded({ runId, listing: { files: files.value, checkpoints: checkpoints.value }, error: null });
        })();
        return () => {
            alive = false;
        };
    }, [open, runId, revision]);
    // Only the last commit's text is in the chat: an earlier one is not called "committed to the chat" as if it still were.
    const lastCommit = Math.max(-1, ...(listing?.checkpoints.filter((c) => c.kind === 'commit').map((c) => c.seq) ?? []));
    const draftsCommittable = canRestore && ['failed', 'cancelled', 'interrupted'].includes(summary.state);
    const visible = listing?.files.filter((f) => !f.hidden) ?? [];
    const hidden = listing?.files.filter((f) => f.hidden) ?? [];
    return (
        <details class="tavern-agent__run-files" open={open} onToggle={(event) => setOpen((event.currentTarget as HTMLDetailsElement).open)}>
            <summary>{t`Files and checkpoints`}</summary>
            {error ? <p class="tavern-agent__error">{error}</p> : null}
            {open && !listing && !error ? <p class="tavern-agent__muted">{t`Loading…`}</p> : null}
            {listing ? (
                <>
                    <h5>{t`Workspace`}</h5>
                    {visible.length === 0 ? <p class="tavern-agent__muted">{t`No files.`}</p> : null}
                    <ul class="tavern-agent__files">
                        {visible.map((file) => (
                            <FileItem key={file.path} runId={runId} file={file} summary={summary} committable={draftsCommittable && file.path.startsWith('output/')} />
                        ))}
                    </ul>
                    <h5>{t`Checkpoints`}</h5>
                    {listing.checkpoints.length === 0 ? <p class="tavern-agent__muted">{t`No checkpoints.`}</p> : null}
                    <ul class="tavern-agent__files">
                        {listing.checkpoints.map((checkpoint) => (
                            <CheckpointItem
                                key={checkpoint.seq}
                                runId={runId}
                                checkpoint={checkpoint}
                                canRestore={canRestore}
                                summary={summary}
                                replaced={checkpoint.kind === 'commit' && checkpoint.seq < lastCommit}
                            />
                        ))}
                    </ul>
                    <details class="tavern-agent__hidden-files">
                        <summary>{t`Run records (read-only)`}</summary>
                        <ul class="tavern-agent__files">
                            {hidden.map((file) => (
                                <FileItem key={file.path} runId={runId} file={file} summary={summary} committable={false} />
                            ))}
                        </ul>
                    </details>
                </>
            ) : null}
        </details>
    );
}
