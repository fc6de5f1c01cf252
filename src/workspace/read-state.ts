/**
 * What the agent has read of each file in this run (SPEC §3): apply_patch may only replace text the agent
 * has seen, in the version it saw. A file the run created or replaced counts as fully read.
 */
interface ReadRecord {
    version: number;
    full: boolean;
    /** [start, end) character ranges seen, for partial reads. */
    ranges: Array<[number, number]>;
}

export class ReadState {
    private readonly records = new Map<string, ReadRecord>();

    recordFull(path: string, version: number): void {
        this.records.set(path, { version, full: true, ranges: [] });
    }

    recordRange(path: string, version: number, start: number, end: number): void {
        const current = this.records.get(path);
        if (current && current.version === version) {
            if (!current.full) current.ranges.push([start, end]);
            return;
        }
        this.records.set(path, { version, full: false, ranges: [[start, end]] });
    }

    /** The version the agent last read, or undefined if it never read the file. */
    versionRead(path: string): number | undefined {
        return this.records.get(path)?.version;
    }

    /** Whether every occurrence at `offsets` (length `length`) lies in text the agent has seen. */
    covers(path: string, offsets: readonly number[], length: number): boolean {
        const record = this.records.get(path);
        if (!record) return false;
        if (record.full) return true;
        return offsets.every((offset) => record.ranges.some(([start, end]) => offset >= start && offset + length <= end));
    }

    forget(path: string): void {
        this.records.delete(path);
    }
}
