import type { ConnectionProfile } from '../../contract/connection-profile';
import type { Profile } from '../../contract/profile';

/**
 * Whether an agent's model is configured (issue 39 §10), and if not, why: "the current connection" always is
 * (the run itself talks to it); a Connection Manager profile is when the page still has it and its API is one
 * Agent Mode can drive. `connections` undefined: the page said nothing (a unit test's run), so every model is.
 * An agent whose model is not configured is neither listed nor delegated to.
 */
export function modelRefusal(target: Pick<Profile, 'id' | 'model'>, connections: readonly ConnectionProfile[] | undefined): string | null {
    const { model } = target;
    if (model.mode === 'current' || connections === undefined) return null;
    const connection = connections.find((candidate) => candidate.id === model.profileId);
    if (!connection) return `the model of "${target.id}" is not configured: its connection profile "${model.profileName}" no longer exists`;
    if (connection.protocol === 'none') {
        return `the model of "${target.id}" is not configured: its connection profile "${connection.name}" uses an API Agent Mode cannot drive (${connection.api || 'none'})`;
    }
    return null;
}
