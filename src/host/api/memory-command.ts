import { t } from '../../i18n/t';
import { seedFromChat } from '../memory/seed-from-chat';
import type { SeedSummary } from '../../contract/memory-view';
import { toasts } from '../sillytavern/toasts';
import type { MemoryBuildStatus } from '../../contract/memory-build';
import { describeMemoryBuild, memoryBuildCommand } from './memory-build-command';

/**
 * `/agent memory from <chat file name>`: copies that chat's latest memory into this chat as its memory seed
 * (issue 37 §2) and answers the seed's summary as JSON; a refusal answers '' and says why in a toast, with its
 * code, and nothing is changed.
 */
export async function memoryCommand(text: string): Promise<string> {
    const [word = '', ...rest] = text.trim().split(/\s+/);
    if (word.toLowerCase() === 'build') return memoryBuildCommand(text.trim().slice(word.length));
    if (word.toLowerCase() !== 'from') {
        toasts.warning(t`Use /agent memory from <chat file name>, or /agent memory build [lore] [restart] (stop, resume, status).`, t`Tavern Agent`);
        return '';
    }
    // A chat's file name may hold spaces ("Seraphina - 2026-12-4@13h33m27s"): everything after "from" is the name.
    const result = await seedFromChat(text.trim().slice(word.length).trim() || rest.join(' '));
    if (!result.ok) {
        toasts.warning(`${result.error.message} (${result.error.code})`, t`Memory not brought`);
        return '';
    }
    return JSON.stringify(result.value);
}

/** The toast `/agent memory …` shows when typed alone: a build's status (or null), or the seed brought. */
export function describeMemoryAnswer(answer: string): string {
    // The answer is memoryCommand's own JSON (an empty answer never reaches here): only a build status has a jobId.
    const parsed: unknown = JSON.parse(answer);
    if (parsed === null || (typeof parsed === 'object' && 'jobId' in parsed)) return describeMemoryBuild(parsed as MemoryBuildStatus | null);
    const summary = parsed as SeedSummary;
    return `${t`Memory brought from`} ${summary.chat}: ${summary.paths.length} ${t`files`}. ${t`Runs of this chat start from it until a message carries memory of its own.`}`;
}
