import { toolError } from '../../contract/errors';
import { failure, type ToolOutcome } from '../tool';

/** A context without delegation (never in a run; only in contexts built for other tools). */
export function agentsUnavailable(): ToolOutcome {
    return failure(toolError('agent.delegation_denied', 'Delegation is not available here.', 'Do the work yourself.'));
}
