import { useState } from 'preact/hooks';
import type { Profile } from '../../contract/profile';
import type { FieldError } from '../../contract/profile-migrations';
import { t } from '../../i18n/t';
import { Field, inputId, invalidProps, NumberField } from './form-fields';
import { errorsAt } from './profile-draft';

type Edit = (change: (profile: Profile) => void) => void;

/** A price box: decimals allowed, empty = not priced (null). */
function PriceField({ side, label, profile, errors, edit }: { side: 'input' | 'output'; label: string; profile: Profile; errors: readonly FieldError[]; edit: Edit }) {
    const path = `pricing.${side}`;
    const value = profile.pricing?.[side] ?? null;
    return (
        <Field path={path} label={label} errors={errors}>
            <input
                id={inputId(path)}
                class="text_pole"
                type="number"
                min={0}
                step="any"
                inputMode="decimal"
                value={value === null || Number.isNaN(value) ? '' : String(value)}
                {...invalidProps(path, errors)}
                onInput={(event) => {
                    const text = event.currentTarget.value;
                    const price = text === '' ? null : Number(text);
                    edit((p) => {
                        const next = { input: p.pricing?.input ?? null, output: p.pricing?.output ?? null, [side]: price };
                        p.pricing = next.input === null && next.output === null ? null : next;
                    });
                }}
            />
        </Field>
    );
}

/**
 * Cost and long runs (issue 38): prices per million tokens (empty: not priced), and when compaction replaces
 * old tool results with stubs. Closed until opened, or until one of its fields has an error.
 */
export function LongRunFields({ profile, errors, edit }: { profile: Profile; errors: readonly FieldError[]; edit: Edit }) {
    const [open, setOpen] = useState(false);
    const at = (path: string) => errorsAt(errors, path);
    return (
        <details
            class="tavern-agent__advanced"
            data-testid="profile-long-runs"
            open={open || at('pricing').length > 0 || at('compaction').length > 0}
            onToggle={(event) => setOpen((event.currentTarget as HTMLDetailsElement).open)}
        >
            <summary>{t`Cost and long runs`}</summary>
            <p class="tavern-agent__muted">{t`Prices per million tokens, in any currency: the panel shows what each run costs. Leave them empty when you do not want costs shown.`}</p>
            <div class="tavern-agent__field-row">
                <PriceField side="input" label={t`Price of input tokens`} profile={profile} errors={at('pricing.input')} edit={edit} />
                <PriceField side="output" label={t`Price of output tokens`} profile={profile} errors={at('pricing.output')} edit={edit} />
            </div>
            <div class="tavern-agent__field-row">
                <Field path="compaction.threshold" label={t`Compact at`} hint={t`Share of the connection's context, 0.05 to 1: older tool results become stubs once a request would pass it.`} errors={at('compaction.threshold')}>
                    <input
                        id={inputId('compaction.threshold')}
                        class="text_pole"
                        type="number"
                        min={0.05}
                        max={1}
                        step={0.05}
                        inputMode="decimal"
                        value={Number.isNaN(profile.compaction.threshold) ? '' : String(profile.compaction.threshold)}
                        {...invalidProps('compaction.threshold', at('compaction.threshold'))}
                        onInput={(event) => {
                            const text = event.currentTarget.value;
                            edit((p) => void (p.compaction = { ...p.compaction, threshold: text === '' ? Number.NaN : Number(text) }));
                        }}
                    />
                </Field>
                <NumberField
                    path="compaction.keepRecentRounds"
                    label={t`Recent rounds kept whole`}
                    value={profile.compaction.keepRecentRounds}
                    errors={at('compaction.keepRecentRounds')}
                    onValue={(v) => edit((p) => void (p.compaction = { ...p.compaction, keepRecentRounds: v }))}
                />
            </div>
        </details>
    );
}
