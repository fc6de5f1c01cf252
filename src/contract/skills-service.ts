import type { SkillImportResult, SkillListing, SkillPreview, SkillScope } from './skills';

/** What `TavernAgent.skills` and the skill manager accept as input: zips, SKILL.md texts, picked folders. */
export type SkillFilesInput = File | Blob | Array<File | Blob>;

export type SkillConflictChoice = 'skip' | 'replace' | Record<string, 'skip' | 'replace'>;

export interface SkillFileView {
    path: string;
    encoding: 'utf8' | 'base64';
    content: string;
    bytes: number;
}

/** A card's or preset's embedded skills that are not installed (or changed): what the offer popup shows. */
export interface EmbeddedSkillOffer {
    kind: 'card' | 'preset';
    /** The character's avatar file, or the preset's name. */
    owner: string;
    /** Hash of the payload: "Not now" is remembered per hash, so a changed payload asks again. */
    payloadHash: string;
    scope: SkillScope;
    skills: SkillPreview[];
    /**
     * Set when the whole payload is refused before any skill is read (issue 39 §1): a limit it is over, or a
     * reader that ran past its deadline. `payloadHash` is then empty and `skills` too; nothing is offered.
     */
    refused?: { code: string; message: string };
}

/**
 * The owners the manager can target besides global and profiles: the open character and the selected
 * chat-completion preset (null when there is none). The panel gets it from src/runtime.ts beside the service.
 */
export interface SkillOwners {
    /** The open character's avatar file (the `{character}` scope key) and its display name. */
    character: { avatar: string; name: string } | null;
    preset: string | null;
}

/**
 * The page-side skill service (host/ implements it; the public API, slash commands and the panel use
 * it, the panel through injection from src/runtime.ts). Shapes of list/preview/import/export/delete are
 * the `TavernAgent.skills` contract of issue 11; the rest serves the manager.
 */
export interface SkillsService {
    list(): Promise<SkillListing[]>;
    preview(files: SkillFilesInput, options: { scope: SkillScope }): Promise<SkillPreview[]>;
    /**
     * `conflict` decides what happens to a skill that differs from the installed one of its name: one
     * strategy for all, or one per skill name (a name not in the record is not replaced).
     */
    import(files: SkillFilesInput, options: { scope: SkillScope; conflict?: SkillConflictChoice }): Promise<SkillImportResult[]>;
    /** A zip Blob of the named skills of one scope. */
    export(names: string[], options: { scope: SkillScope }): Promise<Blob>;
    /** Rejects when there is no such skill in that scope. */
    delete(name: string, options: { scope: SkillScope }): Promise<void>;
    readFile(name: string, scope: SkillScope, path: string): Promise<SkillFileView>;
    /**
     * Replaces one text file of an installed skill (the manager's editor), checked as an import is checked, and
     * stores the result in the skill's place in that scope (the old version goes). Rejects with an error whose
     * `code` says why: `skill.name_changed` (SKILL.md names another skill), `skill.edit_refused` (an import's
     * check fails), `skill.binary_file`, `skill.file_not_found`; nothing is changed then.
     */
    writeFile(name: string, scope: SkillScope, path: string, content: string): Promise<void>;
    /** Moves a skill to another scope; rejects when the target holds a different skill of that name. */
    move(name: string, from: SkillScope, to: SkillScope): Promise<void>;
    /** Profile ids whose `skills.visible` / `skills.deny` let them see this skill. */
    visibleTo(name: string): Promise<string[]>;
    /** Of those, the ids whose `scripts` setting is not 'off': the profiles that may run this skill's scripts (issue 35). */
    scriptRunners(name: string): Promise<string[]>;
    /** Writes skills into the open character's card, or the selected preset, in TauriTavern's payload format. */
    exportToOwner(names: string[], options: { scope: SkillScope; target: 'card' | 'preset' }): Promise<void>;
    /** Embedded skills of the open character and selected preset that are not installed or changed. */
    pendingOffers(): Promise<EmbeddedSkillOffer[]>;
    installOffer(offer: EmbeddedSkillOffer, conflict?: 'skip' | 'replace'): Promise<SkillImportResult[]>;
    declineOffer(offer: EmbeddedSkillOffer): Promise<void>;
    /** Called after any change (import, delete, move, another tab's change seen on refresh). */
    onChange(listener: () => void): () => void;
}
