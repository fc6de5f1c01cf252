import type { RunObserver } from '../../contract/run-observer';
import { lastEventOf, type JournalEvent } from '../../contract/events';
import type { HostBridge } from '../../contract/wire';
import { attachMemoryToChat, writeRunState, type CommitTarget } from '../chat/commit';
import { askApproval, callExtTool } from '../ext-tools/ext-tools';
import { createModelRequests } from '../model/model-requests';
import { isOpenChat } from '../sillytavern/chat-identity';
import type { RunStart } from './drive-run';
import { openEventPort } from './event-port';
import { publishRunEvents } from './run-events';

/**
 * What the worker reaches of the page during a run (a new one or a resumed one alike): the model through
 * the run's route, streamed deltas to the panel, the chat through `commit`, extension tools, and the run's
 * events to the panel and to API subscribers.
 */
export function runBridge(target: CommitTarget, start: Pick<RunStart, 'route' | 'commit' | 'attachMemory' | 'writeState'>, signal: AbortSignal, observer: RunObserver, onState: (to: string) => void): HostBridge {
    const models = createModelRequests(start.route, signal, (delta) => observer.onModelDelta?.(delta));
    const onEvents = (events: JournalEvent[]) => {
        const last = lastEventOf(events, 'run-state');
        if (last) onState(last.payload.to);
        observer.onEvents(events);
        publishRunEvents(events);
    };
    return {
        requestModel: models.requestModel,
        abortModelRequest: models.abortModelRequest,
        commit: start.commit,
        attachMemory: start.attachMemory ?? (({ runId: id, memory }) => attachMemoryToChat(target, id, memory)),
        writeState: start.writeState ?? (({ runId: id, writes }) => writeRunState(target, id, writes)),
        askApproval: ({ runId: id, name, args }) => (target.closed ? Promise.resolve(false) : askApproval(id, name, args)),
        // An extension's tool acts on whatever chat is open (it was written for SillyTavern's own generation): it is
        // called only while the run's chat is the open one, checked again after the user's approval.
        callExtTool: (request) =>
            target.closed ? Promise.resolve({ ok: false, code: 'tool.execution_failed', message: 'The run has ended.' }) : callExtTool(request, () => isOpenChat(target.identity)),
        onEvents,
        openEventPort: () => openEventPort(onEvents),
    };
}
