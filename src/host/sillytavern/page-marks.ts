/** Sets a data attribute on SillyTavern's page body (`data-<kebab-name>`), which tests and other extensions can wait for. */
export function markPage(name: string, value: string): void {
    document.body.dataset[name] = value;
}
