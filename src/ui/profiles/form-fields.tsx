import type { ComponentChildren } from 'preact';
import type { FieldError } from '../../contract/profile-migrations';
import { fieldErrorText } from './field-error-text';

/** Small building blocks of the profile form: every field has a label, and its errors right below it. */

/** A tool name that may wrap after "." or "_" (never mid-word) in a narrow panel. */
export function BreakableName({ name }: { name: string }) {
    const parts = name.split(/(?<=[._])/);
    return (
        <>
            {parts.map((part, index) => (
                <>
                    {index ? <wbr /> : null}
                    {part}
                </>
            ))}
        </>
    );
}

export function inputId(path: string): string {
    return `tavern_agent_profile_${path.replace(/\./g, '_')}`;
}

function errorsId(path: string): string {
    return `${inputId(path)}_errors`;
}

/** Attributes that tie an input to its error list for screen readers. */
export function invalidProps(path: string, errors: readonly FieldError[]) {
    return errors.length ? { 'aria-invalid': true as const, 'aria-describedby': errorsId(path) } : {};
}

export function FieldErrors({ path, errors }: { path: string; errors: readonly FieldError[] }) {
    if (!errors.length) return null;
    return (
        <ul class="tavern-agent__field-errors" id={errorsId(path)} data-testid="field-errors">
            {errors.map((error) => (
                <li class="tavern-agent__error" data-testid="field-error" data-path={error.path}>
                    {fieldErrorText(error)}
                </li>
            ))}
        </ul>
    );
}

interface FieldProps {
    path: string;
    label: string;
    errors: readonly FieldError[];
    hint?: string;
    /** Worth a look, but saving is allowed (e.g. a caller id that names no profile yet). */
    warnings?: readonly string[];
    children: ComponentChildren;
}

export function FieldWarnings({ warnings }: { warnings: readonly string[] | undefined }) {
    if (!warnings?.length) return null;
    return (
        <ul class="tavern-agent__field-warnings" data-testid="field-warnings">
            {warnings.map((warning) => (
                <li class="tavern-agent__warning" data-testid="field-warning">
                    <span class="fa-solid fa-triangle-exclamation" aria-hidden="true" /> {warning}
                </li>
            ))}
        </ul>
    );
}

/** A labelled single input. */
export function Field({ path, label, errors, hint, warnings, children }: FieldProps) {
    return (
        <div class="tavern-agent__field" data-field={path} data-invalid={errors.length ? 'true' : undefined} data-warning={warnings?.length ? 'true' : undefined}>
            <label for={inputId(path)}>{label}</label>
            {children}
            {hint ? <small class="tavern-agent__muted">{hint}</small> : null}
            <FieldErrors path={path} errors={errors} />
            <FieldWarnings warnings={warnings} />
        </div>
    );
}

/** A group of checkboxes (or other inputs) under one legend. */
export function FieldGroup({ path, label, errors, hint, children }: FieldProps) {
    return (
        <fieldset class="tavern-agent__field tavern-agent__fieldset" data-field={path} data-invalid={errors.length ? 'true' : undefined}>
            <legend>{label}</legend>
            {hint ? <small class="tavern-agent__muted">{hint}</small> : null}
            {children}
            <FieldErrors path={path} errors={errors} />
        </fieldset>
    );
}

function NumberInput({ path, value, errors, onValue }: { path: string; value: number; errors: readonly FieldError[]; onValue(value: number): void }) {
    return (
        <input
            id={inputId(path)}
            class="text_pole"
            type="number"
            step={1}
            inputMode="numeric"
            value={Number.isNaN(value) ? '' : String(value)}
            {...invalidProps(path, errors)}
            // An empty box is NaN: the worker's check then names the field instead of a silent default.
            onInput={(event) => onValue(event.currentTarget.value === '' ? Number.NaN : Number(event.currentTarget.value))}
        />
    );
}

export function NumberField(props: { path: string; label: string; value: number; errors: readonly FieldError[]; hint?: string; onValue(value: number): void }) {
    return (
        <Field path={props.path} label={props.label} errors={props.errors} {...(props.hint ? { hint: props.hint } : {})}>
            <NumberInput path={props.path} value={props.value} errors={props.errors} onValue={props.onValue} />
        </Field>
    );
}

export function TextField(props: {
    path: string;
    label: string;
    value: string;
    errors: readonly FieldError[];
    hint?: string;
    warnings?: readonly string[];
    readOnly?: boolean;
    onValue(value: string): void;
}) {
    return (
        <Field path={props.path} label={props.label} errors={props.errors} {...(props.hint ? { hint: props.hint } : {})} {...(props.warnings ? { warnings: props.warnings } : {})}>
            <input
                id={inputId(props.path)}
                class="text_pole"
                type="text"
                value={props.value}
                readOnly={props.readOnly}
                spellcheck={false}
                {...invalidProps(props.path, props.errors)}
                onInput={(event) => props.onValue(event.currentTarget.value)}
            />
        </Field>
    );
}

/** A checkbox with its label on the right, and its errors below. */
export function CheckboxField(props: { path: string; label: string; checked: boolean; errors: readonly FieldError[]; onValue(value: boolean): void }) {
    return (
        <div class="tavern-agent__field tavern-agent__field--check" data-field={props.path}>
            <label class="checkbox_label" for={inputId(props.path)}>
                <input
                    id={inputId(props.path)}
                    type="checkbox"
                    checked={props.checked}
                    {...invalidProps(props.path, props.errors)}
                    onChange={(event) => props.onValue(event.currentTarget.checked)}
                />
                <span>{props.label}</span>
            </label>
            <FieldErrors path={props.path} errors={props.errors} />
        </div>
    );
}

/** Checkboxes for a list of values: the list holds the checked ones, in the options' order. */
export function Checklist(props: {
    path: string;
    label: string;
    options: ReadonlyArray<{ value: string; label: string; title?: string; strong?: boolean }>;
    selected: readonly string[];
    errors: readonly FieldError[];
    hint?: string;
    onValue(values: string[]): void;
}) {
    const toggle = (value: string, on: boolean) => {
        const next = new Set(props.selected);
        if (on) next.add(value);
        else next.delete(value);
        props.onValue(props.options.map((option) => option.value).filter((option) => next.has(option)));
    };
    return (
        <FieldGroup path={props.path} label={props.label} errors={props.errors} {...(props.hint ? { hint: props.hint } : {})}>
            <div class="tavern-agent__checklist">
                {props.options.map((option) => (
                    <label class="checkbox_label tavern-agent__check" title={option.title} data-value={option.value}>
                        <input type="checkbox" checked={props.selected.includes(option.value)} onChange={(event) => toggle(option.value, event.currentTarget.checked)} />
                        <code class={option.strong ? 'tavern-agent__strong' : undefined}>
                            <BreakableName name={option.label} />
                        </code>
                    </label>
                ))}
            </div>
        </FieldGroup>
    );
}
