import type { RunInput } from '../contract/run-input';
import type { RunStorage } from '../store/run-storage';
import { Workspace } from '../workspace/workspace';
import type { RunSession } from './run-session';

/**
 * The run's first steps, each journaled: the record, `preparing`, the frozen skill set, the workspace
 * seeded with the chat's persist/ memory, and the frozen inputs kept as hidden files for the timeline.
 */
export async function prepareRun(session: RunSession): Promise<Workspace> {
    const { input, record, journal } = session;
    const profile = input.profile;
    await session.saveRecord();
    await journal.append('run-create', {
        chatKey: record.chatKey,
        chatId: record.chatId,
        profileId: record.profileId,
        generationType: record.generationType,
        foreground: profile.presentation === 'foreground',
    });
    await session.setState('preparing');
    await journal.append('skills-resolve', { skills: input.skills.map(({ name, scope, hash }) => ({ name, scope, hash })) });
    const workspace = new Workspace(
        input.runId,
        { visible: profile.workspace.visibleRoots, writable: profile.workspace.writableRoots },
        session.fileStore,
        journal,
        session.now,
    );
    await workspace.seed(await persistBase(input, session.deps.storage));
    await workspace.writeHidden('input/prompt.json', JSON.stringify(input.prompt, null, 1));
    await workspace.writeHidden('input/chat.json', JSON.stringify({ chat: input.chat, prefix: input.prefix }, null, 1));
    await workspace.writeHidden('input/worldinfo.json', JSON.stringify(input.worldInfo, null, 1));
    return workspace;
}

/**
 * persist/ follows the branch: the newest message of the prefix committed by a run that completed gives
 * the starting memory, so a swipe or regenerate never sees a discarded run's memory. A persist state
 * counts only once its run record says `completed`: that last write is what promotes it, so a run that
 * failed after storing its state never leaks it.
 */
async function persistBase(input: RunInput, storage: RunStorage): Promise<Record<string, string>> {
    for (let i = input.prefix.length - 1; i >= 0; i -= 1) {
        const runId = input.prefix[i]!.agentRunId;
        if (!runId) continue;
        const [run, state] = await Promise.all([
            storage.getRun(runId).catch(() => undefined),
            storage.getPersistState(runId).catch(() => undefined),
        ]);
        if (run?.state === 'completed' && state) return state.files;
    }
    return {};
}
