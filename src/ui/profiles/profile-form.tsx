import { isScriptTool, type Profile } from '../../contract/profile';
import type { FieldError } from '../../contract/profile-migrations';
import type { ToolInfo } from '../../contract/wire';
import { VISIBLE_ROOTS } from '../../contract/workspace-roots';
import type { ConnectionProfile } from '../../contract/connection-profile';
import { t } from '../../i18n/t';
import { delegationTargets, unknownCallerWarnings } from './delegation-check';
import { CheckboxField, Checklist, Field, FieldErrors, inputId, invalidProps, NumberField, TextField } from './form-fields';
import { errorsAt, splitList, unplacedErrors, type Draft } from './profile-draft';
import { ToolFields } from './tool-fields';
import { CapabilityMatrix } from './capability-matrix';
import { ProtocolNote } from './protocol-note';
import { useState } from 'preact/hooks';
import { ExtToolFields } from './ext-tool-fields';
import { BriefFields } from './brief-fields';
import { ScriptsField } from './scripts-field';
import { LongRunFields } from './long-run-fields';
import { profileDescription, profileName } from './profile-names';

interface ProfileFormProps {
    draft: Draft;
    errors: readonly FieldError[];
    tools: readonly ToolInfo[];
    connections: readonly ConnectionProfile[];
    /** Every listed profile id (the valid ones in `profiles`): delegation fields are checked against them. */
    profileIds: readonly string[];
    profiles: readonly Profile[];
    saving: boolean;
    /** The last Save succeeded and nothing changed since: said beside the button. */
    saved?: boolean;
    onDraft(draft: Draft): void;
    onSave(): void;
}

const CURRENT = 'current';
const connectionValue = (id: string) => `connection:${id}`;

function ModelField({ profile, connections, errors, edit }: { profile: Profile; connections: readonly ConnectionProfile[]; errors: readonly FieldError[]; edit(change: (p: Profile) => void): void }) {
    const model = profile.model;
    const missing = model.mode === 'connection-profile' && !connections.some((connection) => connection.id === model.profileId);
    const value = model.mode === 'current' ? CURRENT : connectionValue(model.profileId);
    return (
        <Field path="model" label={t`Model`} errors={errors}>
            <select
                id={inputId('model')}
                class="text_pole"
                value={value}
                {...invalidProps('model', errors)}
                onChange={(event) => {
                    const chosen = event.currentTarget.value;
                    const connection = connections.find((item) => connectionValue(item.id) === chosen);
                    edit((p) => {
                        if (chosen === CURRENT) p.model = { mode: 'current' };
                        else if (connection) p.model = { mode: 'connection-profile', profileId: connection.id, profileName: connection.name };
                    });
                }}
            >
                <option value={CURRENT}>{t`Current connection`}</option>
                {connections.map((connection) => (
                    <option value={connectionValue(connection.id)}>{connection.name}</option>
                ))}
                {missing && model.mode === 'connection-profile' ? (
                    <option value={value} data-missing="true">
                        {`⚠ ${model.profileName || model.profileId} (${t`connection missing`})`}
                    </option>
                ) : null}
            </select>
            {missing ? (
                <p class="tavern-agent__error" data-testid="profile-model-missing">
                    {t`This Connection Manager profile no longer exists: runs of this agent fail until you choose another model.`}
                </p>
            ) : null}
        </Field>
    );
}

/** Fields under "Advanced": a save refused for one of them opens it, so the error is never hidden. */
const ADVANCED_PATHS = ['presentation', 'maxToolReminders', 'tools.maxCallsPerTool', 'tools.deny', 'skills', 'delegation', 'context', 'memory', 'lore', 'workspace'];

/**
 * Every field of a profile (SPEC §5), each with the worker's errors right below it. What most users change
 * comes first (name, model, what the agent may do, its budget, its instructions); everything else is under
 * "Advanced", closed until opened or until one of its fields has an error.
 */
export function ProfileForm({ draft, errors, tools, connections, profileIds, profiles, saving, saved = false, onDraft, onSave }: ProfileFormProps) {
    const profile = draft.profile;
    const [advancedOpen, setAdvancedOpen] = useState(false);
    const edit = (change: (p: Profile) => void) => {
        const next = structuredClone(profile);
        change(next);
        onDraft({ ...draft, profile: next });
    };
    const editLists = (change: Partial<Draft['lists']>) => onDraft({ ...draft, lists: { ...draft.lists, ...change } });
    const at = (path: string) => errorsAt(errors, path);
    const general = unplacedErrors(errors);
    const callerWarnings = unknownCallerWarnings(draft.lists.allowedCallers, [...profileIds, profile.id]);
    const targets = delegationTargets(profile.id, profiles);
    const patterns = { allow: splitList(draft.lists.toolsAllow), deny: splitList(draft.lists.toolsDeny) };
    const advancedErrors = errors.some((error) => ADVANCED_PATHS.some((path) => error.path === path || error.path.startsWith(`${path}.`)));
    return (
        <form
            class="tavern-agent__profile-form"
            data-testid="profile-form"
            data-profile-id={profile.id}
            noValidate
            onSubmit={(event) => {
                event.preventDefault();
                onSave();
            }}
        >
            {general.length ? (
                <div role="alert" data-testid="profile-general-errors">
                    <FieldErrors path="profile" errors={general} />
                </div>
            ) : null}

            {draft.isNew ? (
                <TextField
                    path="id"
                    label={t`Id`}
                    value={profile.id}
                    hint={t`Lowercase letters, digits, "-" and "_". It cannot change once saved.`}
                    errors={at('id')}
                    onValue={(value) => edit((p) => void (p.id = value))}
                />
            ) : null}
            {/* A built-in's own name and description in the reader's language; typing replaces them (then stored as typed). */}
            <TextField path="displayName" label={t`Name`} value={profileName(profile)} errors={at('displayName')} onValue={(value) => edit((p) => void (p.displayName = value))} />
            <Field path="description" label={t`Description`} errors={at('description')}>
                <textarea
                    id={inputId('description')}
                    class="text_pole"
                    rows={2}
                    value={profileDescription(profile)}
                    {...invalidProps('description', at('description'))}
                    onInput={(event) => edit((p) => void (p.description = event.currentTarget.value))}
                />
            </Field>
            <ModelField profile={profile} connections={connections} errors={at('model')} edit={edit} />
            <ProtocolNote profile={profile} connections={connections} errors={at('textProtocol.grammar')} edit={edit} />

            <CapabilityMatrix
                patterns={patterns}
                // The script tools follow the Scripts setting below, never the allow list: no box for them.
                tools={tools.filter((tool) => !isScriptTool(tool.name))}
                errors={errors}
                onPatterns={(next) => editLists({ toolsAllow: next.allow.join(', '), toolsDeny: next.deny.join(', ') })}
            />
            <ExtToolFields profile={profile} edit={edit} />
            <ScriptsField profile={profile} errors={at('scripts')} edit={edit} />
            <div class="tavern-agent__field-row">
                <NumberField path="tools.maxRounds" label={t`Max rounds`} hint={t`Model turns per run.`} value={profile.tools.maxRounds} errors={at('tools.maxRounds')} onValue={(v) => edit((p) => void (p.tools.maxRounds = v))} />
                <NumberField path="tools.maxCallsPerRun" label={t`Max tool calls per run`} value={profile.tools.maxCallsPerRun} errors={at('tools.maxCallsPerRun')} onValue={(v) => edit((p) => void (p.tools.maxCallsPerRun = v))} />
            </div>
            <Field path="systemPrompt" label={t`Extra instructions`} hint={t`Added to the agent's instructions for every run of this profile.`} errors={at('systemPrompt')}>
                <textarea
                    id={inputId('systemPrompt')}
                    class="text_pole"
                    rows={4}
                    value={profile.systemPrompt}
                    {...invalidProps('systemPrompt', at('systemPrompt'))}
                    onInput={(event) => edit((p) => void (p.systemPrompt = event.currentTarget.value))}
                />
            </Field>

            <BriefFields profile={profile} errors={errors} edit={edit} />
            <LongRunFields profile={profile} errors={errors} edit={edit} />

            <details
                class="tavern-agent__advanced"
                data-testid="profile-advanced"
                open={advancedOpen || advancedErrors}
                onToggle={(event) => setAdvancedOpen((event.currentTarget as HTMLDetailsElement).open)}
            >
                <summary>{t`Advanced`}</summary>
                {draft.isNew ? null : (
                    <TextField path="id" label={t`Id`} value={profile.id} readOnly hint={t`The id cannot change; duplicate the profile to get a new one.`} errors={at('id')} onValue={() => undefined} />
                )}
                <Field path="presentation" label={t`Presentation`} errors={at('presentation')}>
                    <select
                        id={inputId('presentation')}
                        class="text_pole"
                        value={profile.presentation}
                        {...invalidProps('presentation', at('presentation'))}
                        onChange={(event) => edit((p) => void (p.presentation = event.currentTarget.value as Profile['presentation']))}
                    >
                        <option value="foreground">{t`Foreground: replies in the chat`}</option>
                        <option value="background">{t`Background: a sub-agent, works out of sight`}</option>
                    </select>
                </Field>

                <h5 class="tavern-agent__form-heading">{t`Tools`}</h5>
                <TextField path="tools.allowPatterns" label={t`Allowed tool patterns`} hint={t`What the boxes above write: names or globs (chat.*, * for all), comma-separated.`} value={draft.lists.toolsAllow} errors={[]} onValue={(value) => editLists({ toolsAllow: value })} />
                <TextField path="tools.deny" label={t`Denied tool patterns`} hint={t`Deny wins over allow.`} value={draft.lists.toolsDeny} errors={at('tools.deny')} onValue={(value) => editLists({ toolsDeny: value })} />
                <NumberField path="maxToolReminders" label={t`Max reminders to use tools`} value={profile.maxToolReminders} errors={at('maxToolReminders')} onValue={(v) => edit((p) => void (p.maxToolReminders = v))} />
                <ToolFields profile={profile} tools={tools} errors={errors} edit={edit} />

                <h5 class="tavern-agent__form-heading">{t`Skills`}</h5>
                <TextField path="skills.visible" label={t`Visible skills`} hint={t`Comma-separated; * means all.`} value={draft.lists.skillsVisible} errors={at('skills.visible')} onValue={(value) => editLists({ skillsVisible: value })} />
                <TextField path="skills.deny" label={t`Hidden skills`} hint={t`Comma-separated; wins over visible.`} value={draft.lists.skillsDeny} errors={at('skills.deny')} onValue={(value) => editLists({ skillsDeny: value })} />
                <div class="tavern-agent__field-row">
                    <NumberField path="skills.maxReadCharsPerCall" label={t`Max skill characters per read`} value={profile.skills.maxReadCharsPerCall} errors={at('skills.maxReadCharsPerCall')} onValue={(v) => edit((p) => void (p.skills.maxReadCharsPerCall = v))} />
                    <NumberField path="skills.maxReadCharsPerRun" label={t`Max skill characters per run`} value={profile.skills.maxReadCharsPerRun} errors={at('skills.maxReadCharsPerRun')} onValue={(v) => edit((p) => void (p.skills.maxReadCharsPerRun = v))} />
                </div>

                <h5 class="tavern-agent__form-heading">{t`Delegation`}</h5>
                <CheckboxField path="delegation.canDelegate" label={t`Can delegate to sub-agents`} checked={profile.delegation.canDelegate} errors={at('delegation.canDelegate')} onValue={(v) => edit((p) => void (p.delegation.canDelegate = v))} />
                {profile.delegation.canDelegate ? (
                    <p class="tavern-agent__muted" data-testid="delegation-targets">
                        {targets.length
                            ? `${t`May call:`} ${targets.map((target) => `${profileName(target)} (${target.id})`).join(', ')}`
                            : t`No agent accepts calls from this profile yet: make one callable, allowed as a sub-agent, and list this id (or *) among its allowed callers.`}
                    </p>
                ) : null}
                <CheckboxField path="delegation.callable" label={t`Callable by other agents`} checked={profile.delegation.callable} errors={at('delegation.callable')} onValue={(v) => edit((p) => void (p.delegation.callable = v))} />
                <CheckboxField path="delegation.allowAsSubagent" label={t`Allowed to run as a sub-agent`} checked={profile.delegation.allowAsSubagent} errors={at('delegation.allowAsSubagent')} onValue={(v) => edit((p) => void (p.delegation.allowAsSubagent = v))} />
                <TextField path="delegation.allowedCallers" label={t`Allowed callers`} hint={t`Profile ids, comma-separated; * means any.`} value={draft.lists.allowedCallers} errors={at('delegation.allowedCallers')} warnings={callerWarnings} onValue={(value) => editLists({ allowedCallers: value })} />
                <div class="tavern-agent__field-row">
                    <NumberField path="delegation.maxDelegationsPerRun" label={t`Max delegations per run`} value={profile.delegation.maxDelegationsPerRun} errors={at('delegation.maxDelegationsPerRun')} onValue={(v) => edit((p) => void (p.delegation.maxDelegationsPerRun = v))} />
                    <NumberField path="delegation.maxConcurrent" label={t`Max concurrent sub-agents`} value={profile.delegation.maxConcurrent} errors={at('delegation.maxConcurrent')} onValue={(v) => edit((p) => void (p.delegation.maxConcurrent = v))} />
                </div>

                <h5 class="tavern-agent__form-heading">{t`Context`}</h5>
                <NumberField path="context.historyMessages" label={t`Chat history messages`} hint={t`-1 = all, 0 = none.`} value={profile.context.historyMessages} errors={at('context.historyMessages')} onValue={(v) => edit((p) => void (p.context.historyMessages = v))} />
                <CheckboxField path="context.includeWorldInfo" label={t`Include activated world info`} checked={profile.context.includeWorldInfo} errors={at('context.includeWorldInfo')} onValue={(v) => edit((p) => void (p.context.includeWorldInfo = v))} />
                <CheckboxField path="context.includeHiddenMessages" label={t`Let the chat tools read hidden messages`} checked={profile.context.includeHiddenMessages === true} errors={at('context.includeHiddenMessages')} onValue={(v) => edit((p) => void (p.context.includeHiddenMessages = v))} />
                <NumberField
                    path="memory.pinnedChars"
                    label={t`Pinned memory characters`}
                    hint={t`How much of the chat's pinned memory blocks (persist/ files marked pinned) each run starts with; blocks past it are named, not shown. 0 = none.`}
                    value={profile.memory.pinnedChars}
                    errors={at('memory.pinnedChars')}
                    onValue={(v) => edit((p) => void (p.memory = { ...p.memory, pinnedChars: v }))}
                />
                <NumberField
                    path="memory.buildChunk"
                    label={t`Memory build chunk (messages)`}
                    hint={t`Building memory from a long chat: how many messages each run of this profile summarises (the memory keeper's profile decides). 5 to 400.`}
                    value={profile.memory.buildChunk}
                    errors={at('memory.buildChunk')}
                    onValue={(v) => edit((p) => void (p.memory = { ...p.memory, buildChunk: v }))}
                />
                <CheckboxField
                    path="lore.editOtherBooks"
                    label={t`Lore proposals may change the other lorebooks in scope (not only the chat's own)`}
                    checked={profile.lore.editOtherBooks}
                    errors={at('lore.editOtherBooks')}
                    onValue={(v) => edit((p) => void (p.lore = { ...p.lore, editOtherBooks: v }))}
                />
                <Checklist
                    path="workspace.visibleRoots"
                    label={t`Visible workspace folders`}
                    options={VISIBLE_ROOTS.map((root) => ({ value: root, label: `${root}/` }))}
                    selected={profile.workspace.visibleRoots}
                    errors={at('workspace.visibleRoots')}
                    onValue={(values) => edit((p) => void (p.workspace.visibleRoots = values as Profile['workspace']['visibleRoots']))}
                />
                <Checklist
                    path="workspace.writableRoots"
                    label={t`Writable workspace folders`}
                    options={VISIBLE_ROOTS.map((root) => ({ value: root, label: `${root}/` }))}
                    selected={profile.workspace.writableRoots}
                    errors={at('workspace.writableRoots')}
                    onValue={(values) => edit((p) => void (p.workspace.writableRoots = values as Profile['workspace']['writableRoots']))}
                />
            </details>

            <div class="tavern-agent__form-actions">
                {errors.length ? (
                    <span class="tavern-agent__error" role="alert" data-testid="profile-save-refused">
                        {t`Not saved: fix the fields marked above.`}
                    </span>
                ) : null}
                {saved && !errors.length ? (
                    <span class="tavern-agent__muted" role="status" data-testid="profile-saved">
                        <span class="fa-solid fa-check" aria-hidden="true" /> {t`Saved.`}
                    </span>
                ) : null}
                <button type="submit" class="menu_button tavern-agent__button" data-testid="profile-save" disabled={saving}>
                    <span class="fa-solid fa-floppy-disk" aria-hidden="true" /> {t`Save`}
                </button>
            </div>
        </form>
    );
}
