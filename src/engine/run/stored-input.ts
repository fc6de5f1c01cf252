import { RunInputSchema, type RunInput } from '../../contract/run-input';
import type { RunStorage } from '../../store/run-storage';

/** The part of a run's frozen input that input/prompt.json, chat.json and worldinfo.json do not hold. */
export const RUN_INPUT_PATH = 'input/run.json';

export function storedRunInput(input: RunInput): string {
    const { generationType, chat, profile, source, retry, skills, hiddenSkills, fix } = input;
    return JSON.stringify({ generationType, chat, profile, source, retry, skills, hiddenSkills, ...(fix ? { fix } : {}) });
}

/**
 * The run's input as it was frozen at start, read back from its hidden input files (for resume), or null
 * when any of them is gone or unreadable (pruned, imported, written by an older version).
 */
export async function loadStoredInput(storage: RunStorage, runId: string): Promise<RunInput | null> {
    try {
        const [run, chat, prompt, worldInfo] = await Promise.all(
            [RUN_INPUT_PATH, 'input/chat.json', 'input/prompt.json', 'input/worldinfo.json'].map((path) => storage.getFile(runId, path)),
        );
        if (!run || !chat || !prompt || !worldInfo) return null;
        const parsed = RunInputSchema.safeParse({
            ...(JSON.parse(run.content) as object),
            runId,
            prefix: (JSON.parse(chat.content) as { prefix?: unknown }).prefix,
            prompt: JSON.parse(prompt.content),
            worldInfo: JSON.parse(worldInfo.content),
        });
        return parsed.success ? parsed.data : null;
    } catch {
        return null;
    }
}
