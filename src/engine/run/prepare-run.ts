import type { MemoryBase } from './memory-base';
import { fixMemoryBase, seedFixOutput } from './fix-run';
import { Workspace } from '../../workspace/workspace';
import type { RunSession } from './run-session';
import { RUN_INPUT_PATH, storedRunInput } from './stored-input';

/**
 * The run's first steps, each journaled: the record, `preparing`, the frozen skill set, the workspace
 * seeded with the chat's persist/ memory, and the frozen inputs kept as hidden files for the timeline.
 */
export async function prepareRun(session: RunSession): Promise<{ workspace: Workspace; memory: MemoryBase }> {
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
    const memory = await fixMemoryBase(input, session.deps.storage);
    await workspace.seed(memory.files);
    await seedFixOutput(workspace, input.fix);
    // Queued together: the browser stores one while the worker serializes and chunks the next (a long chat's
    // prefix is megabytes). Their transactions share their stores, so they still land in this order, each whole.
    await Promise.all([
        workspace.writeHidden('input/prompt.json', JSON.stringify(input.prompt, null, 1)),
        workspace.writeHidden('input/chat.json', JSON.stringify({ chat: input.chat, prefix: input.prefix }, null, 1)),
        workspace.writeHidden('input/worldinfo.json', JSON.stringify(input.worldInfo, null, 1)),
        // The rest of the frozen input (profile included), so an interrupted run can resume as itself.
        workspace.writeHidden(RUN_INPUT_PATH, storedRunInput(input)),
    ]);
    return { workspace, memory };
}
