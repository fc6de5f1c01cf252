import { useEffect, useState } from 'preact/hooks';

/** Now, once a second while something goes on (an elapsed time ticks); nothing ticks once it ended. */
export function useNow(ticking: boolean): number {
    const [now, setNow] = useState(Date.now());
    useEffect(() => {
        if (!ticking) return;
        setNow(Date.now());
        const timer = setInterval(() => setNow(Date.now()), 1000);
        return () => clearInterval(timer);
    }, [ticking]);
    return now;
}
