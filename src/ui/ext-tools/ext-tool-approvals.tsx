import { signal } from '@preact/signals';
import type { ExtToolApproval } from '../../contract/ext-tools';
import { t } from '../../i18n/t';
import { services } from '../services';

/** Calls of other extensions' tools waiting for the user (set by src/runtime.ts from the host's list). */
export const extToolApprovals = signal<readonly ExtToolApproval[]>([]);

/**
 * Approve / Deny for each call of an `ext.<name>` tool waiting on the user (a profile's "ask before each
 * call"), shown at the top of the run's timeline. The arguments are shown as text, never as HTML.
 */
export function ExtToolApprovals({ runId }: { runId: string }) {
    const waiting = extToolApprovals.value.filter((approval) => approval.runId === runId);
    if (waiting.length === 0) return null;
    return (
        <div class="tavern-agent__approvals" role="group" aria-label={t`Tool calls waiting for your approval`}>
            {waiting.map((approval) => (
                <div class="tavern-agent__approval" data-testid="ext-tool-approval" data-tool={approval.name} key={approval.id}>
                    <p>
                        {t`The agent wants to call`} <code>{approval.name}</code>
                    </p>
                    <pre class="tavern-agent__approval-args">{approval.argsText}</pre>
                    <div class="tavern-agent__approval-actions">
                        <button type="button" class="menu_button" data-testid="ext-tool-approve" onClick={() => services().extTools?.decide(approval.id, true)}>
                            {t`Approve`}
                        </button>
                        <button type="button" class="menu_button" data-testid="ext-tool-deny" onClick={() => services().extTools?.decide(approval.id, false)}>
                            {t`Deny`}
                        </button>
                    </div>
                </div>
            ))}
        </div>
    );
}
