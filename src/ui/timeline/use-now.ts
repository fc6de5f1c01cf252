import { useEffect, useRef, useState } from 'preact/hooks';
import { ElapsedClock } from './elapsed-clock';

/** Under a second, so a late timer (a busy main thread) still shows a new value each second. */
const TICK_MS = 500;

/**
 * Time elapsed since `startedAt` (a journal stamp), re-read twice a second while `ticking`; it never runs
 * backwards while the component lives for the same `key` (a run, a row). Null without a start.
 */
export function useElapsed(key: string, startedAt: number | null, endedAt: number | null, ticking: boolean): number | null {
    const clock = useRef<{ key: string; clock: ElapsedClock } | null>(null);
    if (clock.current === null || clock.current.key !== key) clock.current = { key, clock: new ElapsedClock() };
    const [, setTick] = useState(0);
    useEffect(() => {
        if (!ticking) return;
        const timer = setInterval(() => setTick((n) => n + 1), TICK_MS);
        return () => clearInterval(timer);
    }, [ticking]);
    if (startedAt === null) return null;
    return clock.current.clock.read(startedAt, ticking ? null : endedAt, Date.now(), performance.now());
}
