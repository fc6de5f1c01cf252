import type { SkillImportResult, SkillPreview, SkillScope } from '../../contract/skills';
import type { SkillFilesInput, SkillsService } from '../../contract/skills-service';

/**
 * An import as the manager runs it: the picked input split into units (each picked file on its own, a
 * picked folder whole), each previewed, then installed with the user's choice per changed skill (`import`
 * takes them as a record by skill name; a name left out is not replaced).
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
        const conflict: Record<string, ConflictChoice> = {};
        for (const preview of (unit.previews ?? []).filter(needsChoice)) conflict[preview.name] = choices[choiceKey(index, preview.name)] ?? 'skip';
        results.push(...(await service.import(unit.input, { scope, conflict })));
    }
    return results;
}
