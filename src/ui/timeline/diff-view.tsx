import { useState } from 'preact/hooks';
import type { CheckpointDiff } from '../../contract/archive';
import { t } from '../../i18n/t';
import { restoreCheckpoint } from './run-actions';
import { useCheckpointDiff } from './use-run-data';

/** Unchanged lines kept around each change; longer unchanged stretches fold into one line. */
const CONTEXT = 3;

type DiffLine = { op: -1 | 0 | 1; text: string };
type DiffPiece = { kind: 'line'; line: DiffLine } | { kind: 'fold'; id: number; lines: DiffLine[] };

function splitLines(ops: CheckpointDiff['ops']): DiffLine[] {
    const lines: DiffLine[] = [];
    for (const { op, text } of ops) {
        const parts = text.split('\n');
        if (parts.at(-1) === '') parts.pop();
        for (const part of parts) lines.push({ op, text: part });
    }
    return lines;
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

function Line({ line }: { line: DiffLine }) {
    // <ins>/<del> say "added"/"removed" to assistive technology; the sign says it to the eye.
    if (line.op === 1) {
        return (
            <ins class="tavern-agent__diff-line tavern-agent__diff-line--added">
                <span class="tavern-agent__diff-sign" aria-hidden="true">+</span>
                {line.text}
                {'\n'}
            </ins>
        );
    }
    if (line.op === -1) {
        return (
            <del class="tavern-agent__diff-line tavern-agent__diff-line--removed">
                <span class="tavern-agent__diff-sign" aria-hidden="true">−</span>
                {line.text}
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

/** The change a checkpoint recorded, with a button to make that version the file's current text again. */
export function DiffView({ runId, seq, canRestore }: { runId: string; seq: number; canRestore: boolean }) {
    const loaded = useCheckpointDiff(runId, seq);
    const [busy, setBusy] = useState(false);
    if (!loaded || loaded.state === 'loading') return <p class="tavern-agent__muted">{t`Loading…`}</p>;
    if (loaded.state === 'error') return <p class="tavern-agent__error">{loaded.message}</p>;
    const diff = loaded.value;
    return (
        <div class="tavern-agent__diff" data-checkpoint={seq}>
            <div class="tavern-agent__diff-head">
                <code class="tavern-agent__code">{diff.path}</code>
                <span class="tavern-agent__muted">
                    {t`checkpoint`} {seq}
                </span>
                {canRestore ? (
                    <button
                        type="button"
                        class="menu_button tavern-agent__button"
                        data-action="restore"
                        disabled={busy}
                        onClick={async () => {
                            setBusy(true);
                            await restoreCheckpoint(runId, seq).finally(() => setBusy(false));
                        }}
                    >
                        <span class="fa-solid fa-clock-rotate-left" aria-hidden="true" /> {t`Restore this version`}
                    </button>
                ) : null}
            </div>
            <DiffBody diff={diff} />
        </div>
    );
}
