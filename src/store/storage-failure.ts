import { RunFailure } from '../contract/errors';

/** Storage errors a run cannot survive, named so a user knows what to do about them. */
export function storageFailure(error: unknown): RunFailure {
    if (error instanceof RunFailure) return error;
    const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    if (error instanceof DOMException && error.name === 'QuotaExceededError') {
        return new RunFailure('store.quota_exceeded', 'The browser refused to store more data for Tavern Agent (storage is full).', detail);
    }
    return new RunFailure('store.write_failed', 'Tavern Agent could not write to its browser storage.', detail);
}
