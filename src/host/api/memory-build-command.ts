import type { MemoryBuildStatus } from '../../contract/memory-build';
import { fail, type Result } from '../../contract/result';
import { t } from '../../i18n/t';
import { memoryBuildStatus, resumeMemoryBuild, startMemoryBuild, stopMemoryBuild } from '../memory/memory-build';
import { toasts } from '../sillytavern/toasts';

/**
 * `/agent memory build [lore] [restart]` starts a memory build of the open chat (issue 37 §3), or goes on with
 * its unfinished one; `… build stop`, `… build resume` and `… build status` do what they say. Every answer is the
 * build's status as JSON ('' when refused, with the reason and its code in a toast; `null` when the chat has none).
 */
export async function memoryBuildCommand(text: string): Promise<string> {
    const words = text.trim().toLowerCase().split(/\s+/).filter(Boolean);
    const [verb = ''] = words;
    if (verb === 'status') return JSON.stringify(await memoryBuildStatus());
    const result = verb === 'stop' ? await stopMemoryBuild() : verb === 'resume' ? await resumeMemoryBuild() : await startWith(words);
    if (!result.ok) {
        toasts.warning(`${result.error.message} (${result.error.code})`, t`Memory build`);
        return '';
    }
    return JSON.stringify(result.value);
}

function startWith(words: readonly string[]): Promise<Result<MemoryBuildStatus>> {
    const unknown = words.filter((word) => word !== 'lore' && word !== 'restart');
    if (unknown.length) return Promise.resolve(fail('run.invalid_input', `${t`Unknown word for /agent memory build:`} ${unknown.join(' ')}.`));
    return startMemoryBuild({ lore: words.includes('lore'), restart: words.includes('restart') });
}

/** A build's status in words, for the toast the command shows when typed alone. */
export function describeMemoryBuild(status: MemoryBuildStatus | null): string {
    if (!status) return t`This chat has no memory build.`;
    const chunk = `${t`Memory build:`} ${Math.min(status.done + (status.state === 'finished' ? 0 : 1), status.chunks)} / ${status.chunks}`;
    if (status.state === 'finished') return `${t`Memory build finished: its memory is this chat's memory seed.`} (${status.chunks})`;
    if (status.state === 'failed') return `${chunk}. ${t`Stopped by an error:`} ${status.error?.message ?? ''} (${status.error?.code ?? ''})`;
    if (!status.active) return `${chunk}. ${t`Stopped: resume it to go on.`}`;
    return status.remainingMs === null ? `${chunk}.` : `${chunk}. ${t`Time left, about:`} ${Math.ceil(status.remainingMs / 1000)} ${t`seconds`}`;
}
