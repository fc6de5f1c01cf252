import { liveChannelName, type LiveMessage } from '../../contract/live';
import { lastEventOf } from '../../contract/events';
import { GenerationTypeSchema } from '../../contract/run-input';
import type { RunObserver } from '../../contract/run-observer';
import { openChatIdentity } from '../sillytavern/chat-identity';
import { currentUserHandle } from '../sillytavern/st-context';

/** Runs this tab ran (their broadcasts come back here): a few recent ones. */
const ownRuns = new Set<string>();
const OWN_RUNS_KEPT = 16;

/** A run another tab is working on in the open chat, as this tab sees it (read-only). */
let remote: { runId: string; state: string } | null = null;

export function remoteRun(): { runId: string; state: string } | null {
    return remote;
}

function openChatKey(): string | null {
    return openChatIdentity()?.integrity ?? null;
}

/**
 * Shows runs of other tabs live, read-only (issue 13 §2): the tab running an agent publishes its events on
 * a BroadcastChannel; here the open chat's are fed to the same timeline as a local run. `isLocal` tells this
 * tab's own runs apart (their events already arrive through the worker).
 */
export async function watchOtherTabs(observer: RunObserver, isLocal: (runId: string) => boolean, onChange: () => void): Promise<void> {
    if (typeof BroadcastChannel !== 'function') return;
    const channel = new BroadcastChannel(liveChannelName(await currentUserHandle()));
    channel.addEventListener('message', (event: MessageEvent<LiveMessage>) => {
        const message = event.data;
        if (!message) return;
        // This tab's own run comes back on the channel too (its worker publishes it): dropped before anything
        // else, for the chat check reads SillyTavern's whole context, on every batch of a busy run.
        if (message.kind === 'events') {
            const runId = message.events[0]?.runId;
            if (!runId || ownRuns.has(runId)) return;
            if (isLocal(runId)) {
                // Remembered: its last broadcasts can come after the run ended here (the worker's answer and the
                // channel are not ordered), and must not open it again as another tab's run.
                ownRuns.add(runId);
                if (ownRuns.size > OWN_RUNS_KEPT) ownRuns.delete(ownRuns.values().next().value!);
                return;
            }
            if (message.chatKey !== openChatKey()) return;
            if (remote?.runId !== runId) {
                const created = GenerationTypeSchema.safeParse(lastEventOf(message.events, 'run-create')?.payload.generationType);
                remote = { runId, state: 'running' };
                observer.onRunStart(runId, created.success ? created.data : 'normal');
            }
            const last = lastEventOf(message.events, 'run-state');
            if (last) remote.state = last.payload.to;
            observer.onEvents(message.events);
            onChange();
        } else if (message.kind === 'end' && ownRuns.delete(message.outcome.runId)) {
            // This tab's run ended (the worker posts its end after its last events): a resume of it in another
            // tab is that tab's run from now on.
        } else if (message.kind === 'end' && remote?.runId === message.outcome.runId && message.chatKey === openChatKey()) {
            remote = null;
            observer.onRunEnd(message.outcome);
        }
    });
}
