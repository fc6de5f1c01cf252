import { t } from '../../i18n/t';
import { seedFromChat } from '../memory/seed-from-chat';
import type { SeedSummary } from '../../contract/memory-view';
import { toasts } from '../sillytavern/toasts';

/**
 * `/agent memory from <chat file name>`: copies that chat's latest memory into this chat as its memory seed
 * (issue 37 §2) and answers the seed's summary as JSON; a refusal answers '' and says why in a toast, with its
 * code, and nothing is changed.
 */
export async function memoryCommand(text: string): Promise<string> {
    const [word = '', ...rest] = text.trim().split(/\s+/);
    if (word.toLowerCase() !== 'from') {
        toasts.warning(t`Use /agent memory from <chat file name>.`, t`Tavern Agent`);
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

/** The toast `/agent memory from` shows when typed alone. */
export function describeMemoryAnswer(answer: string): string {
    // The answer is memoryCommand's own JSON of a SeedSummary (an empty answer never reaches here).
    const summary = JSON.parse(answer) as SeedSummary;
    return `${t`Memory brought from`} ${summary.chat}: ${summary.paths.length} ${t`files`}. ${t`Runs of this chat start from it until a message carries memory of its own.`}`;
}
