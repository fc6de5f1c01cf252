import type { SkillSource } from '../../contract/skills';
import type { SkillFilesInput } from '../../contract/skills-service';

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

function isZip(bytes: ArrayBuffer): boolean {
    const head = new Uint8Array(bytes, 0, Math.min(4, bytes.byteLength));
    return ZIP_MAGIC.every((byte, i) => head[i] === byte);
}

/**
 * The name the worker's parser sees: a picked folder's file keeps its relative path (`my-skill/SKILL.md`),
 * a named file its name; a nameless Blob is named by what it holds (a zip, else a SKILL.md text). A File
 * whose name hides a zip (no `.zip`) is named as a zip too, so the parser opens it.
 */
function sourceName(item: File | Blob, bytes: ArrayBuffer): string {
    const file = item as Partial<File>;
    const named = (typeof file.webkitRelativePath === 'string' && file.webkitRelativePath) || (typeof file.name === 'string' && file.name) || '';
    const zip = isZip(bytes);
    if (!named) return zip ? 'skills.zip' : 'SKILL.md';
    if (zip && !/\.zip$/i.test(named)) return `${named}.zip`;
    return named;
}

/** Reads the user's input into raw sources; unzipping and parsing happen in the worker. */
export async function toSkillSources(files: SkillFilesInput): Promise<SkillSource[]> {
    const items = Array.isArray(files) ? files : [files];
    return Promise.all(
        items.map(async (item) => {
            if (!(item instanceof Blob)) throw new TypeError('Skills are imported from File or Blob objects.');
            const bytes = await item.arrayBuffer();
            return { name: sourceName(item, bytes), bytes };
        }),
    );
}
