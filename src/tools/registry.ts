import { DICE_TOOLS } from './dice';
import type { ToolDefinition } from './tool';
import { WORKSPACE_TOOLS } from './workspace';

/** Every tool the engine knows. Adding a tool: its own folder, and one line here. */
export const ALL_TOOLS: readonly ToolDefinition[] = [...WORKSPACE_TOOLS, ...DICE_TOOLS];
