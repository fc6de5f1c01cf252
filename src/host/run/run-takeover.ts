import type { GenerationType } from '../../contract/run-input';
import type { RunObserver } from '../../contract/run-observer';
import { t } from '../../i18n/t';
import { toasts } from '../sillytavern/toasts';
import { activeRun } from './active-run';
import type { GenerateInterceptor } from './interceptor';
import { launchRun } from './new-run';

/** The panel's live feed, which a resume started from a command or the API reports to as well. */
let defaultObserver: RunObserver | null = null;

/** The panel's live feed (set once the takeover is created): commands and buttons report their runs to it. */
export function defaultRunObserver(): RunObserver | null {
    return defaultObserver;
}

/**
 * The agent's takeover of a SillyTavern generation. It awaits the whole run inside the generate
 * interceptor, so SillyTavern stays busy (Send blocked, Stop shown) exactly as during a normal generation,
 * then aborts SillyTavern's own generation so no second reply is made.
 */
export function createRunTakeover(observer: RunObserver): GenerateInterceptor {
    defaultObserver = observer;
    return async (_chat, _contextSize, abort, type) => {
        // Whatever happens below, SillyTavern's own generation must not run as well.
        try {
            if (activeRun()) {
                toasts.warning(t`An agent run is already in progress.`);
                return;
            }
            await launchRun({ type: type as GenerationType }, observer)?.outcome;
        } finally {
            abort(true);
        }
    };
}
