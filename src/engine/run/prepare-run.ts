import type { MemoryBase } from './memory-base';
import { fixMemoryBase, seedFixOutput } from './fix-run';
import { Workspace } from '../../workspace/workspace';
import type { RunSession } from './run-session';
import { storedInputFiles } from './stored-input';

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
    // The whole frozen input in one write, last: a run whose inputs are stored was prepared, and resumes as itself.
    await session.fileStore.putFiles(storedInputFiles(input).map(({ path, content }) => workspace.record(path, content, 0)));
    return { workspace, memory };
}
