// A number kept in a chat variable (the reply agent's `trust`, the state keeper's `replies_seen`): read it
// with state_get, then set it to 1 when it is not there yet, or add 1 with state_patch's delta.
import type { MockTurn } from '../../tests/harness/mock-model';
import { resultOf, type DemoRequest } from './read-request';
import { call, numberAfter, turn } from './turns';

export const readCounter = (path: string, note: string): MockTurn => turn(note, call('state_get', { scope: 'chat', path }));

/** The number state_get read this run ("chat/trust:\n\"2\""), or null when nothing was there. */
export function counterValue(request: DemoRequest, path: string): number | null {
    const read = resultOf(request, 'state_get');
    return read.startsWith('ERROR') ? null : numberAfter(read, new RegExp(`chat${path}:`));
}

export function raiseCounter(request: DemoRequest, path: string, reason: string): MockTurn {
    return counterValue(request, path) === null
        ? turn(undefined, call('state_set', { scope: 'chat', path, value: 1, reason }))
        : turn(undefined, call('state_patch', { scope: 'chat', ops: [{ op: 'delta', path, value: 1 }], reason }));
}
