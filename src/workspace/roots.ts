import { HIDDEN_ROOTS, VISIBLE_ROOTS } from '../contract/workspace-roots';

export { HIDDEN_ROOTS, VISIBLE_ROOTS, type VisibleRoot } from '../contract/workspace-roots';

export interface RootPolicy {
    visible: readonly string[];
    writable: readonly string[];
}

export const DEFAULT_ROOT_POLICY: RootPolicy = { visible: VISIBLE_ROOTS, writable: VISIBLE_ROOTS };

export function rootOf(path: string): string {
    const slash = path.indexOf('/');
    return slash === -1 ? path : path.slice(0, slash);
}

export function isHiddenPath(path: string): boolean {
    return (HIDDEN_ROOTS as readonly string[]).includes(rootOf(path));
}
