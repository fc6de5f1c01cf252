import { chatLockName, webLocks } from './protocol';

/**
 * Runs `work` as the chat's only writer, or returns `busy()` at once when another tab (or this one) is
 * writing there. With Web Locks the chat's lock decides; without them (plain HTTP) `work` goes on, and the
 * run's exclusive lease claim decides (leases.ts): it throws ChatBusy before the run writes anything.
 */
export async function withChatWriter<T>(chatKey: string, work: () => Promise<T>, busy: () => T): Promise<T> {
    const locks = webLocks();
    if (!locks) return work();
    return (await locks.request(chatLockName(chatKey), { ifAvailable: true }, async (lock) => (lock ? work() : busy()))) as T;
}
