import { t } from './t';

/** A run's (or a task's) state in the reader's words: the timeline, History and the `/agent status` toast. */
export function stateLabel(state: string): string {
    switch (state) {
        case 'created':
            return t`created`;
        case 'preparing':
            return t`preparing`;
        case 'running':
            return t`running`;
        case 'awaiting_commit':
            return t`committing`;
        case 'finishing':
            return t`finishing`;
        case 'completed':
            return t`completed`;
        case 'failed':
            return t`failed`;
        case 'cancelled':
            return t`cancelled`;
        case 'interrupted':
            return t`interrupted`;
        default:
            return state;
    }
}
