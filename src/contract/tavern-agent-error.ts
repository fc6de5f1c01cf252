/** An API failure: the message a person reads, and the stable code a script checks. */
export class TavernAgentError extends Error {
    constructor(
        readonly code: string,
        message: string,
    ) {
        super(`${message} (${code})`);
        this.name = 'TavernAgentError';
    }
}
