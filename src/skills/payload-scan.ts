import { ok, type Result } from '../contract/result';
import { payloadHash, type PayloadScan, type ScannedSkill } from '../contract/card-payload';
import { scriptFilesOf, type ParsedSkill } from '../contract/skills';
import { inspectSkill, type SizedFile, type SkillOrigin } from './build-bundle';
import { byPath } from './hash';
import { SKILL_LIMITS } from './limits';
import { archiveOrigin, groupProblem } from './parse-archive';
import { planSkillPayload, type PlannedItem } from './payload';
import { inflateEntry, InflateMeter } from './zip-read';

function refusedPreview(skill: ParsedSkill): ScannedSkill {
    const preview: ScannedSkill = { name: skill.name, description: '', files: 0, bytes: 0, warnings: [...skill.warnings], error: skill.error ?? 'The skill could not be read.' };
    return skill.code ? { ...preview, code: skill.code } : preview;
}

function preview(files: readonly SizedFile[], skillMd: Uint8Array | undefined, origin: SkillOrigin, hint: string): ScannedSkill {
    const inspected = inspectSkill(files, skillMd, origin);
    if (!inspected.ok) return refusedPreview(inspected.refused);
    const { front } = inspected;
    const warnings = [...front.warnings];
    if (hint !== '' && hint !== front.name) warnings.push(`the card calls it "${hint}"; its SKILL.md names it "${front.name}"`);
    // In the order the full parse stores them (by path), so the popup lists a skill's files as Install keeps them.
    const paths = [...files].sort(byPath).map((file) => ({ path: file.path, bytes: file.size }));
    return { name: front.name, description: front.description, files: files.length, bytes: paths.reduce((sum, file) => sum + file.bytes, 0), warnings, scripts: scriptFilesOf(paths), paths };
}

function scanItem(item: PlannedItem): ScannedSkill[] {
    if (item.kind === 'refused') return item.skills.map(refusedPreview);
    if (item.kind === 'inline') {
        return item.groups.map((group) =>
            preview(
                group.files.map((file) => ({ path: file.path, size: file.bytes.length })),
                group.files.find((file) => file.path === 'SKILL.md')?.bytes,
                item.origin(group),
                item.hint,
            ),
        );
    }
    // Only SKILL.md is inflated, within its own limit; the meter stops a SKILL.md that lies about its size.
    const meter = new InflateMeter(SKILL_LIMITS.maxSkillMdBytes * item.plan.groups.length + SKILL_LIMITS.maxFileBytes);
    return item.plan.groups.map((group) => {
        const origin = archiveOrigin(item.archiveName, group.root);
        const problem = groupProblem(group, origin);
        if (problem) return refusedPreview({ ...problem, error: `${item.label}: ${problem.error}` });
        const sized = group.files.map((file) => ({ path: file.path, size: file.entry.size }));
        const skillMd = group.files.find((file) => file.path === 'SKILL.md');
        // Missing or over its limit: inspectSkill refuses it from the sizes, never reading these (empty) bytes.
        if (!skillMd || skillMd.entry.size > SKILL_LIMITS.maxSkillMdBytes) return preview(sized, skillMd ? new Uint8Array() : undefined, origin, item.hint);
        const inflated = inflateEntry(item.bytes, skillMd.entry, meter);
        if (!inflated.ok) return refusedPreview({ name: origin.fallbackName, bundle: null, warnings: [], error: `${item.label}: ${item.archiveName}: entry ${JSON.stringify(skillMd.entry.name)} ${inflated.reason}` });
        return preview(sized, inflated.bytes, origin, item.hint);
    });
}

/**
 * A card's or preset's payload read as far as the Install popup needs (issue 39 §1): its hash, and per skill
 * its name, description and files from SKILL.md and the sizes the payload declares. Every limit of the full
 * parse that sizes can tell is checked here too, so a refused skill is refused before the user is asked.
 */
export async function scanSkillPayload(payload: unknown): Promise<Result<PayloadScan>> {
    const plan = await planSkillPayload(payload);
    if (!plan.ok) return { ok: false, error: plan.error };
    return ok({ hash: await payloadHash(payload), skills: plan.value.items.flatMap(scanItem) });
}
