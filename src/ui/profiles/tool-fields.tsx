import type { Profile } from '../../contract/profile';
import type { FieldError } from '../../contract/profile-migrations';
import type { ToolInfo } from '../../contract/wire';
import { t } from '../../i18n/t';
import { errorsAt } from './profile-draft';
import { BreakableName, Checklist, FieldGroup, inputId, invalidProps } from './form-fields';

interface PatternOption {
    value: string;
    label: string;
    title?: string;
    strong?: boolean;
}

/**
 * "*", then per namespace "ns.*" and its tools, then any pattern the profile already holds that names no
 * known tool (kept and shown, so saving never drops it silently).
 */
function toolPatternOptions(tools: readonly ToolInfo[], profile: Profile): PatternOption[] {
    const names = tools.map((tool) => tool.name).sort();
    const namespaces = [...new Set(names.map((name) => name.split('.')[0]!))];
    const options: PatternOption[] = [{ value: '*', label: '*', title: t`All tools`, strong: true }];
    for (const namespace of namespaces) {
        options.push({ value: `${namespace}.*`, label: `${namespace}.*`, strong: true });
        for (const tool of tools.filter((item) => item.name.startsWith(`${namespace}.`)).sort((a, b) => a.name.localeCompare(b.name))) {
            options.push({ value: tool.name, label: tool.name, title: tool.description });
        }
    }
    const known = new Set(options.map((option) => option.value));
    for (const pattern of [...profile.tools.allow, ...profile.tools.deny]) {
        if (known.has(pattern)) continue;
        known.add(pattern);
        options.push({ value: pattern, label: pattern, title: t`Not a tool of this version` });
    }
    return options;
}

interface ToolFieldsProps {
    profile: Profile;
    tools: readonly ToolInfo[];
    errors: readonly FieldError[];
    edit(change: (profile: Profile) => void): void;
}

export function ToolFields({ profile, tools, errors, edit }: ToolFieldsProps) {
    const options = toolPatternOptions(tools, profile);
    const perToolNames = [...new Set([...tools.map((tool) => tool.name), ...Object.keys(profile.tools.maxCallsPerTool)])].sort();
    const perToolErrors = errorsAt(errors, 'tools.maxCallsPerTool');
    return (
        <>
            <Checklist
                path="tools.allow"
                label={t`Allowed tools`}
                options={options}
                selected={profile.tools.allow}
                errors={errorsAt(errors, 'tools.allow')}
                onValue={(values) => edit((p) => void (p.tools.allow = values))}
            />
            <Checklist
                path="tools.deny"
                label={t`Denied tools`}
                hint={t`Deny wins over allow.`}
                options={options}
                selected={profile.tools.deny}
                errors={errorsAt(errors, 'tools.deny')}
                onValue={(values) => edit((p) => void (p.tools.deny = values))}
            />
            <FieldGroup path="tools.maxCallsPerTool" label={t`Calls per tool`} hint={t`Empty means no limit of its own.`} errors={perToolErrors}>
                <div class="tavern-agent__per-tool">
                    {perToolNames.map((name) => {
                        const path = `tools.maxCallsPerTool.${name}`;
                        const value = profile.tools.maxCallsPerTool[name];
                        return (
                            <label class="tavern-agent__per-tool-row" for={inputId(path)}>
                                <span class="tavern-agent__mono">
                                    <BreakableName name={name} />
                                </span>
                                <input
                                    id={inputId(path)}
                                    class="text_pole"
                                    type="number"
                                    step={1}
                                    min={0}
                                    inputMode="numeric"
                                    value={value === undefined || Number.isNaN(value) ? '' : String(value)}
                                    {...invalidProps(path, errorsAt(errors, path))}
                                    onInput={(event) => {
                                        const text = event.currentTarget.value;
                                        edit((p) => {
                                            if (text === '') delete p.tools.maxCallsPerTool[name];
                                            else p.tools.maxCallsPerTool[name] = Number(text);
                                        });
                                    }}
                                />
                            </label>
                        );
                    })}
                </div>
            </FieldGroup>
        </>
    );
}
