/** Small statistics over timing samples. Medians and percentiles only: means hide the outliers a shared machine makes. */

export function sorted(values: readonly number[]): number[] {
    return [...values].sort((a, b) => a - b);
}

/** The p-th percentile (0–100) by the nearest-rank method; NaN for no samples. */
export function percentile(values: readonly number[], p: number): number {
    if (values.length === 0) return Number.NaN;
    const ordered = sorted(values);
    const rank = Math.ceil((p / 100) * ordered.length);
    return ordered[Math.min(ordered.length - 1, Math.max(0, rank - 1))]!;
}

export function median(values: readonly number[]): number {
    if (values.length === 0) return Number.NaN;
    const ordered = sorted(values);
    const mid = ordered.length >> 1;
    return ordered.length % 2 ? ordered[mid]! : (ordered[mid - 1]! + ordered[mid]!) / 2;
}

export function max(values: readonly number[]): number {
    return values.length === 0 ? Number.NaN : Math.max(...values);
}

/** Rounds for display and JSON: 3 significant decimals below 10, 1 decimal below 1000, whole numbers above. */
export function round(value: number): number {
    if (!Number.isFinite(value)) return value;
    const abs = Math.abs(value);
    if (abs >= 1000) return Math.round(value);
    if (abs >= 10) return Math.round(value * 10) / 10;
    return Math.round(value * 1000) / 1000;
}
