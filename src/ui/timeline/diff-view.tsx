import { useState } from 'preact/hooks';
import type { CheckpointDiff } from '../../contract/archive';
import { t } from '../../i18n/t';
import { checkpointKindLabel } from './format';
import type { RunSummary } from './rows';
import { putVersionInChat, restoreCheckpoint } from './run-actions';
import { useCheckpointDiff } from './use-run-data';
import { pairChangedLines, type LinePart } from './word-diff';

/** Unchanged lines kept around each change; longer unchanged stretches fold into one line. */
const CONTEXT = 3;

type DiffLine = { op: -1 | 0 | 1; text: string; parts?: LinePart[] };
type DiffPiece = { kind: 'line'; line: DiffLine } | { kind: 'fold'; id: number; lines: DiffLine[] };

function splitLines(ops: CheckpointDiff['ops']): DiffLine[] {
    const lines: DiffLine[] = [];
    for (const { op, text } of ops) {
        const parts = text.split('\n');
        if (parts.at(-1) === '') parts.pop();
        for (const part of parts) lines.push({ op, text: part });
    }
    return pairChangedLines(lines);
}

/** Folds long unchanged stretches, keeping CONTEXT lines next to each change. */
function foldUnchanged(lines: DiffLine[]): DiffPiece[] {
    const pieces: DiffPiece[] = [];
    let i = 0;
    let folds = 0;
    while (i < lines.length) {
        if (lines[i]!.op !== 0) {
            pieces.push({ kind: 'line', line: lines[i]! });
            i += 1;
            continue;
        }
        let j = i;
        while (j < lines.length && lines[j]!.op === 0) j += 1;
        const keepHead = i === 0 ? 0 : CONTEXT;
        const keepTail = j === lines.length ? 0 : CONTEXT;
        const run = lines.slice(i, j);
        if (run.length > keepHead + keepTail + 1) {
            run.slice(0, keepHead).forEach((line) => pieces.push({ kind: 'line', line }));
            pieces.push({ kind: 'fold', id: folds++, lines: run.slice(keepHead, run.length - keepTail) });
            run.slice(run.length - keepTail).forEach((line) => pieces.push({ kind: 'line', line }));
        } else run.forEach((line) => pieces.push({ kind: 'line', line }));
        i = j;
    }
    return pieces;
}

/** A changed line's text, its changed words marked when it was paired with its replacement. */
function LineText({ line }: { line: DiffLine }) {
    if (!line.parts) return <>{line.text}</>;
    return (
        <>
            {line.parts.map((part) => (part.changed ? <mark class="tavern-agent__diff-word">{part.text}</mark> : part.text))}
        </>
    );
}

function Line({ line }: { line: DiffLine }) {
    // <ins>/<del> say "added"/"removed" to assistive technology; the sign says it to the eye.
    if (line.op === 1) {
        return (
            <ins class="tavern-agent__diff-line tavern-agent__diff-line--added">
                <span class="tavern-agent__diff-sign" aria-hidden="true">+</span>
                <LineText line={line} />
                {'\n'}
            </ins>
        );
    }
    if (line.op === -1) {
        return (
            <del class="tavern-agent__diff-line tavern-agent__diff-line--removed">
                <span class="tavern-agent__diff-sign" aria-hidden="true">−</span>
                <LineText line={line} />
                {'\n'}
            </del>
        );
    }
    return (
        <span class="tavern-agent__diff-line">
            <span class="tavern-agent__diff-sign" aria-hidden="true"> </span>
            {line.text}
            {'\n'}
        </span>
    );
}

/** A line diff with folded unchanged stretches; also shows lore proposals (ui/lore/). */
export function DiffBody({ diff }: { diff: Pick<CheckpointDiff, 'ops'> }) {
    const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
    const lines = splitLines(diff.ops);
    const added = lines.filter((l) => l.op === 1).length;
    const removed = lines.filter((l) => l.op === -1).length;
    if (lines.length === 0) return <p class="tavern-agent__muted">{t`The file is empty.`}</p>;
    return (
        <>
            <p class="tavern-agent__diff-stats">
                <span class="tavern-agent__diff-added">+{added}</span> <span class="tavern-agent__diff-removed">−{removed}</span>
                {added === 0 && removed === 0 ? <span class="tavern-agent__muted"> {t`No change in the text.`}</span> : null}
            </p>
            <pre class="tavern-agent__diff-body">
                {foldUnchanged(lines).map((piece, k) =>
                    piece.kind === 'line' ? (
                        <Line key={k} line={piece.line} />
                    ) : open.has(piece.id) ? (
                        piece.lines.map((line, n) => <Line key={`${k}.${n}`} line={line} />)
                    ) : (
                        <button key={k} type="button" class="tavern-agent__diff-fold" onClick={() => setOpen(new Set([...open, piece.id]))}>
                            ⋯ {piece.lines.length} {t`unchanged lines`}
                        </button>
                    ),
                )}
            </pre>
        </>
    );
}

/** A commit checkpoint holds the text as it went into the chat: shown as that text, not as a diff with itself. */
function CommittedText({ diff, replaced }: { diff: CheckpointDiff; replaced: boolean }) {
    return (
        <>
            <p class="tavern-agent__muted">{replaced ? t`The text committed to the chat earlier; a later version replaced it:` : t`The text committed to the chat:`}</p>
            <pre class="tavern-agent__text" data-committed="true">
                {diff.after}
            </pre>
        </>
    );
}

/**
 * The change a checkpoint recorded (or, for a commit, the committed text), with what can be done with that
 * version, each button saying where it acts: restore it as the file's text in the run's workspace (the chat
 * unchanged), or put it in the chat as the run's reply (a replace commit of the run's message). The latter
 * only for the reply's own drafts (output/) of a run that committed a reply.
 */
export function DiffView({ runId, seq, canRestore, summary, replaced = false }: { runId: string; seq: number; canRestore: boolean; summary?: RunSummary; replaced?: boolean }) {
    const loaded = useCheckpointDiff(runId, seq);
    const [busy, setBusy] = useState(false);
    if (!loaded || loaded.state === 'loading') return <p class="tavern-agent__muted">{t`Loading…`}</p>;
    if (loaded.state === 'error') return <p class="tavern-agent__error">{loaded.message}</p>;
    const diff = loaded.value;
    const replyable = canRestore && summary !== undefined && summary.messageId !== null && diff.path.startsWith('output/');
    const act = (action: () => Promise<unknown>) => async () => {
        setBusy(true);
        await action().finally(() => setBusy(false));
    };
    return (
        <div class="tavern-agent__diff" data-checkpoint={seq} data-kind={diff.kind}>
            <div class="tavern-agent__diff-head">
                <code class="tavern-agent__code">{diff.path}</code>
                <span class="tavern-agent__muted">
                    {t`checkpoint`} {seq} · {checkpointKindLabel(diff.kind)}
                </span>
            </div>
            {diff.kind === 'commit' ? <CommittedText diff={diff} replaced={replaced} /> : <DiffBody diff={diff} />}
            {canRestore ? (
                <div class="tavern-agent__restore">
                    {replyable ? (
                        <div class="tavern-agent__restore-choice">
                            <button type="button" class="menu_button tavern-agent__button" data-action="put-in-chat" disabled={busy} onClick={act(() => putVersionInChat(summary!, seq))}>
                                <span class="fa-solid fa-message" aria-hidden="true" /> {t`Put this version in the chat`}
                            </button>
                            <small class="tavern-agent__muted">{t`Replaces this run's reply in the chat with this text.`}</small>
                        </div>
                    ) : null}
                    <div class="tavern-agent__restore-choice">
                        <button type="button" class="menu_button tavern-agent__button" data-action="restore" disabled={busy} onClick={act(() => restoreCheckpoint(runId, seq))}>
                            <span class="fa-solid fa-clock-rotate-left" aria-hidden="true" /> {t`Restore in the workspace`}
                        </button>
                        <small class="tavern-agent__muted">
                            {diff.path.startsWith('persist/')
                                ? t`Makes this the file's current text in the run's workspace, and the memory later runs start from. The chat's text is not changed.`
                                : t`Makes this the file's current text in the run's workspace (for viewing or committing later). The chat is not changed.`}
                        </small>
                    </div>
                </div>
            ) : null}
        </div>
    );
}
