import { useState } from 'preact/hooks';
import type { ImportResult } from '../../contract/profile-migrations';
import { t } from '../../i18n/t';
import { services } from '../services';
import { downloadText } from './download';
import { profileData, refreshProfiles } from './profile-data';
import { sameProfile } from './profile-draft';

const EXPORT_FILE_NAME = 'tavern-agent-profiles.json';
const PROFILE_IMPORT_MAX_BYTES = 1024 * 1024;

type ImportErrors = Extract<ImportResult, { ok: false }>['errors'];

function describeImportError(error: ImportErrors[number]): string {
    const where = [error.profile, error.path].filter(Boolean).join(' · ');
    return where ? `${where}: ${error.message}` : error.message;
}

/**
 * Import and export as JSON files. An import is all or nothing (the worker checks every profile first); a
 * built-in imported exactly as shipped clears the user's copy instead of storing a duplicate of it, a
 * changed one is refused (built-in ids are reserved), and replacing a profile of the user's asks first.
 */
export function ProfileTransfer({ onImported, onNotice }: { onImported(ids: string[]): void; onNotice(text: string): void }) {
    const [errors, setErrors] = useState<ImportErrors>([]);
    const [busy, setBusy] = useState(false);

    const importFile = async (file: File) => {
        setBusy(true);
        try {
            if (file.size > PROFILE_IMPORT_MAX_BYTES) {
                setErrors([{ profile: '', path: '', message: t`The file is too large (over 1 MiB).` }]);
                return;
            }
            const text = await file.text();
            const result = await (await services().engine()).importProfiles(text);
            if (!result.ok) {
                setErrors(result.errors);
                return;
            }
            const pristine = profileData.value?.pristine ?? [];
            // Built-in ids are reserved: one imported as shipped is a no-op, a changed one is refused whole.
            const reserved = result.profiles.filter((profile) => {
                const shipped = pristine.find((item) => item.id === profile.id);
                return shipped !== undefined && !sameProfile(shipped, profile);
            });
            if (reserved.length) {
                setErrors(reserved.map((profile) => ({ profile: profile.id, path: 'id', message: t`This id belongs to a built-in profile; give the profile another id and import it again.` })));
                return;
            }
            setErrors([]);
            const changed = result.profiles.filter((profile) => !pristine.some((item) => item.id === profile.id));
            const listings = profileData.value?.listings ?? [];
            const replaced = changed.filter((profile) => {
                const existing = listings.find((listing) => listing.id === profile.id && !listing.builtIn);
                return existing !== undefined && !(existing.profile && sameProfile(existing.profile, profile));
            });
            if (replaced.length && !(await services().confirm(`${t`Replace your profiles with the imported ones of the same id?`} ${replaced.map((profile) => profile.id).join(', ')}`))) {
                onNotice(t`Nothing was imported.`);
                return;
            }
            for (const profile of result.profiles) {
                const shipped = pristine.find((item) => item.id === profile.id);
                if (shipped) services().profiles.remove(profile.id);
            }
            services().profiles.save(changed);
            await refreshProfiles();
            onNotice(`${t`Imported:`} ${result.profiles.map((profile) => profile.id).join(', ')}`);
            onImported(result.profiles.map((profile) => profile.id));
        } catch (error) {
            setErrors([{ profile: '', path: '', message: error instanceof Error ? error.message : String(error) }]);
        } finally {
            setBusy(false);
        }
    };

    const exportAll = async () => {
        const profiles = (profileData.value?.listings ?? []).flatMap((listing) => (listing.profile ? [listing.profile] : []));
        downloadText(EXPORT_FILE_NAME, await (await services().engine()).exportProfiles(profiles));
    };

    return (
        <div class="tavern-agent__transfer">
            <div class="tavern-agent__toolbar">
                <label class="menu_button tavern-agent__button" data-testid="profile-import" aria-disabled={busy}>
                    <span class="fa-solid fa-file-import" aria-hidden="true" /> {t`Import`}
                    <input
                        id="tavern_agent_profile_import"
                        type="file"
                        accept=".json,application/json"
                        class="tavern-agent__file-input"
                        disabled={busy}
                        onChange={(event) => {
                            const input = event.currentTarget;
                            const file = input.files?.[0];
                            // Cleared so that choosing the same file again (after fixing it) imports again.
                            input.value = '';
                            if (file) void importFile(file);
                        }}
                    />
                </label>
                <button type="button" class="menu_button tavern-agent__button" data-testid="profile-export" onClick={() => void exportAll()}>
                    <span class="fa-solid fa-file-export" aria-hidden="true" /> {t`Export all`}
                </button>
            </div>
            {errors.length ? (
                <div class="tavern-agent__import-errors" role="alert" data-testid="profile-import-errors">
                    <p class="tavern-agent__error">{t`Nothing was imported. Fix these and import the file again:`}</p>
                    <ul>
                        {errors.map((error) => (
                            <li class="tavern-agent__error" data-testid="import-error" data-profile={error.profile} data-path={error.path}>
                                {describeImportError(error)}
                            </li>
                        ))}
                    </ul>
                </div>
            ) : null}
        </div>
    );
}
