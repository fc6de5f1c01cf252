import { transfer } from 'comlink';
import type { JournalEvent } from '../../contract/events';
import type { EventPortMessage, EventPortReply } from '../../contract/wire';

/**
 * The page's end of a run's event port (HostBridge.openEventPort): events arrive one way and go to `deliver`;
 * the flush at the run's end is answered, after every event before it was delivered, and closes the port.
 * The other end is transferred to the worker.
 */
export function openEventPort(deliver: (events: JournalEvent[]) => void): MessagePort {
    const channel = new MessageChannel();
    channel.port1.onmessage = ({ data }: MessageEvent<EventPortMessage>) => {
        if (data.type === 'events') {
            try {
                deliver(data.events);
            } catch {
                // The panel is a viewer: a failed delivery must not hold the run's end; it can replay from storage.
            }
            return;
        }
        channel.port1.postMessage({ type: 'flushed' } satisfies EventPortReply);
        channel.port1.close();
    };
    return transfer(channel.port2, [channel.port2]);
}
