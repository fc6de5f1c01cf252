/**
 * THE MULTI-TAB PROTOCOL. Several tabs of one SillyTavern user share one IndexedDB database; each tab runs
 * its own engine (this worker). What keeps them from stepping on each other:
 *
 * 1. One writer per chat. A run works on its chat only while its engine holds the chat's Web Lock
 *    (`tavern-agent-chat:<chatKey>`, asked for `ifAvailable`): a second run of the chat, in this tab or
 *    another, is refused at once with `run.chat_busy` (chat-writer.ts). Without Web Locks (plain-HTTP LAN
 *    origins) the run's lease claim decides (§2): it is exclusive, and refused with `run.chat_busy` while
 *    another run of the chat that is not over holds a fresh lease. Two tabs starting in the same instant:
 *    IndexedDB runs their claims one after the other, so the second sees the first's lease.
 * 2. The run lease. Before it writes anything, a run claims a lease in its record, `{owner, token, until}`
 *    (leases.ts): one readwrite transaction over the chat's records reads them, checks, revokes the leases
 *    that ran out (their runs are cut off), and writes the run's record with its lease and a fresh token.
 *    The run renews it every LEASE_RENEW_MS for LEASE_TTL_MS, each renewal one transaction that reads the
 *    record, checks the token and writes. Every save of the run's record is such a transaction too (and
 *    renews the lease); the save right before a commit (`awaiting_commit`) is the commit's check.
 * 3. Losing the lease. A tab that finds another token (or none) on a renewal or a save has lost the run:
 *    another tab took it over, or marked it interrupted, while this one was frozen or asleep. It stops the
 *    run at once and writes nothing more: its record, journal, files and persist/ writes fail with
 *    `run.lease_lost`, and so does its outcome. A frozen tab that wakes after another took over never commits.
 * 4. A live run is known by its lock. While it works, a run's engine holds its Web Lock
 *    (`tavern-agent-run:<runId>`); `navigator.locks.query()` lists the runs some tab is working on
 *    (run-locks.ts). Without Web Locks, a run whose lease is fresh is live.
 * 5. The sweep. An engine that opens the database, lists runs or prepares a resume first marks every run
 *    that is not over and that no tab works on (no lock held, no fresh lease) as `interrupted`, journaled,
 *    one sweep at a time (sweep.ts); each run is checked again and marked in one transaction, and loses its
 *    lease. Where Web Locks exist their locks are the truth: a lease left by a reloaded page is not. A page
 *    that saw its worker die marks that run at once (no lock or lease trusted).
 * 6. The journal refuses a second writer. A journal writes consecutive seqs from the end of the stored one,
 *    each group added (never put) under its first seq: of two journals of one run, the second write fails.
 * 7. Live view. Events of a run go to its own tab over the run's bridge, and to every other tab of the user
 *    over a BroadcastChannel (`live-channel.ts`), read-only; a viewer that misses one reads the run again.
 */

/** How long a run's lease lasts without renewal, and how often the working tab renews it (leases.ts: LEASE_TIMING). */
export const LEASE_TTL_MS = 15_000;
export const LEASE_RENEW_MS = 5_000;

/** The Web Lock a run holds while it works, so another tab's engine can tell a live run from a cut-off one. */
export function runLockName(runId: string): string {
    return `tavern-agent-run:${runId}`;
}

/** The Web Lock a tab holds while it runs an agent on a chat: one writer per chat. */
export function chatLockName(chatKey: string): string {
    return `tavern-agent-chat:${chatKey}`;
}

/** Web Locks, where the browser has them (a secure context); null on a plain-HTTP origin. */
export function webLocks(): LockManager | null {
    return (globalThis.navigator as Navigator | undefined)?.locks ?? null;
}
