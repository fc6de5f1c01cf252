import type { ExtToolApproval } from '../../contract/ext-tools';
import { t } from '../../i18n/t';
import { stickyToasts } from '../sillytavern/toasts';

/**
 * A call of another extension's tool that waits for the user's Approve / Deny while the panel is closed
 * also shows a SillyTavern toast pointing to the panel (a click opens it), so a user with the drawer shut
 * is not left waiting on a question they cannot see. The answer stays in the timeline; the toast stays until
 * the question is answered (or its run ends), then goes. Returns the listener for onExtToolApprovals.
 */
export function approvalToasts(isPanelOpen: () => boolean, openPanel: () => void): (pending: ExtToolApproval[]) => void {
    const shown = new Map<string, unknown>();
    return (pending) => {
        const sticky = stickyToasts();
        if (!sticky) return;
        const waiting = new Set(pending.map((approval) => approval.id));
        for (const [id, toast] of shown) {
            if (waiting.has(id)) continue;
            shown.delete(id);
            sticky.clear(toast);
        }
        for (const approval of pending) {
            if (shown.has(approval.id) || isPanelOpen()) continue;
            const message = `${t`The agent wants to call`} ${approval.name}. ${t`Open the Tavern Agent panel to approve or deny.`}`;
            const toast = sticky.show(message, t`Tavern Agent`, openPanel);
            shown.set(approval.id, toast);
        }
    };
}
