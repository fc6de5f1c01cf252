import { useEffect, useRef, useState } from 'preact/hooks';
import type { MemoryBuildStatus } from '../../contract/memory-build';
import type { Result } from '../../contract/result';
import { t } from '../../i18n/t';
import { services } from '../services';
import { chatRevision } from '../state';

/** Minutes or seconds, whichever reads better. */
function formatRemaining(ms: number): string {
    const seconds = Math.ceil(ms / 1000);
    return seconds < 120 ? `${seconds} ${t`seconds`}` : `${Math.ceil(seconds / 60)} ${t`minutes`}`;
}

/** Where the build is, in a line: chunk n of m and the estimate, or how it ended. */
function progressLine(status: MemoryBuildStatus): string {
    const shown = Math.min(status.done + (status.state === 'finished' ? 0 : 1), status.chunks);
    const chunk = `${t`Chunk`} ${shown} / ${status.chunks} (${status.messages} ${t`messages`})`;
    if (status.state === 'finished') return t`Done: its memory is this chat's memory seed.`;
    if (status.state === 'failed') return `${chunk} · ${t`Stopped by an error:`} ${status.error?.message ?? ''} (${status.error?.code ?? ''})`;
    if (!status.active) return `${chunk} · ${t`Stopped: resume it to go on.`}`;
    return status.remainingMs === null ? `${chunk} · ${t`estimating…`}` : `${chunk} · ${t`Time left, about:`} ${formatRemaining(status.remainingMs)}`;
}

/**
 * *Build memory from this chat* (issue 37 §3): starts, stops and resumes the open chat's memory build, and shows
 * its progress. Self-contained (no props): it reads the open chat's build through the panel's services and
 * follows it as the build moves on and as another chat is opened.
 */
export function MemoryBuildControl() {
    const build = services().memoryBuild;
    const revision = chatRevision.value;
    const [status, setStatus] = useState<MemoryBuildStatus | null>(null);
    const [lore, setLore] = useState(false);
    const [notice, setNotice] = useState<string | null>(null);
    const [busy, setBusy] = useState(false);

    // Statuses answer in any order, and an action's own answer (Stop's: still working, as it asked) may land after
    // the refresh its change fired (stopped): only the newest read is shown, and an action is followed by a read.
    const reads = useRef(0);
    const mounted = useRef(true);
    useEffect(() => () => void (mounted.current = false), []);
    const read = () => {
        if (!build) return;
        const ticket = (reads.current += 1);
        void build.status().then((next) => mounted.current && ticket === reads.current && setStatus(next), () => undefined);
    };

    useEffect(() => {
        if (!build) return;
        // A read of an earlier effect that lands later loses to this one's newer ticket.
        read();
        return build.onChange(read);
    }, [build, revision]);

    if (!build || !services().chat.open()) return null;

    const act = async (action: () => Promise<Result<MemoryBuildStatus>>) => {
        setBusy(true);
        setNotice(null);
        const result = await action();
        setBusy(false);
        if (result.ok) {
            setStatus(result.value);
            read();
        } else setNotice(`${result.error.message} (${result.error.code})`);
    };
    const unfinished = status !== null && status.state !== 'finished';
    const working = status?.active === true;
    const shown = status === null ? 0 : Math.min(status.done, status.chunks);

    return (
        <div class="tavern-agent__memory-build" data-testid="memory-build">
            <h5>{t`Build memory from this chat`}</h5>
            <p class="tavern-agent__muted">{t`Reads the chat's messages in chunks, oldest first, and keeps what happened as memory (and, when chosen, proposes lore). It never changes a message.`}</p>
            {status ? (
                <div class="tavern-agent__memory-build-progress">
                    <progress max={status.chunks} value={shown} aria-label={t`Memory build progress`} />
                    <span data-testid="memory-build-progress">{progressLine(status)}</span>
                </div>
            ) : null}
            <div class="tavern-agent__memory-build-actions">
                {working ? (
                    <button type="button" class="menu_button" disabled={busy} onClick={() => act(build.stop)} data-testid="memory-build-stop">
                        <span class="fa-solid fa-stop" aria-hidden="true" /> {t`Stop`}
                    </button>
                ) : unfinished ? (
                    <>
                        <button type="button" class="menu_button" disabled={busy} onClick={() => act(build.resume)} data-testid="memory-build-resume">
                            <span class="fa-solid fa-play" aria-hidden="true" /> {t`Resume`}
                        </button>
                        <button type="button" class="menu_button" disabled={busy} onClick={() => act(() => build.start({ lore, restart: true }))}>
                            {t`Start over`}
                        </button>
                    </>
                ) : (
                    <button type="button" class="menu_button" disabled={busy} onClick={() => act(() => build.start({ lore, restart: true }))} data-testid="memory-build-start">
                        <span class="fa-solid fa-brain" aria-hidden="true" /> {status ? t`Build again` : t`Build memory`}
                    </button>
                )}
                {working ? null : (
                    <label class="checkbox_label">
                        <input type="checkbox" checked={lore} onChange={(event) => setLore(event.currentTarget.checked)} />
                        {t`Also propose lore`}
                    </label>
                )}
            </div>
            {notice ? (
                <p class="tavern-agent__error" role="alert">
                    {notice}
                </p>
            ) : null}
        </div>
    );
}
