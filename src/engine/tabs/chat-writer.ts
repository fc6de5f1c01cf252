import { chatLockName, webLocks } from './protocol';

/**
 * Runs `work` as the chat's only writer, or returns `busy()` at once when another tab (or this one) is
 * writing there. With Web Locks the chat's lock decides; without them (plain HTTP), a run of the chat that
 * is not over and whose lease is fresh does.
 */
export async function withChatWriter<T>(chatKey: string, othersAlive: () => Promise<boolean>, work: () => Promise<T>, busy: () => T): Promise<T> {
    const locks = webLocks();
    if (locks) {
        return (await locks.request(chatLockName(chatKey), { ifAvailable: true }, async (lock) => (lock ? work() : busy()))) as T;
    }
    if (await othersAlive()) return busy();
    return work();
}
