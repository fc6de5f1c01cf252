import type { SkillImportResult, SkillPreview, SkillScope } from '../../contract/skills';
import type { SkillFilesInput, SkillsService } from '../../contract/skills-service';

/**
 * An import as the manager runs it: the picked input split into units (each picked file on its own, a
 * picked folder whole), each previewed, then installed with the user's per-skill choices. `import` takes
 * one conflict strategy per call, so a unit is imported with `skip` or `replace`, and a unit that mixes
 * both is replaced whole after saving the skills to keep, which are then put back as they were.
 */

export type ConflictChoice = 'skip' | 'replace';

export interface ImportUnit {
    label: string;
    input: SkillFilesInput;
    previews: SkillPreview[] | null;
    /** The preview call itself failed (not one skill refused: that is the preview's own `error`). */
    error: string | null;
}

export function choiceKey(unitIndex: number, name: string): string {
    return `${unitIndex}:${name}`;
}

/** The skills that need the user's decision: changed against the installed one, and not refused. */
export function needsChoice(preview: SkillPreview): boolean {
    return preview.conflict === 'different' && !preview.error;
}

export interface PlanState {
    /** Every unit previewed, every `different` skill decided, and something to do. */
    ready: boolean;
    undecided: number;
}

export function planState(units: readonly ImportUnit[], choices: Readonly<Record<string, ConflictChoice>>): PlanState {
    let undecided = 0;
    let installable = 0;
    for (const [index, unit] of units.entries()) {
        if (!unit.previews) return { ready: false, undecided };
        for (const preview of unit.previews) {
            if (preview.error) continue;
            installable += 1;
            if (needsChoice(preview) && !choices[choiceKey(index, preview.name)]) undecided += 1;
        }
    }
    return { ready: undecided === 0 && installable > 0, undecided };
}

export async function previewUnits(service: SkillsService, units: readonly ImportUnit[], scope: SkillScope): Promise<ImportUnit[]> {
    return Promise.all(
        units.map(async (unit) => {
            try {
                return { ...unit, previews: await service.preview(unit.input, { scope }), error: null };
            } catch (error) {
                return { ...unit, previews: [], error: error instanceof Error ? error.message : String(error) };
            }
        }),
    );
}

/** Installs every unit with its choices; the results are per skill, in the units' order. */
export async function runImport(
    service: SkillsService,
    units: readonly ImportUnit[],
    choices: Readonly<Record<string, ConflictChoice>>,
    scope: SkillScope,
): Promise<SkillImportResult[]> {
    const results: SkillImportResult[] = [];
    for (const [index, unit] of units.entries()) {
        const changed = (unit.previews ?? []).filter(needsChoice);
        const keep = changed.filter((preview) => choices[choiceKey(index, preview.name)] !== 'replace').map((preview) => preview.name);
        const replace = changed.length > keep.length;
        if (!replace || keep.length === 0) {
            results.push(...(await service.import(unit.input, { scope, conflict: replace ? 'replace' : 'skip' })));
            continue;
        }
        const saved = await service.export(keep, { scope });
        const installed = await service.import(unit.input, { scope, conflict: 'replace' });
        await service.import(saved, { scope, conflict: 'replace' });
        results.push(...installed.map((result): SkillImportResult => (keep.includes(result.name) ? { name: result.name, action: 'skipped' } : result)));
    }
    return results;
}
