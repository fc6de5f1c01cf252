import type { TrialVariant } from '../lib/ab-trial';

/** The open panel against the floor of showing each step (docs/performance.md §25). */
export const variants: TrialVariant[] = [
    { name: 'panel closed', closed: true },
    { name: 'panel open, as it is' },
    { name: "panel open, the timeline's rows not shown", css: '.tavern-agent__events { display: none !important; }' },
    {
        name: 'panel open, each new row shown as one plain line instead',
        css: '.tavern-agent__events { display: none !important; }',
        scriptFile: 'plain-line-per-step.js',
        undoFile: 'plain-line-per-step-undo.js',
    },
];
