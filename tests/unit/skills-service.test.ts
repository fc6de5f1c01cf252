// Unit tests of the page-side skill service over fakes of its three stores (index in settings, bundles on
// the server, the worker's cache) and the card/preset owners: atomic installs, conflicts, offers.
// Run: node --import tsx --test tests/unit/skills-service.test.ts
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { beforeEach, describe, it } from 'node:test';
import type { Result } from '../../src/contract/result';
import type { ParsedSkill, SkillBundle, SkillFile, SkillSource } from '../../src/contract/skills';
import type { BundleStore } from '../../src/host/skills/bundle-files';
import type { SkillEngine } from '../../src/host/skills/skill-engine';
import type { CardReader } from '../../src/host/skills/card-reader';
import type { SkillIndexState, SkillIndexStore } from '../../src/host/skills/skill-index';
import type { OwnerPayload, EmbeddedOwners } from '../../src/host/skills/embedded-owners';
import { createSkillsService, type HostSkillsService } from '../../src/host/skills/skills-service';
import { canonicalJson } from '../../src/contract/card-payload';
import { editSkillFile } from '../../src/skills/edit-file';
import { SKILL_LIMITS } from '../../src/skills/limits';

/** A skill as the fake parser reads it: one JSON text per skill. */
function skillText(name: string, body = `How to ${name}.`, description = `Use ${name}.`): string {
    return JSON.stringify({ name, description, body });
}

function bundleOf(text: string): ParsedSkill {
    const { name, description, body, scripts = {} } = JSON.parse(text) as { name: string; description: string; body: string; scripts?: Record<string, string> };
    if (name.includes('..')) return { name, bundle: null, warnings: [], error: `${name}: entry "../x" leaves the skill folder` };
    const content = `---\nname: ${name}\ndescription: ${description}\n---\n${body}`;
    const hash = createHash('sha256').update(text).digest('hex');
    const textFile = (path: string, content: string): SkillFile => ({ path, encoding: 'utf8', content, bytes: Buffer.byteLength(content) });
    const files = [textFile('SKILL.md', content), ...Object.entries(scripts).map(([path, source]) => textFile(path, source))];
    return { name, bundle: { v: 1, name, description, hash, frontMatter: { name, description }, files }, warnings: [] };
}

const ok = <T>(value: T): Result<T> => ({ ok: true, value });
const failed = (message: string): Result<never> => ({ ok: false, error: { code: 'test.failed', message } });

class FakeEngine implements SkillEngine {
    cache = new Map<string, SkillBundle>();
    failCache = false;
    async parseSkills(sources: SkillSource[]) {
        return sources.flatMap((source) => new TextDecoder().decode(source.bytes).split('\n---skill---\n').map(bundleOf));
    }
    async cacheSkillBundles(bundles: SkillBundle[]) {
        if (this.failCache) return failed('quota exceeded');
        for (const bundle of bundles) this.cache.set(bundle.hash, bundle);
        return ok(null);
    }
    async missingSkillBundles(hashes: string[]) {
        return hashes.filter((hash) => !this.cache.has(hash));
    }
    async readSkillFile(hash: string, path: string) {
        const file = this.cache.get(hash)?.files.find((f) => f.path === path);
        return file ? ok(file) : failed(`no file ${path}`);
    }
    async editSkillFile(hash: string, path: string, content: string) {
        // The worker's own rebuild and checks: what an edit may do is the real rule, not the fake's.
        const bundle = this.cache.get(hash);
        return bundle ? editSkillFile(structuredClone(bundle), path, content) : failed(`not cached ${hash}`);
    }
    async exportSkillsZip(hashes: string[]) {
        return ok(new TextEncoder().encode(hashes.join(',')));
    }
    async encodeSkillPayload(hashes: string[]) {
        return ok({ version: 1, items: hashes.map((hash) => ({ bundleFormat: 'inline-files-v1', skillName: this.cache.get(hash)!.name, text: hash })) });
    }
}

class FakeServer implements BundleStore {
    files = new Map<string, SkillBundle>();
    uploadFailures = 0;
    uploads = 0;
    async upload(bundle: SkillBundle) {
        this.uploads++;
        if (this.uploadFailures > 0) {
            this.uploadFailures--;
            throw new Error('HTTP 500');
        }
        this.files.set(bundle.hash, structuredClone(bundle));
    }
    async fetch(hash: string) {
        const bundle = this.files.get(hash);
        if (!bundle) throw new Error('HTTP 404');
        return structuredClone(bundle);
    }
    async remove(hash: string) {
        this.files.delete(hash);
    }
}

class FakeIndex implements SkillIndexStore {
    state: SkillIndexState = { index: [], declined: [] };
    failNextSave = false;
    read() {
        return structuredClone(this.state);
    }
    async update(change: (state: SkillIndexState) => SkillIndexState) {
        const next = change(structuredClone(this.state));
        if (this.failNextSave) {
            this.failNextSave = false;
            throw new Error('settings save failed');
        }
        this.state = structuredClone(next);
        return this.read();
    }
}

class FakeOwners implements EmbeddedOwners {
    card: { owner: string; payload: unknown } | null = null;
    preset: { owner: string; payload: unknown } | null = null;
    async embedded() {
        const found: OwnerPayload[] = [];
        if (this.card?.payload) found.push({ kind: 'card', owner: this.card.owner, scope: { character: this.card.owner }, payload: this.card.payload });
        if (this.preset?.payload) found.push({ kind: 'preset', owner: this.preset.owner, scope: { preset: this.preset.owner }, payload: this.preset.payload });
        return found;
    }
    async current(target: 'card' | 'preset') {
        return target === 'card' ? this.card : this.preset;
    }
    async write(target: 'card' | 'preset', payload: unknown) {
        const holder = target === 'card' ? this.card : this.preset;
        holder!.payload = structuredClone(payload);
    }
}

const hashPayload = async (payload: unknown) => createHash('sha256').update(canonicalJson(payload)).digest('hex');

/** The card reader over the fake format: one JSON text per item; the scan leaves out hashes and contents. */
const fakeReader: CardReader = {
    async scan({ payload }) {
        const read = (text: string): ParsedSkill => {
            try {
                return bundleOf(text);
            } catch {
                return { name: 'unreadable', bundle: null, warnings: [], error: 'not a fake skill text' };
            }
        };
        const skills = (payload as { items: Array<{ text: string }> }).items.map((item) => read(item.text));
        const scanned = skills.map(({ name, bundle, warnings, error }) =>
            error ? { name, description: '', files: 0, bytes: 0, warnings, error } : { name, description: bundle!.description, files: bundle!.files.length, bytes: 0, warnings },
        );
        return ok({ hash: await hashPayload(payload), skills: scanned });
    },
    async parse({ payload }) {
        const items = (payload as { items: Array<{ text: string }> }).items;
        return ok({ hash: await hashPayload(payload), skills: items.map((item) => bundleOf(item.text)) });
    },
};

let engine: FakeEngine;
let server: FakeServer;
let index: FakeIndex;
let owners: FakeOwners;
let service: HostSkillsService;

beforeEach(() => {
    engine = new FakeEngine();
    server = new FakeServer();
    index = new FakeIndex();
    owners = new FakeOwners();
    service = createSkillsService({
        engine: async () => engine,
        bundles: server,
        index,
        owners,
        profiles: async () => [
            { id: 'writer', visible: ['*'], deny: [], scripts: 'all' },
            { id: 'careful', visible: ['*'], deny: ['lore'], scripts: 'skills' },
            { id: 'narrow', visible: ['style'], deny: [], scripts: 'off' },
        ],
        hashPayload,
        reader: fakeReader,
        now: () => 1000,
    });
});

const file = (...texts: string[]) => new Blob([texts.join('\n---skill---\n')]);

describe('import', () => {
    it('installs new skills: bundle on the server, in the cache, then one index line each', async () => {
        const results = await service.import(file(skillText('lore'), skillText('style')), { scope: 'global' });
        assert.deepEqual(results, [
            { name: 'lore', action: 'installed' },
            { name: 'style', action: 'installed' },
        ]);
        const [lore] = index.state.index;
        assert.equal(lore!.name, 'lore');
        assert.deepEqual(lore!.source, { kind: 'import' });
        assert.ok(server.files.has(lore!.hash));
        assert.ok(engine.cache.has(lore!.hash));
        assert.deepEqual(
            (await service.list()).map((s) => [s.name, s.scope, s.files]),
            [
                ['lore', 'global', ['SKILL.md']],
                ['style', 'global', ['SKILL.md']],
            ],
        );
    });

    it('identical → same; changed → different, and without a choice it is not replaced', async () => {
        await service.import(file(skillText('lore')), { scope: 'global' });
        const before = structuredClone(index.state);
        assert.deepEqual((await service.preview(file(skillText('lore')), { scope: 'global' })).map((p) => p.conflict), ['same']);
        assert.deepEqual(await service.import(file(skillText('lore')), { scope: 'global' }), [{ name: 'lore', action: 'same' }]);
        const changed = file(skillText('lore', 'New text.'));
        assert.deepEqual((await service.preview(changed, { scope: 'global' })).map((p) => p.conflict), ['different']);
        assert.deepEqual((await service.preview(changed, { scope: { character: 'a.png' } })).map((p) => p.conflict), ['new'], 'conflicts are per scope');
        const [unchosen] = await service.import(changed, { scope: 'global' });
        assert.equal(unchosen!.action, 'skipped');
        assert.match(unchosen!.error!, /skip or replace/);
        assert.deepEqual(await service.import(changed, { scope: 'global', conflict: 'skip' }), [{ name: 'lore', action: 'skipped' }]);
        assert.deepEqual(index.state, before);
        assert.deepEqual(await service.import(changed, { scope: 'global', conflict: 'replace' }), [{ name: 'lore', action: 'replaced' }]);
        assert.notEqual(index.state.index[0]!.hash, before.index[0]!.hash);
        assert.ok(!server.files.has(before.index[0]!.hash), 'the replaced bundle left the server');
        assert.equal((await service.readFile('lore', 'global', 'SKILL.md')).content.endsWith('New text.'), true);
    });

    it('conflict may be chosen per skill name; a name left out is not replaced', async () => {
        await service.import(file(skillText('a'), skillText('b'), skillText('c')), { scope: 'global' });
        const results = await service.import(file(skillText('a', 'v2'), skillText('b', 'v2'), skillText('c', 'v2'), skillText('d')), { scope: 'global', conflict: { a: 'replace', b: 'skip' } });
        assert.deepEqual(results.map((r) => [r.name, r.action, Boolean(r.error)]), [
            ['a', 'replaced', false],
            ['b', 'skipped', false],
            ['c', 'skipped', true],
            ['d', 'installed', false],
        ]);
        await assert.rejects(service.import(file(skillText('a')), { scope: 'global', conflict: { a: 'merge' } as never }), /skip' or 'replace/);
    });

    it('a refused skill carries its error and installs nothing; the others still install', async () => {
        const results = await service.import(file(skillText('ok'), skillText('bad..'), skillText('ok', 'twin')), { scope: 'global' });
        assert.deepEqual(results.map((r) => r.action), ['installed', 'skipped', 'skipped']);
        assert.match(results[1]!.error!, /\.\.\/x/);
        assert.match(results[2]!.error!, /also named "ok"/);
        assert.deepEqual(index.state.index.map((e) => e.name), ['ok']);
    });

    it('a failed upload is retried once', async () => {
        server.uploadFailures = 1;
        assert.deepEqual(await service.import(file(skillText('lore')), { scope: 'global' }), [{ name: 'lore', action: 'installed' }]);
        assert.equal(server.uploads, 2);
    });

    it('an upload failing twice, a cache failure or a failed index save leave no half-saved skill', async () => {
        server.uploadFailures = 2;
        const [upload] = await service.import(file(skillText('a')), { scope: 'global' });
        assert.equal(upload!.action, 'skipped');
        assert.match(upload!.error!, /SillyTavern server/);
        assert.deepEqual(index.state.index, []);
        assert.equal(engine.cache.size, 0);

        engine.failCache = true;
        const [cache] = await service.import(file(skillText('b')), { scope: 'global' });
        assert.match(cache!.error!, /cache/);
        assert.deepEqual(index.state.index, []);
        assert.equal(server.files.size, 0, 'the uploaded bundle was taken back');
        engine.failCache = false;

        index.failNextSave = true;
        const [save] = await service.import(file(skillText('c')), { scope: 'global' });
        assert.equal(save!.action, 'skipped');
        assert.match(save!.error!, /settings save failed/);
        assert.deepEqual(index.state.index, []);
        assert.equal(server.files.size, 0);
        assert.deepEqual(await service.list(), []);
    });

    it('rejects an unknown scope or conflict strategy', async () => {
        await assert.rejects(service.import(file(skillText('a')), { scope: { team: 'x' } as never }), /Unknown skill scope/);
        await assert.rejects(service.import(file(skillText('a')), { scope: 'global', conflict: 'rename' as never }), /skip' or 'replace/);
    });
});

describe('delete, move, export, visibility', () => {
    it('delete rejects when there is no such skill; a bundle still used by another scope stays on the server', async () => {
        await assert.rejects(service.delete('lore', { scope: 'global' }), /No skill named "lore"/);
        await service.import(file(skillText('lore')), { scope: 'global' });
        await service.import(file(skillText('lore')), { scope: { profile: 'writer' } });
        const hash = index.state.index[0]!.hash;
        await service.delete('lore', { scope: 'global' });
        assert.ok(server.files.has(hash));
        await service.delete('lore', { scope: { profile: 'writer' } });
        assert.ok(!server.files.has(hash));
        assert.deepEqual(index.state.index, []);
    });

    it('move changes the scope; a different skill of that name in the target refuses', async () => {
        await service.import(file(skillText('lore')), { scope: 'global' });
        await service.move('lore', 'global', { character: 'a.png' });
        assert.deepEqual(index.state.index.map((e) => e.scope), [{ character: 'a.png' }]);
        await service.import(file(skillText('lore', 'other')), { scope: 'global' });
        await assert.rejects(service.move('lore', 'global', { character: 'a.png' }), /different skill/);
        assert.equal(index.state.index.length, 2);
    });

    it('export zips the named skills of one scope, fetching missing bundles from the server', async () => {
        await service.import(file(skillText('lore'), skillText('style')), { scope: 'global' });
        engine.cache.clear();
        const zip = await service.export(['lore'], { scope: 'global' });
        assert.equal(zip.type, 'application/zip');
        assert.equal(await zip.text(), index.state.index[0]!.hash);
        await assert.rejects(service.export(['nope'], { scope: 'global' }), /No skill named "nope"/);
    });

    it('visibleTo names the profiles whose visible/deny and scope let them see the skill', async () => {
        await service.import(file(skillText('lore'), skillText('style')), { scope: 'global' });
        assert.deepEqual(await service.visibleTo('lore'), ['writer']);
        assert.deepEqual(await service.visibleTo('style'), ['writer', 'careful', 'narrow']);
        await service.import(file(skillText('mine')), { scope: { profile: 'careful' } });
        assert.deepEqual(await service.visibleTo('mine'), ['careful']);
        assert.deepEqual(await service.visibleTo('none'), []);
    });

    it('the preview and the listing name the files a skill carries under scripts/, with their sizes', async () => {
        const withScripts = JSON.stringify({ name: 'loot', description: 'Loot.', body: 'Roll.', scripts: { 'scripts/roll.js': 'export default () => 4;', 'scripts/lib/table.js': 'export const t = [];' } });
        const [preview] = await service.preview(file(withScripts), { scope: 'global' });
        assert.deepEqual(preview!.scripts, [
            { path: 'scripts/roll.js', bytes: 23 },
            { path: 'scripts/lib/table.js', bytes: 20 },
        ]);
        await service.import(file(withScripts, skillText('plain')), { scope: 'global' });
        const listed = await service.list();
        assert.deepEqual(listed.find((skill) => skill.name === 'loot')?.scripts, preview!.scripts);
        assert.deepEqual(listed.find((skill) => skill.name === 'plain')?.scripts, []);
    });

    it("scriptRunners names the profiles that see the skill and whose scripts setting is not 'off'", async () => {
        await service.import(file(skillText('lore'), skillText('style')), { scope: 'global' });
        assert.deepEqual(await service.scriptRunners('style'), ['writer', 'careful'], "narrow sees it, but runs no scripts");
        assert.deepEqual(await service.scriptRunners('lore'), ['writer'], 'careful runs scripts, but lore is denied to it');
        await service.import(file(skillText('mine')), { scope: { profile: 'narrow' } });
        assert.deepEqual(await service.scriptRunners('mine'), [], "only narrow's runs see it, and it runs none");
        assert.deepEqual(await service.scriptRunners('none'), []);
    });
});

describe('writeFile (the manager\'s editor)', () => {
    const withReference = (body: string) => JSON.stringify({ name: 'lore', description: 'Use lore.', body, scripts: { 'references/places.md': '# Places\n' } });
    const codeOf = (error: unknown) => (error as { code?: string }).code;

    it('stores the edited skill in its place: the new text reads back, the old version is gone, the index line follows', async () => {
        await service.import(file(withReference('How to lore.')), { scope: 'global' });
        const before = structuredClone(index.state.index[0]!);
        let changes = 0;
        service.onChange(() => changes++);
        await service.writeFile('lore', 'global', 'references/places.md', '# Places\n\n- Greyhaven\n');
        assert.equal((await service.readFile('lore', 'global', 'references/places.md')).content, '# Places\n\n- Greyhaven\n');
        const [after] = index.state.index;
        assert.equal(index.state.index.length, 1, 'replaced, not installed beside the old one');
        assert.notEqual(after!.hash, before.hash);
        assert.deepEqual(after!.files, [
            { path: 'SKILL.md', bytes: before.files[0]!.bytes },
            { path: 'references/places.md', bytes: 22 },
        ]);
        assert.deepEqual(after!.source, before.source);
        assert.ok(server.files.has(after!.hash));
        assert.ok(!server.files.has(before.hash), 'the old bundle left the server');
        assert.equal(changes, 1);

        await service.writeFile('lore', 'global', 'SKILL.md', '---\nname: lore\ndescription: Keeps the coast straight.\n---\nNew.');
        assert.equal(index.state.index[0]!.description, 'Keeps the coast straight.');
        assert.equal((await service.list())[0]!.description, 'Keeps the coast straight.');
    });

    it('edits only the copy in the named scope; a bundle another scope still holds stays on the server', async () => {
        await service.import(file(skillText('lore')), { scope: 'global' });
        await service.import(file(skillText('lore')), { scope: { character: 'a.png' } });
        const shared = index.state.index[0]!.hash;
        await service.writeFile('lore', { character: 'a.png' }, 'SKILL.md', '---\nname: lore\ndescription: Use lore.\n---\nMine.');
        assert.equal(index.state.index.find((e) => e.scope === 'global')!.hash, shared);
        assert.ok(server.files.has(shared));
        assert.equal((await service.readFile('lore', 'global', 'SKILL.md')).content.endsWith('How to lore.'), true);
        assert.equal((await service.readFile('lore', { character: 'a.png' }, 'SKILL.md')).content.endsWith('Mine.'), true);
    });

    it('a SKILL.md naming another skill is refused with skill.name_changed, and nothing changes', async () => {
        await service.import(file(skillText('lore')), { scope: 'global' });
        const state = structuredClone(index.state);
        const stored = new Set(server.files.keys());
        const renamed = service.writeFile('lore', 'global', 'SKILL.md', '---\nname: lore-two\ndescription: Use lore.\n---\nHow to lore.');
        await assert.rejects(renamed, (error: unknown) => codeOf(error) === 'skill.name_changed' && /"lore-two".*"lore"/.test((error as Error).message));
        assert.deepEqual(index.state, state);
        assert.deepEqual(new Set(server.files.keys()), stored);
        assert.match((await service.readFile('lore', 'global', 'SKILL.md')).content, /^---\nname: lore\n/);
    });

    it('an import\'s checks refuse an edit: a file over its size cap, front matter broken, a binary or unknown file', async () => {
        await service.import(file(withReference('How to lore.')), { scope: 'global' });
        const state = structuredClone(index.state);
        const huge = 'x'.repeat(SKILL_LIMITS.maxFileBytes + 1);
        await assert.rejects(service.writeFile('lore', 'global', 'references/places.md', huge), (error: unknown) => codeOf(error) === 'skill.edit_refused' && /over the 16 MiB limit of one file/.test((error as Error).message));
        const bigSkillMd = `---\nname: lore\ndescription: Use lore.\n---\n${'y'.repeat(SKILL_LIMITS.maxSkillMdBytes)}`;
        await assert.rejects(service.writeFile('lore', 'global', 'SKILL.md', bigSkillMd), /limit of SKILL\.md/);
        await assert.rejects(service.writeFile('lore', 'global', 'SKILL.md', 'name: lore\n'), (error: unknown) => codeOf(error) === 'skill.edit_refused' && /front matter is missing/.test((error as Error).message));
        await assert.rejects(service.writeFile('lore', 'global', 'notes.md', 'x'), (error: unknown) => codeOf(error) === 'skill.file_not_found');
        await assert.rejects(service.writeFile('lore', { profile: 'writer' }, 'SKILL.md', 'x'), /No skill named "lore"/);
        assert.deepEqual(index.state, state);
    });

    it('a binary file is not edited as text', async () => {
        const bundle = bundleOf(skillText('lore')).bundle!;
        bundle.files.push({ path: 'assets/dot.png', encoding: 'base64', content: 'iVBORw==', bytes: 5 });
        const edited = await editSkillFile(bundle, 'assets/dot.png', 'text');
        assert.equal(edited.ok ? 'ok' : edited.error.code, 'skill.binary_file');
    });
});

describe('runs and a second browser', () => {
    it('a fresh cache is filled from the server; a bundle the server lost is left out and named', async () => {
        await service.import(file(skillText('lore'), skillText('style')), { scope: 'global' });
        engine.cache.clear();
        server.files.delete(index.state.index[1]!.hash);
        const { resolved, unavailable } = await service.resolveForRun({ presetName: null, profileId: 'writer', characterAvatar: null }, { visible: ['*'], deny: [] });
        assert.deepEqual(resolved.skills.map((s) => s.name), ['lore']);
        assert.deepEqual(unavailable, ['style']);
        assert.ok(engine.cache.has(index.state.index[0]!.hash));
    });
});

describe('embedded offers', () => {
    const payload = (...texts: string[]) => ({ version: 1, items: texts.map((text) => ({ text })) });

    it('a card with new skills is offered; Not now is remembered per payload; a changed payload asks again', async () => {
        owners.card = { owner: 'seraphina.png', payload: payload(skillText('lore')) };
        const [offer] = await service.pendingOffers();
        assert.equal(offer!.kind, 'card');
        assert.deepEqual(offer!.scope, { character: 'seraphina.png' });
        assert.deepEqual(offer!.skills.map((s) => [s.name, s.conflict]), [['lore', 'new']]);
        await service.declineOffer(offer!);
        assert.deepEqual(await service.pendingOffers(), []);
        owners.card.payload = payload(skillText('lore', 'v2'));
        assert.equal((await service.pendingOffers()).length, 1);
    });

    it('Install puts them in the character scope with the card as source; deleting the card removes only those', async () => {
        owners.card = { owner: 'seraphina.png', payload: payload(skillText('lore')) };
        const [offer] = await service.pendingOffers();
        assert.deepEqual(await service.installOffer(offer!), [{ name: 'lore', action: 'installed' }]);
        assert.deepEqual(index.state.index[0]!.source, { kind: 'card', payloadHash: offer!.payloadHash });
        assert.deepEqual(await service.pendingOffers(), [], 'installed: nothing left to offer');
        await service.import(file(skillText('mine')), { scope: { character: 'seraphina.png' } });
        await service.forgetCard('seraphina.png');
        assert.deepEqual(index.state.index.map((e) => e.name), ['mine']);
    });

    it('installOffer refuses a payload that changed since it was offered', async () => {
        owners.card = { owner: 'seraphina.png', payload: payload(skillText('lore')) };
        const [offer] = await service.pendingOffers();
        owners.card.payload = payload(skillText('lore', 'changed'));
        await assert.rejects(service.installOffer(offer!), /changed/);
    });

    it('exportToOwner writes the payload, keeps the owner\'s other skills, and does not offer it back', async () => {
        await service.import(file(skillText('lore')), { scope: 'global' });
        owners.preset = { owner: 'Default', payload: { version: 1, items: [{ skillName: 'other', text: skillText('other') }, { skillName: 'lore', text: 'stale' }] } };
        await service.exportToOwner(['lore'], { scope: 'global', target: 'preset' });
        const written = owners.preset.payload as { version: number; items: Array<{ skillName: string }> };
        assert.equal(written.version, 1);
        assert.deepEqual(written.items.map((i) => i.skillName), ['other', 'lore']);
        assert.deepEqual(await service.pendingOffers(), []);
        owners.card = null;
        await assert.rejects(service.exportToOwner(['lore'], { scope: 'global', target: 'card' }), /Open a character chat/);
    });
});

describe('inputs', () => {
    it('a nameless Blob is a SKILL.md text, or a zip by its magic; folder files keep their relative path', async () => {
        const { toSkillSources } = await import('../../src/host/skills/skill-sources');
        const zip = new Blob([new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2])]);
        const named = new File(['x'], 'SKILL.md');
        Object.defineProperty(named, 'webkitRelativePath', { value: 'my-skill/SKILL.md' });
        const sources = await toSkillSources([new Blob(['---\nname: a\n---']), zip, named, new File([zip], 'download')]);
        assert.deepEqual(sources.map((s) => s.name), ['SKILL.md', 'skills.zip', 'my-skill/SKILL.md', 'download.zip']);
        await assert.rejects(toSkillSources('text' as never), /File or Blob/);
    });
});
