import { t } from '../../i18n/t';
import { services } from '../services';
import { history } from './run-store';

/**
 * Run journals stay in the browser that ran them (they are large); the memory travels with the chat.
 * Agent replies of this chat whose run this browser never saw (another device, cleared site data, an
 * imported chat) are named as such, with the memory they carry, rather than looking like missing runs.
 */
export function RemoteReplies() {
    const local = new Set(history.value.runs.map((run) => run.runId));
    const remote = services()
        .chat.agentReplies()
        .filter((reply) => !local.has(reply.runId));
    if (remote.length === 0 || history.value.loading) return null;
    const withMemory = remote.filter((reply) => reply.memoryFiles.length > 0).at(-1);
    return (
        <div class="tavern-agent__remote-replies" data-remote-replies={remote.length}>
            <p class="tavern-agent__muted">
                {t`Agent replies in this chat made in another browser (or before this browser's data was cleared):`} {remote.map((r) => `#${r.index}`).join(', ')}.{' '}
                {t`Their run journals stay in the browser that ran them; their memory travels with the chat.`}
            </p>
            {withMemory ? (
                <p class="tavern-agent__muted">
                    {t`Memory carried by message`} #{withMemory.index}: <code class="tavern-agent__code">{withMemory.memoryFiles.join(', ')}</code>
                </p>
            ) : null}
        </div>
    );
}
