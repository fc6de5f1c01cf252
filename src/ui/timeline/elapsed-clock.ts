/**
 * Elapsed time that only runs forward. A run's start is a journal stamp from the worker's wall clock; the
 * page reads it against its own. Wall clocks jump (NTP, a sleeping laptop), a stale render's "now" can
 * predate a fresh stamp, and the end event lands a frame after the last tick: each made the header show
 * negative or shrinking times. So the page anchors once (wall gap at first sight, clamped at zero), then
 * counts on its monotonic clock, and never shows less than it already showed.
 */
export class ElapsedClock {
    private anchor: { startedAt: number; base: number; monoAt: number } | null = null;
    private shown = 0;

    /**
     * Milliseconds since `startedAt`: `endedAt - startedAt` once ended, else counted on the monotonic clock
     * from the first reading. `wall` and `mono` are the page's Date.now() and performance.now().
     */
    read(startedAt: number, endedAt: number | null, wall: number, mono: number): number {
        let elapsed: number;
        if (endedAt !== null) {
            elapsed = endedAt - startedAt;
        } else {
            // A new start stamp (the page's provisional one replaced by the journal's) anchors anew.
            if (this.anchor === null || this.anchor.startedAt !== startedAt) this.anchor = { startedAt, base: Math.max(0, wall - startedAt), monoAt: mono };
            elapsed = this.anchor.base + Math.max(0, mono - this.anchor.monoAt);
        }
        this.shown = Math.max(this.shown, elapsed, 0);
        return this.shown;
    }
}
