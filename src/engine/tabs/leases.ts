import { RunFailure } from '../../contract/errors';
import { newId } from '../../contract/new-id';
import { isEndedState, type RunRecord } from '../../contract/records';
import type { RunStorage, RunsUpdate } from '../../store/run-storage';
import { LEASE_RENEW_MS, LEASE_TTL_MS } from './protocol';

type Lease = NonNullable<RunRecord['lease']>;
/** A lease this engine claimed: its token names the claim. */
type HeldLease = Lease & { token: string };

/** A run whose lease some tab renewed recently is alive there, Web Locks or not. */
export function leaseHeld(run: RunRecord, now: number): boolean {
    return run.lease !== undefined && run.lease.until > now;
}

/** How long a lease lasts unrenewed, and how often its holder renews it. Users get the defaults; tests shorten them. */
export interface LeaseTiming {
    ttlMs: number;
    renewMs: number;
}

export const LEASE_TIMING: LeaseTiming = { ttlMs: LEASE_TTL_MS, renewMs: LEASE_RENEW_MS };

/** What an engine asks for when it claims a run's lease. */
export interface LeaseTerms {
    /** The engine (one per tab): who holds the lease. */
    owner: string;
    /**
     * The claim makes the run its chat's only writer: it is refused while another run of the chat holds a
     * fresh lease. Where Web Locks exist the chat's lock decides that instead, and a keeper (`after`) works
     * beside the writer: their claims are not exclusive.
     */
    exclusive: boolean;
    /** Told once, when the lease turns out to be another's: the run must stop at once. */
    onLost?: () => void;
    timing?: LeaseTiming;
}

export const LEASE_LOST_MESSAGE = 'Another tab took this run over while this tab was asleep; this tab stopped it and wrote nothing more.';

/** The failure of every write a run makes after it lost its lease. */
export function leaseLost(): RunFailure {
    return new RunFailure('run.lease_lost', LEASE_LOST_MESSAGE);
}

/** A claim refused: another run of the chat holds a fresh lease. The run never starts; nothing of it is stored. */
export class ChatBusy extends Error {
    constructor() {
        super('Another run of the chat holds a fresh lease.');
        this.name = 'ChatBusy';
    }
}

function withoutLease(run: RunRecord): RunRecord {
    const { lease: _lease, ...rest } = run;
    return rest;
}

/**
 * A claim, decided inside its transaction over the chat's records. The run's own record (stored, or `record`
 * for a new run) gets `lease`. An exclusive claim is refused while a run of the chat that is not over holds a
 * fresh lease (a keeper's aside); a run whose lease ran out is cut off, and loses its lease here, so the tab
 * that held it finds the run gone if it ever wakes.
 */
export function decideClaim(stored: readonly RunRecord[], record: RunRecord, lease: Lease, exclusive: boolean, now: number): RunsUpdate<boolean> {
    const mine = { ...(stored.find((run) => run.runId === record.runId) ?? record), lease };
    if (!exclusive) return { value: true, put: [mine] };
    const rivals = stored.filter((run) => run.phase !== 'after' && !isEndedState(run.state));
    if (rivals.some((run) => leaseHeld(run, now))) return { value: false };
    const revoked = rivals.filter((run) => run.runId !== record.runId && run.lease !== undefined).map(withoutLease);
    return { value: true, put: [...revoked, mine] };
}

/** A renewal: the lease lasts `ttlMs` more if the stored record still holds this claim's token; else it is lost. */
export function decideRenewal(stored: RunRecord | undefined, token: string, now: number, ttlMs: number): RunsUpdate<boolean> {
    if (!stored?.lease || stored.lease.token !== token) return { value: false };
    // Ended by this run itself: nothing to renew, nothing lost.
    if (isEndedState(stored.state)) return { value: true };
    return { value: true, put: [{ ...stored, lease: { ...stored.lease, until: now + ttlMs } }] };
}

/**
 * A fenced save: the run's record is put only if the stored one still holds this claim's token, and the save
 * renews the lease (an ended run's lease ends with it). Otherwise nothing is written.
 */
export function decideSave(stored: RunRecord | undefined, record: RunRecord, lease: Lease, now: number, ttlMs: number): RunsUpdate<boolean> {
    if (!stored?.lease || stored.lease.token !== lease.token) return { value: false };
    return { value: true, put: [{ ...record, lease: { ...lease, until: isEndedState(record.state) ? now : now + ttlMs } }] };
}

/**
 * A run's lease, claimed, renewed and checked in one IndexedDB transaction each (tabs/protocol.ts §2, §3). The
 * run's record is written only through `save`, which checks the token in the same transaction: a tab that
 * lost the lease (frozen past it while another took over) writes nothing more, and `lost` fences its other
 * writes (run-session.ts).
 */
export class RunLease {
    private lostLease = false;
    private timer: ReturnType<typeof setInterval> | null = null;

    private constructor(
        private readonly storage: RunStorage,
        private readonly runId: string,
        private readonly lease: HeldLease,
        private readonly terms: LeaseTerms,
        private readonly now: () => number,
    ) {}

    /** Claims the run's lease and renews it every `renewMs` until released; throws ChatBusy when refused. */
    static async claim(storage: RunStorage, record: RunRecord, terms: LeaseTerms, now: () => number): Promise<RunLease> {
        const timing = terms.timing ?? LEASE_TIMING;
        const lease: HeldLease = { owner: terms.owner, token: newId(), until: now() + timing.ttlMs };
        const won = await storage.updateChatRuns(record.chatKey, (stored) => decideClaim(stored, record, lease, terms.exclusive, now()));
        if (!won) throw new ChatBusy();
        const held = new RunLease(storage, record.runId, lease, terms, now);
        held.timer = setInterval(() => void held.renew(), timing.renewMs);
        return held;
    }

    get lost(): boolean {
        return this.lostLease;
    }

    private get ttlMs(): number {
        return (this.terms.timing ?? LEASE_TIMING).ttlMs;
    }

    /** Renews the lease; false (and the run told to stop) when another holds it now. A failed write waits for the next. */
    async renew(): Promise<boolean> {
        if (this.lostLease) return false;
        try {
            const ours = await this.storage.updateRun(this.runId, (stored) => decideRenewal(stored, this.lease.token, this.now(), this.ttlMs));
            if (!ours) this.lose();
            return ours;
        } catch {
            return true;
        }
    }

    /**
     * Where the lease is exclusive (no Web Locks: another tab may take a run over), throws `run.lease_lost`
     * unless the lease is still this claim's; renews it. With Web Locks nobody takes a live run over.
     */
    async confirm(): Promise<void> {
        if (this.terms.exclusive && !(await this.renew())) throw leaseLost();
    }

    /** Puts the run's record if the lease is still this claim's (and renews it); throws `run.lease_lost` otherwise. */
    async save(record: RunRecord): Promise<void> {
        if (this.lostLease) throw leaseLost();
        const ours = await this.storage.updateRun(record.runId, (stored) => decideSave(stored, record, this.lease, this.now(), this.ttlMs));
        if (!ours) {
            this.lose();
            throw leaseLost();
        }
    }

    /** Stops renewing (the run ended). */
    release(): void {
        if (this.timer) clearInterval(this.timer);
        this.timer = null;
    }

    private lose(): void {
        if (this.lostLease) return;
        this.lostLease = true;
        this.release();
        this.terms.onLost?.();
    }
}
