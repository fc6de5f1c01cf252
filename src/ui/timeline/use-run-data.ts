import { useEffect, useState } from 'preact/hooks';
import type { CheckpointDiff } from '../../contract/archive';
import type { Result } from '../../contract/result';
import { services } from '../services';

/** Loads a run's stored data when a row is opened, not before: a run of 5,000 events reads nothing up front. */

export type Loaded<T> = { state: 'loading' } | { state: 'ready'; value: T } | { state: 'error'; message: string };

const LIMIT = 200;
/** Stored files and diffs never change under a key (a restore writes a new version), so they are kept a while. */
const cache = new Map<string, unknown>();

function remember(key: string, value: unknown): void {
    cache.set(key, value);
    if (cache.size > LIMIT) cache.delete(cache.keys().next().value!);
}

function useLoaded<T>(key: string | null, load: () => Promise<Result<T>>, cacheable: boolean): Loaded<T> | null {
    const [loaded, setLoaded] = useState<Loaded<T> | null>(() => (key && cache.has(key) ? { state: 'ready', value: cache.get(key) as T } : null));
    useEffect(() => {
        if (!key) {
            setLoaded(null);
            return;
        }
        if (cache.has(key)) {
            setLoaded({ state: 'ready', value: cache.get(key) as T });
            return;
        }
        let alive = true;
        setLoaded({ state: 'loading' });
        load()
            .then((result) => {
                if (!alive) return;
                if (result.ok) {
                    if (cacheable) remember(key, result.value);
                    setLoaded({ state: 'ready', value: result.value });
                } else setLoaded({ state: 'error', message: `${result.error.message} (${result.error.code})` });
            })
            .catch((error: unknown) => alive && setLoaded({ state: 'error', message: error instanceof Error ? error.message : String(error) }));
        return () => {
            alive = false;
        };
    }, [key]);
    return loaded;
}

/** A file of the run (tool arguments and results, drafts). Hidden stores are written once, so they are cached. */
export function useRunFile(runId: string, path: string | null, version = 0): Loaded<string> | null {
    const key = path ? `file\n${runId}\n${path}\n${version}` : null;
    const cacheable = path !== null && /^(tool-args|tool-results|model-responses|input)\//.test(path);
    return useLoaded(
        key,
        async () => {
            const result = await (await services().engine()).readRunFile(runId, path!);
            return result.ok ? { ok: true, value: result.value.content } : result;
        },
        cacheable,
    );
}

export function useCheckpointDiff(runId: string, seq: number | null): Loaded<CheckpointDiff> | null {
    const key = seq === null ? null : `diff\n${runId}\n${seq}`;
    return useLoaded(key, async () => (await services().engine()).checkpointDiff(runId, seq!), true);
}
