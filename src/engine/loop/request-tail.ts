import type { WireMessage } from '../../contract/model';
import { planNote } from '../../contract/plan';
import type { AgentTrack } from '../projection/agent-track';

/**
 * What follows an agent's conversation in its next request only: its current plan (issue 38 §4). Last, so
 * the prefix before it stays the same from request to request and provider prompt caches keep hitting;
 * never part of the conversation, so it is not sent again as history.
 */
export function requestTail(track: Pick<AgentTrack, 'plan'>): WireMessage[] {
    return track.plan && track.plan.length > 0 ? [{ role: 'user', content: planNote(track.plan) }] : [];
}
