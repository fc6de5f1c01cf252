/**
 * Row heights of a virtualized list, kept in a Fenwick tree so that every operation the list needs costs
 * O(log n): append a row, change one row's measured height, the offset of a row, the row at an offset.
 * A new event therefore costs the same whether the run has 50 rows or 50,000. Unmeasured rows count
 * with the estimate until they are drawn once.
 */
export class HeightIndex {
    private tree: number[] = [0];
    private heights: number[] = [];
    private measured: boolean[] = [];

    constructor(private estimate: number) {}

    get length(): number {
        return this.heights.length;
    }

    get total(): number {
        return this.prefix(this.heights.length);
    }

    get estimated(): number {
        return this.estimate;
    }

    heightOf(index: number): number {
        return this.heights[index] ?? 0;
    }

    isMeasured(index: number): boolean {
        return this.measured[index] ?? false;
    }

    append(height = this.estimate, isMeasured = false): void {
        this.heights.push(height);
        this.measured.push(isMeasured);
        const i = this.heights.length;
        // A Fenwick node i holds the sum of (i - lowbit(i), i]: that is prefix(i - 1) - prefix(i - lowbit(i)) + height.
        const low = i & -i;
        this.tree[i] = this.prefix(i - 1) - this.prefix(i - low) + height;
    }

    /** Sets a row's real height; returns true when it changed. */
    set(index: number, height: number): boolean {
        if (index < 0 || index >= this.heights.length) return false;
        this.measured[index] = true;
        const delta = height - this.heights[index]!;
        if (delta === 0) return false;
        this.heights[index] = height;
        for (let i = index + 1; i < this.tree.length; i += i & -i) this.tree[i]! += delta;
        return true;
    }

    /** Changes the estimate of the rows not measured yet (once, when the first row is measured). */
    setEstimate(height: number): void {
        if (height === this.estimate || height <= 0) return;
        this.estimate = height;
        const heights = this.heights.map((h, i) => (this.measured[i] ? h : height));
        const measured = this.measured;
        this.tree = [0];
        this.heights = [];
        this.measured = [];
        heights.forEach((h, i) => this.append(h, measured[i]));
    }

    /** The top of row `index` (the sum of the heights before it). */
    offsetOf(index: number): number {
        return this.prefix(Math.max(0, Math.min(index, this.heights.length)));
    }

    /** The row that covers `offset` (clamped to the first and the last row). */
    indexAt(offset: number): number {
        const n = this.heights.length;
        if (n === 0) return 0;
        if (offset <= 0) return 0;
        let position = 0;
        let remaining = offset;
        for (let step = highestPowerOfTwo(n); step > 0; step >>= 1) {
            const next = position + step;
            if (next <= n && this.tree[next]! <= remaining) {
                position = next;
                remaining -= this.tree[next]!;
            }
        }
        return Math.min(position, n - 1);
    }

    private prefix(count: number): number {
        let sum = 0;
        for (let i = count; i > 0; i -= i & -i) sum += this.tree[i]!;
        return sum;
    }
}

function highestPowerOfTwo(n: number): number {
    let p = 1;
    while (p * 2 <= n) p *= 2;
    return p;
}

export interface VisibleRange {
    start: number;
    /** Exclusive. */
    end: number;
    padTop: number;
    padBottom: number;
}

/** The rows to draw for a scroll position, with `overscan` rows beyond each edge, and the spacer sizes. */
export function visibleRange(index: HeightIndex, scrollTop: number, viewport: number, overscan: number): VisibleRange {
    const n = index.length;
    if (n === 0) return { start: 0, end: 0, padTop: 0, padBottom: 0 };
    const first = index.indexAt(scrollTop);
    const last = index.indexAt(scrollTop + Math.max(viewport, 1));
    const start = Math.max(0, first - overscan);
    const end = Math.min(n, last + 1 + overscan);
    const padTop = index.offsetOf(start);
    return { start, end, padTop, padBottom: Math.max(0, index.total - index.offsetOf(end)) };
}

/** Whether drawing `next` instead of `drawn` (null: nothing drawn yet) changes the list: other rows or spacers. */
export function rangeChanged(drawn: VisibleRange | null, next: VisibleRange): boolean {
    return !drawn || drawn.start !== next.start || drawn.end !== next.end || drawn.padTop !== next.padTop || drawn.padBottom !== next.padBottom;
}

/** The scroll position that brings row `row` fully into view, or null when it already is. */
export function scrollToReveal(index: HeightIndex, row: number, scrollTop: number, viewport: number): number | null {
    const top = index.offsetOf(row);
    const bottom = top + index.heightOf(row);
    if (top < scrollTop) return top;
    if (bottom > scrollTop + viewport) return Math.max(0, bottom - viewport);
    return null;
}

/**
 * The part of a list in view when the list scrolls with the page around it (one scroll container for the
 * whole panel): `listTop` is where the list starts in the scroller's content. Returns the window in the
 * list's own coordinates (0 = the list's top), empty when the list is out of view.
 */
export function viewportInList(scrollTop: number, viewport: number, listTop: number): { top: number; height: number } {
    const top = Math.max(0, scrollTop - listTop);
    const bottom = scrollTop + viewport - listTop;
    return { top, height: Math.max(0, bottom - top) };
}

/**
 * The window a list that follows its end will show once it is scrolled there: its last `viewport` pixels (the
 * scroller's height), or the window it shows now when the list's end is already in it.
 */
export function endWindow(total: number, view: { top: number; height: number }, viewport: number): { top: number; height: number } {
    const top = total - viewport;
    return top > view.top ? { top, height: viewport } : view;
}
