import { PANEL_WIDTH_MAX, PANEL_WIDTH_MIN, clampPanelWidth, type PanelSettings } from '../contract/panel-settings';
import { t } from '../i18n/t';
import { profileData, refreshProfiles } from './profiles/profile-data';
import { profileName } from './profiles/profile-names';
import { services } from './services';
import { panelSettingsState } from './state';
import { RetentionFields } from './storage/retention-fields';

function update(change: Partial<PanelSettings>): void {
    // Shown at once; the host's saved settings replace it (src/index.ts mirrors them).
    panelSettingsState.value = { ...panelSettingsState.value, ...change };
    services().settings?.update(change);
}

/** The profiles to choose from; listed on first use only, as listing them starts the engine. */
function DefaultProfile({ value }: { value: string }) {
    const listings = profileData.value?.listings ?? [];
    const load = () => {
        if (!profileData.value) void refreshProfiles();
    };
    return (
        <div class="tavern-agent-settings__field">
            <label for="tavern_agent_default_profile">{t`Default profile for new chats`}</label>
            <select
                id="tavern_agent_default_profile"
                class="text_pole"
                value={value}
                onFocus={load}
                onMouseDown={load}
                onChange={(event) => update({ defaultProfileId: event.currentTarget.value })}
            >
                {listings.some((listing) => listing.id === value) ? null : <option value={value}>{value}</option>}
                {listings.map((listing) => (
                    <option value={listing.id} disabled={!listing.profile}>
                        {listing.profile ? profileName(listing.profile) : listing.id}
                    </option>
                ))}
            </select>
        </div>
    );
}

/**
 * Tavern Agent's block in SillyTavern's Extensions drawer (inline-drawer markup, as other extensions have;
 * SillyTavern's own click handler opens and closes it). Settings are per SillyTavern user.
 */
export function SettingsBlock({ openPanel }: { openPanel(): void }) {
    const settings = panelSettingsState.value;
    return (
        <div class="tavern-agent-settings">
            <div class="inline-drawer">
                <div class="inline-drawer-toggle inline-drawer-header">
                    <b>{t`Tavern Agent`}</b>
                    <div class="inline-drawer-icon fa-solid fa-circle-chevron-down down" />
                </div>
                <div class="inline-drawer-content">
                    <button type="button" class="menu_button tavern-agent-settings__open" data-testid="settings-open-panel" onClick={openPanel}>
                        <span class="fa-solid fa-robot" aria-hidden="true" /> {t`Open the Tavern Agent panel`}
                    </button>
                    <DefaultProfile value={settings.defaultProfileId} />
                    <label class="checkbox_label" for="tavern_agent_send_indicator">
                        <input
                            id="tavern_agent_send_indicator"
                            type="checkbox"
                            checked={settings.sendIndicator}
                            onChange={(event) => update({ sendIndicator: event.currentTarget.checked })}
                        />
                        <span>{t`Show the Agent Mode badge by the Send button`}</span>
                    </label>
                    <div class="tavern-agent-settings__field">
                        <label for="tavern_agent_panel_width">{t`Panel width (px; empty: fit beside the chat)`}</label>
                        <div class="tavern-agent-settings__row">
                            <input
                                id="tavern_agent_panel_width"
                                class="text_pole"
                                type="number"
                                min={PANEL_WIDTH_MIN}
                                max={PANEL_WIDTH_MAX}
                                step={10}
                                value={settings.panelWidth ?? ''}
                                onChange={(event) => {
                                    const raw = event.currentTarget.value.trim();
                                    update({ panelWidth: raw === '' || !Number.isFinite(Number(raw)) ? null : clampPanelWidth(Number(raw)) });
                                }}
                            />
                            <button type="button" class="menu_button" onClick={() => update({ panelWidth: null })}>
                                {t`Reset`}
                            </button>
                        </div>
                    </div>
                    <div class="tavern-agent-settings__field" data-testid="settings-retention">
                        <b>{t`Runs kept`}</b>
                        <RetentionFields />
                    </div>
                </div>
            </div>
        </div>
    );
}
