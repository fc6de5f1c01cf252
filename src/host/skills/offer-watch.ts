import type { EmbeddedSkillOffer } from '../../contract/skills-service';
import { t } from '../../i18n/t';
import { toasts } from '../sillytavern/toasts';
import { markPage } from '../sillytavern/page-marks';
import { stContext } from '../sillytavern/st-context';
import type { HostSkillsService } from './skills-service';
import { askToInstall } from './offer-popup';

/**
 * Offers a card's or preset's embedded skills when its chat opens or the preset is selected (once a
 * session per payload; "Not now" is remembered per payload hash), and removes a deleted card's skills.
 */
/** How long after a chat opens the offer check waits before it looks for the page to be idle. */
const OPEN_SETTLE_MS = 300;

export function watchSkillOffers(service: HostSkillsService): void {
    const shown = new Set<string>();
    let running = false;
    let again = false;

    async function offer(found: EmbeddedSkillOffer): Promise<void> {
        shown.add(found.payloadHash);
        if (!(await askToInstall(found))) {
            await service.declineOffer(found);
            return;
        }
        const results = await service.installOffer(found, 'replace');
        const failed = results.filter((r) => r.error);
        const installed = results.filter((r) => r.action === 'installed' || r.action === 'replaced');
        if (installed.length) toasts.success(installed.map((r) => r.name).join(', '), t`Skills installed`);
        if (failed.length) toasts.error(failed.map((r) => `${r.name}: ${r.error}`).join('\n'), t`Some skills were not installed`);
    }

    /** A payload refused whole (a limit, a reader past its deadline) is said once a session, with its code. */
    function reportRefused(found: EmbeddedSkillOffer, refused: NonNullable<EmbeddedSkillOffer['refused']>): void {
        const key = `${found.kind}:${found.owner}:${refused.code}`;
        if (shown.has(key)) return;
        shown.add(key);
        const title = found.kind === 'card' ? t`The skills this card carries were not offered` : t`The skills this preset carries were not offered`;
        toasts.warning(`${refused.message} (${refused.code})`, title);
    }

    /**
     * Waits until SillyTavern has drawn the chat and the page is idle: reading a large card (the server
     * decoding it, the reader hashing it) otherwise competes with the chat's own opening for the same cores.
     */
    function pageIdle(): Promise<void> {
        return new Promise((resolve) => {
            setTimeout(() => (typeof requestIdleCallback === 'function' ? requestIdleCallback(() => resolve(), { timeout: 2_000 }) : resolve()), OPEN_SETTLE_MS);
        });
    }

    async function check(): Promise<void> {
        if (running) {
            again = true;
            return;
        }
        running = true;
        let chat: string | undefined;
        try {
            await pageIdle();
            do {
                again = false;
                chat = stContext().getCurrentChatId();
                for (const found of await service.pendingOffers()) {
                    if (found.refused) reportRefused(found, found.refused);
                    else if (!shown.has(found.payloadHash)) await offer(found);
                }
            } while (again);
        } catch (error) {
            console.error('[Tavern Agent] embedded skills could not be offered', error);
        } finally {
            running = false;
            // Which chat's embedded skills were last looked at (offered or not): tests and other extensions
            // can wait for it instead of guessing how long the check takes.
            markPage('tavernAgentSkillOffersChecked', chat ?? '');
        }
    }

    const context = stContext();
    const { eventSource, eventTypes } = context;
    eventSource.on(eventTypes.CHAT_CHANGED!, () => void check());
    eventSource.on(eventTypes.OAI_PRESET_CHANGED_AFTER!, () => void check());
    eventSource.on(eventTypes.CHARACTER_DELETED!, (event: { character?: { avatar?: string } }) => {
        const avatar = event?.character?.avatar;
        if (avatar) void service.forgetCard(avatar).catch((error: unknown) => console.error('[Tavern Agent] skills of a deleted card could not be removed', error));
    });
    void check();
}
