import { ScriptsSettingSchema, type Profile } from '../../contract/profile';
import type { FieldError } from '../../contract/profile-migrations';
import { t } from '../../i18n/t';
import { Field, inputId, invalidProps } from './form-fields';

/**
 * A profile's `scripts` setting (issue 35): whether its runs may run skills' scripts (skill.run_script) and
 * programs of their own (script.run). These two tools follow this setting, not the capability boxes. A stored
 * value the schema does not know is kept and shown as such, so the worker's error beside it names what to fix.
 */
export function ScriptsField({ profile, errors, edit }: { profile: Profile; errors: readonly FieldError[]; edit(change: (profile: Profile) => void): void }) {
    const known = ScriptsSettingSchema.safeParse(profile.scripts).success;
    return (
        <Field path="scripts" label={t`Scripts`} hint={t`Scripts run in a sandbox: no network, no page, 30 s at most. A skill's scripts run only if this profile sees the skill.`} errors={errors}>
            <select
                id={inputId('scripts')}
                class="text_pole"
                value={String(profile.scripts)}
                {...invalidProps('scripts', errors)}
                onChange={(event) => {
                    const chosen = ScriptsSettingSchema.safeParse(event.currentTarget.value);
                    if (chosen.success) edit((p) => void (p.scripts = chosen.data));
                }}
            >
                <option value="off">{t`Off: no scripts`}</option>
                <option value="skills">{t`Skills only: its skills' scripts (skill.run_script)`}</option>
                <option value="all">{t`All: skills' scripts and programs of its own that call the read tools (script.run)`}</option>
                {known ? null : <option value={String(profile.scripts)}>{`⚠ ${String(profile.scripts)}`}</option>}
            </select>
        </Field>
    );
}
