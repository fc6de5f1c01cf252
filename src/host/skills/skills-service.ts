import type { ParsedSkill, RunSkill, SkillImportResult, SkillIndexEntry, SkillListing, SkillScope } from '../../contract/skills';
import { SCOPE_ORDER, SkillScopeSchema, scopeKey, scopeKind, scriptFilesOf } from '../../contract/skills';
import type { EmbeddedSkillOffer, SkillConflictChoice, SkillFilesInput, SkillsService } from '../../contract/skills-service';
import { resolveSkills, skillPool, skillVisible, type ResolvedSkills, type SkillChatContext, type SkillRunContext, type SkillVisibilityRules } from '../../contract/skills-resolve';
import type { ScriptsSetting } from '../../contract/profile';
import type { EmbeddedOwners } from './embedded-owners';
import type { CardReader } from './card-reader';
import { TavernAgentError } from '../../contract/tavern-agent-error';
import { t } from '../../i18n/t';
import { installedIn, judgeScanned, judgeSkills, type JudgedSkill } from './skill-previews';
import { toSkillSources } from './skill-sources';
import { createSkillStore, type InstallRequest, type SkillStoreDeps } from './skill-store';

export interface ProfileSkillRules extends SkillVisibilityRules {
    id: string;
    /** The profile's `scripts` setting: any but 'off' lets it run the scripts of the skills it sees. */
    scripts: ScriptsSetting;
}

export interface SkillsServiceDeps extends SkillStoreDeps {
    owners: EmbeddedOwners;
    /** Every usable agent profile's skill rules. */
    profiles(): Promise<ProfileSkillRules[]>;
    /** Hashes a payload this page wrote itself (our own export is not offered back). */
    hashPayload(payload: unknown): Promise<string>;
    /** Reads cards' payloads in a throwaway worker (issue 39 §1): the scan before the offer, the parse after Install. */
    reader: CardReader;
}

/** The service plus what only the host itself uses (runs, `/agent skills`, card deletion). */
export interface HostSkillsService extends SkillsService {
    /** The run's skills, each one's bundle made sure to be in the worker's cache; `unavailable` ones are left out. */
    resolveForRun(context: SkillRunContext, rules: SkillVisibilityRules): Promise<{ resolved: ResolvedSkills; unavailable: string[] }>;
    /**
     * Every skill a run of some profile may see in this chat (its sub-agents resolve their own from it), each
     * bundle made sure to be in the worker's cache; one that cannot be fetched is left out.
     */
    skillPoolForRun(context: SkillChatContext): Promise<RunSkill[]>;
    /** A deleted character's card skills (character scope, brought by its card) go with it. */
    forgetCard(avatar: string): Promise<void>;
}

const MAX_DECLINED = 200;

function describeScope(scope: SkillScope): string {
    return scopeKey(scope);
}

function checkScope(scope: unknown): SkillScope {
    const parsed = SkillScopeSchema.safeParse(scope);
    if (!parsed.success) throw new TypeError(`Unknown skill scope ${JSON.stringify(scope)}: use 'global', {character}, {profile} or {preset}.`);
    return parsed.data;
}

function compareEntries(a: SkillIndexEntry, b: SkillIndexEntry): number {
    const kind = SCOPE_ORDER.indexOf(scopeKind(a.scope)) - SCOPE_ORDER.indexOf(scopeKind(b.scope));
    if (kind) return kind;
    const scope = scopeKey(a.scope).localeCompare(scopeKey(b.scope));
    return scope || a.name.localeCompare(b.name);
}

export function createSkillsService(deps: SkillsServiceDeps): HostSkillsService {
    const store = createSkillStore(deps);

    function entryOrThrow(name: string, scope: SkillScope): SkillIndexEntry {
        const entry = installedIn(store.entries(), scope, name);
        if (!entry) throw new Error(`${t`No skill named`} "${name}" ${t`is installed in scope`} ${describeScope(scope)}.`);
        return entry;
    }

    async function parse(files: SkillFilesInput): Promise<ParsedSkill[]> {
        const sources = await toSkillSources(files);
        const engine = await deps.engine();
        return engine.parseSkills(store.transferSources(sources));
    }

    /** Decides per judged skill, installs what should be, and answers in the input's order. */
    async function installJudged(judged: JudgedSkill[], scope: SkillScope, choice: SkillConflictChoice | undefined, source: SkillIndexEntry['source']): Promise<SkillImportResult[]> {
        const results: SkillImportResult[] = [];
        const requests: InstallRequest[] = [];
        for (const { preview, bundle } of judged) {
            const conflict = typeof choice === 'object' && choice !== null ? choice[preview.name] : choice;
            if (!bundle || preview.error) {
                results.push({ name: preview.name, action: 'skipped', error: preview.error ?? t`The skill could not be read.` });
            } else if (preview.conflict === 'same') {
                results.push({ name: preview.name, action: 'same' });
            } else if (preview.conflict === 'different' && conflict !== 'replace') {
                results.push(
                    conflict === 'skip'
                        ? { name: preview.name, action: 'skipped' }
                        : { name: preview.name, action: 'skipped', error: `${t`A different skill named`} "${preview.name}" ${t`is installed in scope`} ${describeScope(scope)}: ${t`choose skip or replace.`}` },
                );
            } else {
                results.push({ name: preview.name, action: preview.conflict === 'different' ? 'replaced' : 'installed' });
                requests.push({ bundle, scope, source });
            }
        }
        if (!requests.length) return results;
        const outcome = await store.install(requests);
        return results.map((result) => {
            const error = outcome.get(result.name);
            return typeof error === 'string' && requests.some((r) => r.bundle.name === result.name) ? { name: result.name, action: 'skipped', error } : result;
        });
    }

    async function cachedHashes(entries: SkillIndexEntry[]): Promise<string[]> {
        const hashes = entries.map((entry) => entry.hash);
        const unavailable = await store.ensureCached(hashes);
        const lost = entries.filter((entry) => unavailable.has(entry.hash)).map((entry) => entry.name);
        if (lost.length) throw new Error(`${t`These skills could not be fetched from the SillyTavern server:`} ${lost.join(', ')}.`);
        return hashes;
    }

    /** Profiles whose visible/deny let them see the skill, in a scope they are run in (another profile's scope is not). */
    async function profilesSeeing(name: string): Promise<ProfileSkillRules[]> {
        const entries = store.entries().filter((entry) => entry.name === name);
        if (!entries.length) return [];
        const profiles = await deps.profiles();
        return profiles.filter((profile) => skillVisible(name, profile) && entries.some((entry) => entry.scope === 'global' || !('profile' in entry.scope) || entry.scope.profile === profile.id));
    }

    async function rememberPayload(hash: string): Promise<void> {
        await store.update((state) => (state.declined.includes(hash) ? state : { ...state, declined: [...state.declined, hash].slice(-MAX_DECLINED) }));
    }

    return {
        async list(): Promise<SkillListing[]> {
            const entries = [...store.entries()].sort(compareEntries);
            // Listing is when a browser catches up with skills installed elsewhere: fill its cache.
            await store.ensureCached(entries.map((entry) => entry.hash)).catch((error: unknown) => console.warn('[Tavern Agent] skill cache fill failed', error));
            return entries.map((entry) => ({
                name: entry.name,
                description: entry.description,
                scope: entry.scope,
                files: entry.files.map((f) => f.path),
                bytes: entry.files.reduce((sum, f) => sum + f.bytes, 0),
                scripts: scriptFilesOf(entry.files),
            }));
        },

        async preview(files, options) {
            const scope = checkScope(options?.scope ?? 'global');
            return judgeSkills(await parse(files), store.entries(), scope).map((judged) => judged.preview);
        },

        async import(files, options) {
            const scope = checkScope(options?.scope ?? 'global');
            const conflict = options?.conflict;
            const strategies = typeof conflict === 'object' && conflict !== null ? Object.values(conflict) : conflict === undefined ? [] : [conflict];
            if (strategies.some((s) => s !== 'skip' && s !== 'replace')) throw new TypeError(`conflict must be 'skip' or 'replace' (or a record of them by skill name), not ${JSON.stringify(conflict)}.`);
            const judged = judgeSkills(await parse(files), store.entries(), scope);
            return installJudged(judged, scope, conflict, { kind: 'import' });
        },

        async export(names, options) {
            const scope = checkScope(options?.scope ?? 'global');
            const entries = [...new Set(names)].map((name) => entryOrThrow(name, scope));
            const engine = await deps.engine();
            const zipped = await engine.exportSkillsZip(await cachedHashes(entries));
            if (!zipped.ok) throw new Error(zipped.error.message);
            return new Blob([zipped.value as Uint8Array<ArrayBuffer>], { type: 'application/zip' });
        },

        async delete(name, options) {
            const scope = checkScope(options?.scope ?? 'global');
            entryOrThrow(name, scope);
            const key = scopeKey(scope);
            await store.remove((entry) => entry.name === name && scopeKey(entry.scope) === key);
        },

        async readFile(name, scope, path) {
            const entry = entryOrThrow(name, checkScope(scope));
            const [hash] = await cachedHashes([entry]);
            const engine = await deps.engine();
            const file = await engine.readSkillFile(hash!, path);
            if (!file.ok) throw new Error(file.error.message);
            return file.value;
        },

        async writeFile(name, scope, path, content) {
            const entry = entryOrThrow(name, checkScope(scope));
            const [hash] = await cachedHashes([entry]);
            const engine = await deps.engine();
            const edited = await engine.editSkillFile(hash!, path, content);
            if (!edited.ok) throw new TavernAgentError(edited.error.code, edited.error.message);
            if (edited.value.hash === entry.hash) return;
            // Installed as an import replaces: the index line takes the new hash, the old bundle is deleted when no
            // other line holds it. A run that froze the old hash still reads it from the browser's cache. The
            // source stays: a card's edited skill is still the card's (its payload is not offered over the edit).
            const outcome = await store.install([{ bundle: edited.value, scope: entry.scope, source: entry.source }]);
            const refused = outcome.get(name);
            if (refused) throw new Error(refused);
        },

        async move(name, from, to) {
            const source = checkScope(from);
            const target = checkScope(to);
            const entry = entryOrThrow(name, source);
            if (scopeKey(source) === scopeKey(target)) return;
            await store.update((state) => {
                const there = installedIn(state.index, target, name);
                if (there && there.hash !== entry.hash) throw new Error(`${t`A different skill named`} "${name}" ${t`is already installed in scope`} ${describeScope(target)}.`);
                const fromKey = scopeKey(source);
                const rest = state.index.filter((e) => !(e.name === name && scopeKey(e.scope) === fromKey));
                // The same skill already there: the move just drops the source copy.
                return { ...state, index: there ? rest : [...rest, { ...entry, scope: target }] };
            });
        },

        async visibleTo(name) {
            return (await profilesSeeing(name)).map((profile) => profile.id);
        },

        async scriptRunners(name) {
            return (await profilesSeeing(name)).filter((profile) => profile.scripts !== 'off').map((profile) => profile.id);
        },

        async exportToOwner(names, options) {
            const scope = checkScope(options.scope);
            const entries = [...new Set(names)].map((name) => entryOrThrow(name, scope));
            const current = await deps.owners.current(options.target);
            if (!current) throw new Error(options.target === 'card' ? t`Open a character chat first.` : t`Select a Chat Completion preset first.`);
            const engine = await deps.engine();
            const encoded = await engine.encodeSkillPayload(await cachedHashes(entries));
            if (!encoded.ok) throw new Error(encoded.error.message);
            const fresh = encoded.value as { version?: unknown; items?: unknown[] };
            // Keep the owner's other skills: items of a name we write are replaced, the rest stay.
            const old = current.payload as { version?: unknown; items?: unknown[] } | null;
            const written = new Set(entries.map((entry) => entry.name));
            const kept =
                old && old.version === 1 && Array.isArray(old.items)
                    ? old.items.filter((item) => !(item && typeof item === 'object' && written.has(String((item as { skillName?: unknown }).skillName))))
                    : [];
            const payload = { ...fresh, version: 1, items: [...kept, ...(fresh.items ?? [])] };
            await deps.owners.write(options.target, payload, current.owner);
            // What we wrote ourselves is not offered back to us.
            await rememberPayload(await deps.hashPayload(payload));
        },

        async pendingOffers() {
            const offers: EmbeddedSkillOffer[] = [];
            const declined = new Set(store.declined());
            for (const found of await deps.owners.embedded()) {
                const base = { kind: found.kind, owner: found.owner, scope: found.scope };
                // Only the hash and what SKILL.md says, in a worker of its own: the full parse waits for Install.
                const scan = await deps.reader.scan(found);
                if (!scan.ok) {
                    offers.push({ ...base, payloadHash: '', skills: [], refused: scan.error });
                    continue;
                }
                const { hash, skills: scanned } = scan.value;
                if (declined.has(hash)) continue;
                const skills = judgeScanned(scanned, store.entries(), found.scope, hash);
                if (!skills.some((skill) => !skill.error && skill.conflict !== 'same')) continue;
                offers.push({ ...base, payloadHash: hash, skills });
            }
            return offers;
        },

        async installOffer(offer, conflict) {
            const changed = t`The embedded skills changed or are no longer open; open the chat again to see the current ones.`;
            const found = (await deps.owners.embedded()).find((owner) => owner.kind === offer.kind && owner.owner === offer.owner);
            if (!found) throw new Error(changed);
            const parsed = await deps.reader.parse(found);
            if (!parsed.ok) throw new Error(`${parsed.error.message} (${parsed.error.code})`);
            if (parsed.value.hash !== offer.payloadHash) throw new Error(changed);
            const judged = judgeSkills(parsed.value.skills, store.entries(), found.scope);
            return installJudged(judged, found.scope, conflict, { kind: offer.kind, payloadHash: parsed.value.hash });
        },

        declineOffer: (offer) => rememberPayload(offer.payloadHash),

        onChange: (listener) => store.onChange(listener),

        async resolveForRun(context, rules) {
            const resolved = resolveSkills(store.entries(), context, rules);
            const unavailable = await store.ensureCached(resolved.skills.map((skill) => skill.hash));
            if (!unavailable.size) return { resolved, unavailable: [] };
            const lost = resolved.skills.filter((skill) => unavailable.has(skill.hash)).map((skill) => skill.name);
            return { resolved: { ...resolved, skills: resolved.skills.filter((skill) => !unavailable.has(skill.hash)) }, unavailable: lost };
        },

        async skillPoolForRun(context) {
            const pool = skillPool(store.entries(), context);
            const unavailable = await store.ensureCached(pool.map((skill) => skill.hash));
            return unavailable.size ? pool.filter((skill) => !unavailable.has(skill.hash)) : pool;
        },

        async forgetCard(avatar) {
            const brought = (entry: SkillIndexEntry) => entry.scope !== 'global' && 'character' in entry.scope && entry.scope.character === avatar && entry.source?.kind === 'card';
            if (!store.entries().some(brought)) return;
            await store.remove(brought);
        },
    };
}
