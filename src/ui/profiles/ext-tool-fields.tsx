import { useEffect, useState } from 'preact/hooks';
import type { ExtToolSpec } from '../../contract/ext-tools';
import type { Profile } from '../../contract/profile';
import { t } from '../../i18n/t';
import { services } from '../services';

/**
 * Other extensions' tools (registered with SillyTavern's ToolManager), as the profile editor lists them:
 * which this agent may call (`ext.*` or by name; none by default) and whether it asks before each call.
 */
export function ExtToolFields({ profile, edit }: { profile: Profile; edit(change: (profile: Profile) => void): void }) {
    const [tools, setTools] = useState<readonly ExtToolSpec[] | null>(null);
    useEffect(() => {
        let live = true;
        void (services().extTools?.registered() ?? Promise.resolve([])).then((list) => live && setTools(list), () => live && setTools([]));
        return () => void (live = false);
    }, []);
    const allow = profile.tools.allow;
    const all = allow.includes('ext.*');
    const toggle = (pattern: string, on: boolean) =>
        edit((p) => void (p.tools.allow = on ? [...p.tools.allow.filter((item) => item !== pattern), pattern] : p.tools.allow.filter((item) => item !== pattern)));
    return (
        <fieldset class="tavern-agent__fieldset" data-testid="ext-tool-fields">
            <legend>{t`Other extensions' tools`}</legend>
            {tools === null ? (
                <p class="tavern-agent__muted">{t`Loading…`}</p>
            ) : tools.length === 0 ? (
                <p class="tavern-agent__muted">{t`No other extension has registered a tool.`}</p>
            ) : (
                <>
                    <label class="checkbox_label">
                        <input type="checkbox" checked={all} onChange={(event) => toggle('ext.*', event.currentTarget.checked)} />
                        <strong>ext.*</strong>
                    </label>
                    {tools.map((tool) => (
                        <label class="checkbox_label" title={tool.description} key={tool.name} data-ext-tool={tool.name}>
                            <input type="checkbox" checked={all || allow.includes(`ext.${tool.name}`)} disabled={all} onChange={(event) => toggle(`ext.${tool.name}`, event.currentTarget.checked)} />
                            <span>{`ext.${tool.name}`}</span>
                        </label>
                    ))}
                </>
            )}
            <label class="checkbox_label">
                <input
                    type="checkbox"
                    data-testid="ext-tool-ask"
                    checked={profile.extTools?.askBeforeCall ?? true}
                    onChange={(event) => {
                        const askBeforeCall = event.currentTarget.checked;
                        edit((p) => void (p.extTools = { askBeforeCall }));
                    }}
                />
                <span>{t`Ask before each call (Approve / Deny in the timeline)`}</span>
            </label>
        </fieldset>
    );
}
