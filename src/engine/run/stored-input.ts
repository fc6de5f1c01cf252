import { RunInputSchema, type RunInput } from '../../contract/run-input';
import type { RunStorage } from '../../store/run-storage';

/** The part of a run's frozen input that the other input files do not hold (profile, skills, script…). */
export const RUN_INPUT_PATH = 'input/run.json';
const CHAT_PATH = 'input/chat.json';
const PROMPT_PATH = 'input/prompt.json';
const WORLD_INFO_PATH = 'input/worldinfo.json';
/** The lorebooks in scope (the lore tools' input), when the page captured them. */
const LORE_PATH = 'input/lore.json';
/** The chat's state as the run froze it (issue 36), when the page captured it. */
const STATE_PATH = 'input/state.json';

/**
 * The stored input's format. 1: prompt, chat, activation, profile, skills, fix. 2: everything a run reads,
 * so every run resumes as itself: its script, lore, extension tools, skill pool and agent profiles too, and
 * its sub-agent tasks journal their whole spec (task-start) and the results put into a turn (task-inject).
 */
export const STORED_INPUT_FORMAT = 2;

/** The run's frozen input as its hidden input files, stored together in one write before the run's first request. */
export function storedInputFiles(input: RunInput): Array<{ path: string; content: string }> {
    const { generationType, chat, profile, source, retry, skills, hiddenSkills, fix, script, extTools, skillPool, agentProfiles, lore, phase, brief, follows, turnId, build, memorySeed } = input;
    const rest = { format: STORED_INPUT_FORMAT, generationType, chat, profile, source, retry, skills, hiddenSkills, fix, script, extTools, skillPool, agentProfiles, phase, brief, follows, turnId, build, memorySeed };
    return [
        { path: PROMPT_PATH, content: JSON.stringify(input.prompt, null, 1) },
        { path: CHAT_PATH, content: JSON.stringify({ chat: input.chat, prefix: input.prefix }, null, 1) },
        { path: WORLD_INFO_PATH, content: JSON.stringify(input.worldInfo, null, 1) },
        ...(lore ? [{ path: LORE_PATH, content: JSON.stringify(lore, null, 1) }] : []),
        ...(input.state ? [{ path: STATE_PATH, content: JSON.stringify(input.state) }] : []),
        // JSON leaves out the absent (undefined) parts.
        { path: RUN_INPUT_PATH, content: JSON.stringify(rest) },
    ];
}

/**
 * The run's input as it was frozen at start, read back from its hidden input files (for resume), with the
 * format it was stored in; or null when any of them is gone or unreadable (pruned, imported, damaged).
 */
export async function loadStoredInput(storage: RunStorage, runId: string): Promise<{ input: RunInput; format: number } | null> {
    try {
        const [run, chat, prompt, worldInfo, lore, state] = await Promise.all([RUN_INPUT_PATH, CHAT_PATH, PROMPT_PATH, WORLD_INFO_PATH, LORE_PATH, STATE_PATH].map((path) => storage.getFile(runId, path)));
        if (!run || !chat || !prompt || !worldInfo) return null;
        const { format, ...rest } = JSON.parse(run.content) as { format?: unknown };
        const parsed = RunInputSchema.safeParse({
            ...rest,
            runId,
            prefix: (JSON.parse(chat.content) as { prefix?: unknown }).prefix,
            prompt: JSON.parse(prompt.content),
            worldInfo: JSON.parse(worldInfo.content),
            ...(lore ? { lore: JSON.parse(lore.content) } : {}),
            ...(state ? { state: JSON.parse(state.content) } : {}),
        });
        return parsed.success ? { input: parsed.data, format: typeof format === 'number' ? format : 1 } : null;
    } catch {
        return null;
    }
}
