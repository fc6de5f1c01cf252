import type { ErrorCode } from '../contract/errors';

/**
 * A failure on the page with one of the contract's codes (no chat open, a connection profile gone, no prompt
 * assembled), thrown while a run is prepared and turned into the run's outcome by the launch path.
 */
export class HostError extends Error {
    constructor(
        readonly code: ErrorCode,
        message: string,
    ) {
        super(message);
        this.name = 'HostError';
    }
}
