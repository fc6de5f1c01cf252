import { Component, type ComponentChildren } from 'preact';
import { t } from '../i18n/t';

interface Props {
    /** What failed, for the message ("this step", "the Skills section"). */
    label: string;
    children: ComponentChildren;
}

/**
 * One bad record (a crafted import, a journal event of an unexpected shape) shows an error where it would
 * have been, and the rest of the panel stays usable: without a boundary Preact unmounts the whole tree.
 * The message is text, never HTML.
 */
export class ErrorBoundary extends Component<Props, { error: string | null }> {
    override state = { error: null as string | null };

    static override getDerivedStateFromError(error: unknown): { error: string } {
        return { error: error instanceof Error ? error.message : String(error) };
    }

    override render() {
        if (this.state.error === null) return this.props.children;
        return (
            <div class="tavern-agent__error tavern-agent__boundary" role="alert" data-testid="error-boundary">
                {t`This part could not be shown:`} {this.props.label} ({this.state.error.slice(0, 300)})
            </div>
        );
    }
}
