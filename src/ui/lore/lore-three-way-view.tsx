import { t } from '../../i18n/t';
import { DiffBody } from '../timeline/diff-view';
import type { LoreField, ThreeWay } from './lore-three-way';

function fieldName(field: LoreField): string {
    if (field === 'title') return t`Title`;
    if (field === 'keys') return t`Keys`;
    return t`Content`;
}

/**
 * An entry that changed since the run began, shown three ways before anything is written (issue 39 §7):
 * what changed in the lorebook, what the proposal changes, and what accepting now does. Accept anyway or Cancel.
 */
export function ThreeWayView({ model, busy, onAccept, onCancel }: { model: ThreeWay; busy: boolean; onAccept(): void; onCancel(): void }) {
    return (
        <div class="tavern-agent__lore-three-way" role="group" aria-label={t`The entry changed since the run began`} data-deleted={model.deleted ? 'true' : 'false'}>
            <p class="tavern-agent__error">
                {model.deleted
                    ? t`This entry was deleted from the lorebook since the run began. Accepting writes the proposal as a new entry.`
                    : t`This entry changed in the lorebook since the run began. Accepting writes the proposal over the entry as it is now.`}
            </p>
            {model.conflicts.length > 0 ? (
                <p class="tavern-agent__lore-conflicts" data-conflicts={model.conflicts.join(' ')}>
                    {t`Changed on both sides (the lorebook's change is lost on Accept):`} {model.conflicts.map(fieldName).join(', ')}
                </p>
            ) : null}
            <h6>{t`Since the run began (run start → now)`}</h6>
            <div class="tavern-agent__diff" data-part="since-start">
                <DiffBody diff={{ ops: model.sinceStart }} />
            </div>
            <h6>{t`The proposal (run start → proposal)`}</h6>
            <div class="tavern-agent__diff" data-part="proposal">
                <DiffBody diff={{ ops: model.proposal }} />
            </div>
            <h6>{t`What Accept does (now → proposal)`}</h6>
            <div class="tavern-agent__diff" data-part="result">
                <DiffBody diff={{ ops: model.result }} />
            </div>
            <div class="tavern-agent__lore-actions">
                <button type="button" class="menu_button tavern-agent__button" data-action="accept-anyway" disabled={busy} onClick={onAccept}>
                    <span class="fa-solid fa-check" aria-hidden="true" /> {t`Accept anyway`}
                </button>
                <button type="button" class="menu_button tavern-agent__button" data-action="cancel-accept" disabled={busy} onClick={onCancel}>
                    {t`Cancel`}
                </button>
            </div>
        </div>
    );
}
