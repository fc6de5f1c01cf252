import type { FieldError } from '../../contract/profile-migrations';
import type { ToolInfo } from '../../contract/wire';
import { t } from '../../i18n/t';
import { groupTools, setGroupAllowed, setToolAllowed, toolAllowed, type ToolPatterns } from './capability-groups';
import { FieldErrors, inputId } from './form-fields';
import { errorsAt } from './profile-draft';
import { groupLabel, toolSummary } from './tool-labels';

interface CapabilityMatrixProps {
    patterns: ToolPatterns;
    tools: readonly ToolInfo[];
    errors: readonly FieldError[];
    onPatterns(patterns: ToolPatterns): void;
}

/**
 * What the agent may do, as one checkbox per tool under the group it belongs to. A box shows what the
 * engine will decide (a glob like `chat.*` checks each chat tool; deny wins), and checking one edits the
 * profile's allow/deny patterns as little as it can (capability-groups.ts). A group's box switches all of it.
 */
export function CapabilityMatrix({ patterns, tools, errors, onPatterns }: CapabilityMatrixProps) {
    const known = tools.map((tool) => tool.name);
    const descriptions = new Map(tools.map((tool) => [tool.name, tool.description]));
    const allErrors = [...errorsAt(errors, 'tools.allow'), ...errorsAt(errors, 'tools.deny')];
    return (
        <fieldset class="tavern-agent__field tavern-agent__fieldset tavern-agent__capabilities" data-field="tools.allow" data-testid="capability-matrix" data-invalid={allErrors.length ? 'true' : undefined}>
            <legend>{t`What the agent may do`}</legend>
            <div class="tavern-agent__capability-groups">
                {groupTools(known).map(({ group, tools: members }) => {
                    const on = members.filter((name) => toolAllowed(patterns, name)).length;
                    const groupId = inputId(`capability.${group}`);
                    return (
                        <section class="tavern-agent__capability-group" data-group={group} key={group}>
                            <label class="checkbox_label tavern-agent__capability-head" for={groupId}>
                                <input
                                    id={groupId}
                                    type="checkbox"
                                    checked={on === members.length}
                                    // Some but not all: the box says so (a dash), as file managers do.
                                    ref={(element) => {
                                        if (element) element.indeterminate = on > 0 && on < members.length;
                                    }}
                                    onChange={(event) => onPatterns(setGroupAllowed(patterns, members, event.currentTarget.checked, known))}
                                />
                                <span class="tavern-agent__strong">{groupLabel(group)}</span>
                                <span class="tavern-agent__muted">
                                    {on}/{members.length}
                                </span>
                            </label>
                            <ul class="tavern-agent__capability-tools">
                                {members.map((name) => {
                                    const id = inputId(`tool.${name}`);
                                    return (
                                        <li key={name}>
                                            <label class="checkbox_label tavern-agent__check" for={id} data-tool={name}>
                                                <input
                                                    id={id}
                                                    type="checkbox"
                                                    checked={toolAllowed(patterns, name)}
                                                    onChange={(event) => onPatterns(setToolAllowed(patterns, name, event.currentTarget.checked, known))}
                                                />
                                                <span class="tavern-agent__capability-name">
                                                    <code>{name}</code>
                                                    <small class="tavern-agent__muted">{toolSummary(name, descriptions.get(name) ?? '')}</small>
                                                </span>
                                            </label>
                                        </li>
                                    );
                                })}
                            </ul>
                        </section>
                    );
                })}
            </div>
            <FieldErrors path="tools.allow" errors={allErrors} />
        </fieldset>
    );
}
