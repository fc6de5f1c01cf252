import { zipSync, type Zippable } from 'fflate';
import type { SkillBundle } from '../contract/skills';
import { fileBytes } from './bytes';

/** A fixed timestamp: the same bundles always zip to the same bytes (a payload's sha256 stays put). */
const FIXED_TIME = new Date(2000, 0, 1);

/** The files of each bundle under `prefix(bundle)` ("" = at the archive root). */
export function zipBundles(bundles: readonly SkillBundle[], prefix: (bundle: SkillBundle, index: number) => string): Uint8Array {
    const entries: Zippable = {};
    bundles.forEach((bundle, index) => {
        const folder = prefix(bundle, index);
        for (const file of bundle.files) entries[`${folder}${file.path}`] = [fileBytes(file), { mtime: FIXED_TIME }];
    });
    return zipSync(entries, { level: 6, mtime: FIXED_TIME });
}

/** Export: one top-level folder per skill, named after it (a second skill of the same name gets "-2"). */
export function exportSkillsZip(bundles: readonly SkillBundle[]): Uint8Array {
    const used = new Map<string, number>();
    const folders = bundles.map((bundle) => {
        const count = (used.get(bundle.name) ?? 0) + 1;
        used.set(bundle.name, count);
        return count === 1 ? bundle.name : `${bundle.name}-${count}`;
    });
    return zipBundles(bundles, (_, index) => `${folders[index]}/`);
}
