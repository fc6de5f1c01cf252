import { DEFAULT_TOOL_CAPS, type Profile } from '../../contract/profile';
import type { FieldError } from '../../contract/profile-migrations';
import type { ToolInfo } from '../../contract/wire';
import { t } from '../../i18n/t';
import { errorsAt } from './profile-draft';
import { BreakableName, FieldGroup, inputId, invalidProps } from './form-fields';

interface ToolFieldsProps {
    profile: Profile;
    tools: readonly ToolInfo[];
    errors: readonly FieldError[];
    edit(change: (profile: Profile) => void): void;
}

/** Per-tool call limits (the advanced part of the tools; which tools are allowed is the capability matrix). */
export function ToolFields({ profile, tools, errors, edit }: ToolFieldsProps) {
    const perToolNames = [...new Set([...tools.map((tool) => tool.name), ...Object.keys(profile.tools.maxCallsPerTool)])].sort();
    const perToolErrors = errorsAt(errors, 'tools.maxCallsPerTool');
    return (
        <>
            <FieldGroup path="tools.maxCallsPerTool" label={t`Calls per tool`} hint={t`Empty means no limit of its own; a greyed number is the limit kept when empty.`} errors={perToolErrors}>
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
                                    // A blank field is no cap of its own, except where the engine keeps a default (commits: 10).
                                    placeholder={DEFAULT_TOOL_CAPS[name] === undefined ? undefined : String(DEFAULT_TOOL_CAPS[name])}
                                    title={DEFAULT_TOOL_CAPS[name] === undefined ? undefined : `${t`Default when empty:`} ${DEFAULT_TOOL_CAPS[name]}`}
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
