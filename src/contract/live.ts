import type { JournalEvent } from './events';
import type { RunOutcome } from './run-input';

/**
 * What the tab running an agent tells the other tabs of the same SillyTavern user (BroadcastChannel), so
 * they show its run live and read-only: events as they are journaled, then the outcome.
 */
export type LiveMessage = { kind: 'events'; chatKey: string; events: JournalEvent[] } | { kind: 'end'; chatKey: string; outcome: RunOutcome };

/** One channel per SillyTavern user: users of one server share the origin, never their runs. */
export function liveChannelName(userHandle: string): string {
    return `tavern-agent-live:${encodeURIComponent(userHandle)}`;
}
