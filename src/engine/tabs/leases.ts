import type { RunRecord } from '../../contract/records';
import { LEASE_RENEW_MS, LEASE_TTL_MS } from './protocol';

/** A run whose lease some tab renewed recently is alive there, Web Locks or not. */
export function leaseHeld(run: RunRecord, now: number): boolean {
    return run.lease !== undefined && run.lease.until > now;
}

/**
 * Renews the run's lease now and every LEASE_RENEW_MS until the returned function is called, so other tabs
 * without Web Locks see the run as alive. A failed renewal is left to the next one. No owner, no lease.
 */
export function startLease(run: { record: RunRecord; saveRecord(): Promise<void>; now(): number }, owner: string | undefined): () => void {
    if (!owner) return () => undefined;
    const renew = () => {
        run.record.lease = { owner, until: run.now() + LEASE_TTL_MS };
        void run.saveRecord().catch(() => undefined);
    };
    renew();
    const timer = setInterval(renew, LEASE_RENEW_MS);
    return () => {
        clearInterval(timer);
        delete run.record.lease;
    };
}
