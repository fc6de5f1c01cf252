import { useEffect, useState } from 'preact/hooks';
import { scopeKey, type SkillImportResult, type SkillPreview, type SkillScope } from '../../contract/skills';
import type { SkillOwners, SkillsService } from '../../contract/skills-service';
import { t } from '../../i18n/t';
import { choiceKey, needsChoice, planState, previewUnits, runImport, type ConflictChoice, type ImportUnit } from './import-plan';
import { errorText, fileCount, formatBytes, scopeFromKey, scopeLabel, targetLabel } from './skill-scope';

function conflictLabel(conflict: SkillPreview['conflict']): string {
    switch (conflict) {
        case 'new':
            return t`new`;
        case 'same':
            return t`same as installed`;
        case 'different':
            return t`different from installed`;
    }
}

function actionLabel(action: SkillImportResult['action']): string {
    switch (action) {
        case 'installed':
            return t`installed`;
        case 'replaced':
            return t`replaced`;
        case 'skipped':
            return t`skipped`;
        case 'same':
            return t`already installed, unchanged`;
    }
}

/** The picked files as units: each file on its own; a folder (files with a relative path) as one. */
function unitsOf(files: File[], folder: boolean): ImportUnit[] {
    if (!files.length) return [];
    if (folder) {
        const root = (files[0]!.webkitRelativePath || files[0]!.name).split('/')[0] ?? '';
        return [{ label: `${root}/`, input: files, previews: null, error: null }];
    }
    return files.map((file) => ({ label: file.name, input: file, previews: null, error: null }));
}

function PreviewRow(props: { preview: SkillPreview; choice: ConflictChoice | undefined; choiceName: string; onChoice(choice: ConflictChoice): void }) {
    const { preview, choice } = props;
    return (
        <li class="tavern-agent__skill-preview" data-testid="skill-preview" data-skill={preview.name} data-conflict={preview.conflict} data-refused={preview.error ? 'true' : undefined}>
            <div class="tavern-agent__skill-head">
                <span class="tavern-agent__skill-name">{preview.name}</span>
                {preview.error ? null : (
                    <span class={`tavern-agent__badge tavern-agent__badge--conflict-${preview.conflict}`} data-testid="skill-conflict">
                        {conflictLabel(preview.conflict)}
                    </span>
                )}
                <span class="tavern-agent__muted tavern-agent__skill-size">
                    {fileCount(preview.files)} · {formatBytes(preview.bytes)}
                </span>
            </div>
            {preview.description ? <p class="tavern-agent__skill-description">{preview.description}</p> : null}
            {preview.paths?.length ? (
                <details class="tavern-agent__skill-files" data-testid="skill-preview-files">
                    <summary>{t`Files it installs`}</summary>
                    <ul>
                        {preview.paths.map((file) => (
                            <li>
                                <code class="tavern-agent__code">{file.path}</code> <span class="tavern-agent__muted">{formatBytes(file.bytes)}</span>
                            </li>
                        ))}
                    </ul>
                </details>
            ) : null}
            {preview.warnings.length ? (
                <ul class="tavern-agent__skill-warnings" data-testid="skill-warnings">
                    {preview.warnings.map((warning) => (
                        <li>{warning}</li>
                    ))}
                </ul>
            ) : null}
            {preview.error ? (
                <p class="tavern-agent__error" data-testid="skill-preview-error">
                    {t`Refused, nothing of it will be installed:`} {preview.error}
                </p>
            ) : null}
            {needsChoice(preview) ? (
                <fieldset class="tavern-agent__skill-choice" data-testid="skill-choice">
                    <legend>{t`A different version is installed. Keep it or replace it?`}</legend>
                    {(['skip', 'replace'] as const).map((value) => (
                        <label class="checkbox_label">
                            <input type="radio" name={props.choiceName} value={value} checked={choice === value} data-choice={value} onChange={() => props.onChoice(value)} />
                            <span>{value === 'skip' ? t`Skip (keep the installed one)` : t`Replace`}</span>
                        </label>
                    ))}
                </fieldset>
            ) : null}
        </li>
    );
}

/**
 * Import: pick zips / SKILL.md files or a folder, choose the target scope, see the preview (always, before
 * anything is installed), decide every changed skill (no default: a changed skill is never replaced
 * unasked, never renamed), then Install and read what happened to each skill.
 */
export function SkillImport({ service, owners, targets }: { service: SkillsService; owners: SkillOwners | null; targets: readonly SkillScope[] }) {
    const [targetKey, setTargetKey] = useState('global');
    const [units, setUnits] = useState<ImportUnit[] | null>(null);
    const [choices, setChoices] = useState<Record<string, ConflictChoice>>({});
    const [results, setResults] = useState<SkillImportResult[] | null>(null);
    const [failure, setFailure] = useState<string | null>(null);
    const [busy, setBusy] = useState(false);
    const scope = scopeFromKey(targetKey, targets) ?? 'global';

    const preview = async (picked: ImportUnit[], target: SkillScope) => {
        setBusy(true);
        setChoices({});
        setResults(null);
        setFailure(null);
        setUnits(picked);
        try {
            setUnits(await previewUnits(service, picked, target));
        } finally {
            setBusy(false);
        }
    };
    // The target chosen (this character's or this chat's skills) leaves with its chat when another is opened: the
    // import falls back to Global and previews again, so the choices made are against what will be installed into.
    useEffect(() => {
        if (targetKey === 'global' || scopeFromKey(targetKey, targets)) return;
        setTargetKey('global');
        if (units && !busy) void preview(units, 'global');
    }, [targets]);
    const pick = (input: HTMLInputElement, folder: boolean) => {
        const files = [...(input.files ?? [])];
        // Cleared so that picking the same file again (after changing it) previews again.
        input.value = '';
        if (files.length) void preview(unitsOf(files, folder), scope);
    };
    const install = async () => {
        if (!units) return;
        setBusy(true);
        try {
            setResults(await runImport(service, units, choices, scope));
            setUnits(null);
            setChoices({});
        } catch (error) {
            setFailure(errorText(error));
        } finally {
            setBusy(false);
        }
    };

    const state = units ? planState(units, choices) : null;
    return (
        <div class="tavern-agent__skill-import" data-testid="skill-import">
            <div class="tavern-agent__toolbar">
                <label class="menu_button tavern-agent__button" aria-disabled={busy}>
                    <span class="fa-solid fa-file-import" aria-hidden="true" /> {t`Import files`}
                    <input
                        id="tavern_agent_skill_import_files"
                        type="file"
                        multiple
                        accept=".zip,.md"
                        class="tavern-agent__file-input"
                        disabled={busy}
                        onChange={(event) => pick(event.currentTarget, false)}
                    />
                </label>
                <label class="menu_button tavern-agent__button" aria-disabled={busy}>
                    <span class="fa-solid fa-folder-open" aria-hidden="true" /> {t`Import folder`}
                    <input
                        id="tavern_agent_skill_import_folder"
                        type="file"
                        // @ts-expect-error webkitdirectory is not in Preact's attribute types; every browser SillyTavern supports knows it.
                        webkitdirectory=""
                        class="tavern-agent__file-input"
                        disabled={busy}
                        onChange={(event) => pick(event.currentTarget, true)}
                    />
                </label>
            </div>
            <div class="tavern-agent__skill-target">
                <label for="tavern_agent_skill_target">{t`Install into`}</label>
                <select
                    id="tavern_agent_skill_target"
                    class="text_pole"
                    value={targetKey}
                    disabled={busy}
                    onChange={(event) => {
                        const key = event.currentTarget.value;
                        setTargetKey(key);
                        // Conflicts are against the target scope: a new target needs a new preview.
                        if (units) void preview(units, scopeFromKey(key, targets) ?? 'global');
                    }}
                >
                    {targets.map((target) => (
                        <option value={scopeKey(target)}>{targetLabel(target, owners)}</option>
                    ))}
                </select>
            </div>
            {units ? (
                <section class="tavern-agent__skill-previews" aria-label={t`Import preview`} data-testid="skill-previews">
                    <h5 class="tavern-agent__form-title">
                        {t`Preview: nothing is installed yet.`} {t`Target:`} {scopeLabel(scope, owners)}
                    </h5>
                    {units.map((unit, index) => (
                        <div class="tavern-agent__skill-unit">
                            <p class="tavern-agent__muted tavern-agent__mono">{unit.label}</p>
                            {unit.error ? <p class="tavern-agent__error">{unit.error}</p> : null}
                            {unit.previews === null ? <p class="tavern-agent__muted">{t`Reading…`}</p> : null}
                            {unit.previews?.length === 0 && !unit.error ? <p class="tavern-agent__error">{t`No skill found in it.`}</p> : null}
                            <ul class="tavern-agent__skill-list">
                                {(unit.previews ?? []).map((item) => (
                                    <PreviewRow
                                        preview={item}
                                        choice={choices[choiceKey(index, item.name)]}
                                        choiceName={`tavern_agent_skill_choice_${index}_${item.name}`}
                                        onChoice={(choice) => setChoices({ ...choices, [choiceKey(index, item.name)]: choice })}
                                    />
                                ))}
                            </ul>
                        </div>
                    ))}
                    <div class="tavern-agent__form-actions">
                        {state && state.undecided ? (
                            <span class="tavern-agent__muted" data-testid="skill-undecided">
                                {t`Choose skip or replace for each changed skill.`}
                            </span>
                        ) : null}
                        <button type="button" class="menu_button tavern-agent__button" data-testid="skill-import-cancel" disabled={busy} onClick={() => setUnits(null)}>
                            {t`Cancel`}
                        </button>
                        <button type="button" class="menu_button tavern-agent__button" data-testid="skill-install" disabled={busy || !state?.ready} onClick={() => void install()}>
                            <span class="fa-solid fa-download" aria-hidden="true" /> {t`Install`}
                        </button>
                    </div>
                </section>
            ) : null}
            {failure ? (
                <p class="tavern-agent__error" role="alert">
                    {failure}
                </p>
            ) : null}
            {results ? (
                <ul class="tavern-agent__skill-results" role="status" data-testid="skill-results">
                    {results.map((result) => (
                        <li data-testid="skill-result" data-skill={result.name} data-action={result.error ? 'error' : result.action} class={result.error ? 'tavern-agent__error' : undefined}>
                            <span class="tavern-agent__skill-name">{result.name}</span>: {result.error ? result.error : actionLabel(result.action)}
                        </li>
                    ))}
                </ul>
            ) : null}
        </div>
    );
}
