import type { SkillBundle } from '../contract/skills';
import { sha256Hex, toBase64 } from './bytes';
import { zipBundles } from './export-zip';
import { ARCHIVE_BASE64_FORMAT, INLINE_FILES_FORMAT, SKILL_PAYLOAD_VERSION } from './payload';

/** Skills this small and all text travel inline (form 1), readable in the card's JSON; others as a zip. */
export const INLINE_MAX_BYTES = 32 * 1024;

export interface SkillPayload {
    version: typeof SKILL_PAYLOAD_VERSION;
    items: Array<Record<string, unknown>>;
}

/** Bundles → the payload a card or preset carries, in TauriTavern's format so its cards read ours. */
export async function encodeSkillPayload(bundles: readonly SkillBundle[]): Promise<SkillPayload> {
    const items: Array<Record<string, unknown>> = [];
    for (const bundle of bundles) {
        const bytes = bundle.files.reduce((sum, file) => sum + file.bytes, 0);
        if (bytes <= INLINE_MAX_BYTES && bundle.files.every((file) => file.encoding === 'utf8')) {
            items.push({
                bundleFormat: INLINE_FILES_FORMAT,
                skillName: bundle.name,
                files: bundle.files.map((file) => ({ path: file.path, encoding: 'utf8', content: file.content })),
            });
            continue;
        }
        // The skill's files at the archive root: TauriTavern finds a root SKILL.md first.
        const zip = zipBundles([bundle], () => '');
        items.push({
            bundleFormat: ARCHIVE_BASE64_FORMAT,
            skillName: bundle.name,
            fileName: `${bundle.name}.zip`,
            contentBase64: toBase64(zip),
            sha256: await sha256Hex(zip),
        });
    }
    return { version: SKILL_PAYLOAD_VERSION, items };
}
