import type { SkillBundle } from '../../contract/skills';
import { stContext } from '../sillytavern/st-context';

/**
 * Skill bundles in the SillyTavern user's own files on the server (`data/<user>/user/files/`), one JSON file
 * per content hash: so a second browser, a phone, or a browser whose site data was cleared finds them again.
 * The name passes SillyTavern's validateAssetFileName (letters, digits, `-`, `_`, `.`; `.json` is allowed).
 */
export interface BundleStore {
    upload(bundle: SkillBundle): Promise<void>;
    /** The bundle stored under this hash; rejects when it is missing or not a bundle of that hash. */
    fetch(hash: string): Promise<SkillBundle>;
    /** Best effort: a bundle file no index entry references any more. */
    remove(hash: string): Promise<void>;
}

export function bundleFileName(hash: string): string {
    return `tavern-agent-skill-${hash}.json`;
}

/** SillyTavern's upload wants base64; the browser encodes a Blob natively, off the JavaScript thread. */
function base64Of(blob: Blob): Promise<string> {
    return new Promise((resolve, reject) => {
        const reader = new FileReader();
        reader.onload = () => {
            const url = String(reader.result);
            resolve(url.slice(url.indexOf(',') + 1));
        };
        reader.onerror = () => reject(reader.error ?? new Error('Could not read the skill bundle.'));
        reader.readAsDataURL(blob);
    });
}

async function failure(response: Response, what: string): Promise<Error> {
    const text = await response.text().catch(() => '');
    return new Error(`${what}: HTTP ${response.status}${text ? ` ${text.slice(0, 200)}` : ''}`);
}

function looksLikeBundle(value: unknown, hash: string): value is SkillBundle {
    if (!value || typeof value !== 'object') return false;
    const bundle = value as Partial<SkillBundle>;
    return bundle.v === 1 && bundle.hash === hash && typeof bundle.name === 'string' && Array.isArray(bundle.files);
}

export const serverBundles: BundleStore = {
    async upload(bundle) {
        const data = await base64Of(new Blob([JSON.stringify(bundle)], { type: 'application/json' }));
        const response = await fetch('/api/files/upload', {
            method: 'POST',
            headers: stContext().getRequestHeaders(),
            body: JSON.stringify({ name: bundleFileName(bundle.hash), data }),
        });
        if (!response.ok) throw await failure(response, `Uploading skill "${bundle.name}" failed`);
    },
    async fetch(hash) {
        const response = await fetch(`/user/files/${bundleFileName(hash)}`, { cache: 'no-cache' });
        if (!response.ok) throw await failure(response, `Fetching skill bundle ${hash.slice(0, 12)} failed`);
        const bundle: unknown = await response.json();
        if (!looksLikeBundle(bundle, hash)) throw new Error(`The stored skill bundle ${hash.slice(0, 12)} is damaged.`);
        return bundle;
    },
    async remove(hash) {
        const response = await fetch('/api/files/delete', {
            method: 'POST',
            headers: stContext().getRequestHeaders(),
            body: JSON.stringify({ path: `user/files/${bundleFileName(hash)}` }),
        });
        // 404: already gone, which is what we wanted.
        if (!response.ok && response.status !== 404) throw await failure(response, 'Deleting a skill bundle failed');
    },
};
