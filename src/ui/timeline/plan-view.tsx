import { t } from '../../i18n/t';
import type { PlanItem, PlanStatus } from '../../contract/plan';

const ICONS: Record<PlanStatus, string> = { pending: 'fa-regular fa-square', doing: 'fa-solid fa-spinner', done: 'fa-solid fa-square-check', dropped: 'fa-solid fa-square-minus' };

function statusLabel(status: PlanStatus): string {
    if (status === 'doing') return t`doing`;
    if (status === 'done') return t`done`;
    if (status === 'dropped') return t`dropped`;
    return t`pending`;
}

/** The agent's plan at the top of its run (issue 38 §4): a checklist that follows each plan.update live. */
export function PlanChecklist({ items }: { items: readonly PlanItem[] }) {
    const done = items.filter((item) => item.status === 'done').length;
    return (
        <details class="tavern-agent__plan" data-testid="run-plan" open>
            <summary>
                <span class="fa-solid fa-list-check fa-fw" aria-hidden="true" /> {t`Plan`} ({done}/{items.length})
            </summary>
            <ul class="tavern-agent__plan-items">
                {items.map((item) => (
                    <li class={`tavern-agent__plan-item tavern-agent__plan-item--${item.status}`} data-plan-id={item.id} data-plan-status={item.status}>
                        <span class={`${ICONS[item.status]} fa-fw`} title={statusLabel(item.status)} aria-hidden="true" />
                        <span class="tavern-agent__visually-hidden">{statusLabel(item.status)}: </span>
                        <span class="tavern-agent__plan-text">{item.text}</span>
                    </li>
                ))}
            </ul>
        </details>
    );
}
