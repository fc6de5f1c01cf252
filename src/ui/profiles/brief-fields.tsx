import { useState } from 'preact/hooks';
import type { Profile } from '../../contract/profile';
import type { FieldError } from '../../contract/profile-migrations';
import { t } from '../../i18n/t';
import { CheckboxField, Field, inputId, invalidProps, NumberField } from './form-fields';
import { errorsAt } from './profile-draft';

type BriefRole = Profile['brief']['role'];

/**
 * A profile's brief settings (issue 34): they count only when it runs before the reply (a director in the
 * chat's pipeline). Where its brief goes into SillyTavern's own generation (in-chat depth and role), and
 * whether a swipe or regenerate plans again. Closed until opened, or until one of its fields has an error.
 */
export function BriefFields({ profile, errors, edit }: { profile: Profile; errors: readonly FieldError[]; edit(change: (profile: Profile) => void): void }) {
    const [open, setOpen] = useState(false);
    const at = (path: string) => errorsAt(errors, path);
    const brief = profile.brief;
    return (
        <details
            class="tavern-agent__advanced"
            data-testid="profile-brief"
            open={open || at('brief').length > 0}
            onToggle={(event) => setOpen((event.currentTarget as HTMLDetailsElement).open)}
        >
            <summary>{t`Before the reply`}</summary>
            <p class="tavern-agent__muted">
                {t`These apply when this profile runs before the reply (chosen as "Before the reply" in a chat's pipeline): where its brief goes into SillyTavern's own reply, and whether a swipe plans again.`}
            </p>
            <div class="tavern-agent__field-row">
                <NumberField
                    path="brief.depth"
                    label={t`Brief depth`}
                    hint={t`Messages from the end of the chat, 0 to 10000: 0 puts the brief after the last message.`}
                    value={brief.depth}
                    errors={at('brief.depth')}
                    onValue={(v) => edit((p) => void (p.brief = { ...p.brief, depth: v }))}
                />
                <Field path="brief.role" label={t`Brief role`} hint={t`Who the brief speaks as in the prompt.`} errors={at('brief.role')}>
                    <select
                        id={inputId('brief.role')}
                        class="text_pole"
                        value={brief.role}
                        {...invalidProps('brief.role', at('brief.role'))}
                        onChange={(event) => edit((p) => void (p.brief = { ...p.brief, role: event.currentTarget.value as BriefRole }))}
                    >
                        <option value="system">{t`System`}</option>
                        <option value="user">{t`User`}</option>
                        <option value="assistant">{t`Assistant`}</option>
                    </select>
                </Field>
            </div>
            <CheckboxField
                path="brief.replanOnSwipe"
                label={t`Plan again on a swipe or regenerate (otherwise the brief made for that message is reused)`}
                checked={brief.replanOnSwipe}
                errors={at('brief.replanOnSwipe')}
                onValue={(v) => edit((p) => void (p.brief = { ...p.brief, replanOnSwipe: v }))}
            />
        </details>
    );
}
