import { useEffect, useRef, useState } from 'preact/hooks';
import type { LoreDecision, LoreProposal } from '../../contract/lore';
import type { JournalEvent } from '../../contract/events';
import { services } from '../services';

export interface ProposalItem {
    proposal: LoreProposal;
    decision: LoreDecision | null;
}

interface Loaded {
    runId: string;
    nextSeq: number;
    items: ProposalItem[];
}

function applyEvents(state: Loaded, events: readonly JournalEvent[]): Loaded {
    let items = state.items;
    let nextSeq = state.nextSeq;
    for (const event of events) {
        if (event.seq < nextSeq) continue;
        nextSeq = event.seq + 1;
        if (event.type === 'lore-propose') items = [...items, { proposal: event.payload, decision: null }];
        else if (event.type === 'lore-decide') {
            const decision = event.payload;
            items = items.map((item) => (item.proposal.proposalId === decision.proposalId ? { ...item, decision } : item));
        }
    }
    return { runId: state.runId, nextSeq, items };
}

/**
 * The run's lore proposals and the user's decisions, read from its journal. Incremental: each change of
 * `revision` (changed by the timeline on each lore event of the run, and when it ends) reads only the events since the last read, so a live run stays cheap.
 */
export function useLoreProposals(runId: string, revision: number): { items: ProposalItem[]; reload(): Promise<void> } {
    const [state, setState] = useState<Loaded>({ runId, nextSeq: 0, items: [] });
    const current = useRef(state);
    current.current = state.runId === runId ? state : { runId, nextSeq: 0, items: [] };
    const reading = useRef<Promise<void> | null>(null);

    async function read(): Promise<void> {
        // One read at a time: a burst of events during a live run queues behind the read in flight.
        while (reading.current) await reading.current;
        const task = (async () => {
            const from = current.current;
            const events = await (await services().engine()).readEvents(runId, from.nextSeq);
            if (!events.ok || current.current.runId !== runId) return;
            const next = applyEvents(current.current, events.value);
            current.current = next;
            setState(next);
        })();
        reading.current = task;
        try {
            await task;
        } finally {
            reading.current = null;
        }
    }

    useEffect(() => {
        void read().catch(() => undefined);
    }, [runId, revision]);
    return { items: current.current.items, reload: read };
}
