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

    /**
     * A patch made version `to` from version `from` (issue 39 §10): what the agent had read of `from` moves with
     * the edits, and the text it wrote (each new string) counts as read. A file read whole stays read whole;
     * text it never read stays unread, however many patches it made elsewhere.
     */
    recordPatch(path: string, from: number, to: number, edits: ReadonlyArray<{ offset: number; oldLength: number; newLength: number }>): void {
        const current = this.records.get(path);
        if (current?.full && current.version === from) {
            this.recordFull(path, to);
            return;
        }
        const sorted = [...edits].sort((a, b) => a.offset - b.offset);
        /** Where a position of `from` lands in `to`; inside a replaced span, at its new start or end. */
        const moved = (position: number, side: 'start' | 'end'): number => {
            let shift = 0;
            for (const edit of sorted) {
                if (position <= edit.offset) break;
                if (position < edit.offset + edit.oldLength) return edit.offset + shift + (side === 'start' ? 0 : edit.newLength);
                shift += edit.newLength - edit.oldLength;
            }
            return position + shift;
        };
        const kept: Array<[number, number]> = current && current.version === from ? current.ranges.map(([start, end]) => [moved(start, 'start'), moved(end, 'end')]) : [];
        let shift = 0;
        const written: Array<[number, number]> = sorted.map((edit) => {
            const start = edit.offset + shift;
            shift += edit.newLength - edit.oldLength;
            return [start, start + edit.newLength];
        });
        this.records.set(path, { version: to, full: false, ranges: [...kept, ...written] });
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
