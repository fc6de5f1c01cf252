import { AGENT_TOOLS } from './agent';
import { CHAT_TOOLS } from './chat';
import { DICE_TOOLS } from './dice';
import { MEMORY_TOOLS } from './memory';
import { PLAN_TOOLS } from './plan';
import { SCRIPT_TOOLS } from './script/run';
import { SKILL_TOOLS } from './skill';
import { STATE_TOOLS } from './state';
import type { ToolDefinition } from './tool';
import { WORKSPACE_TOOLS } from './workspace';
import { WORLDINFO_TOOLS } from './worldinfo';

/** Every tool the engine knows. Adding a tool: its own folder, and one line here. */
export const ALL_TOOLS: readonly ToolDefinition[] = [...CHAT_TOOLS, ...MEMORY_TOOLS, ...WORLDINFO_TOOLS, ...WORKSPACE_TOOLS, ...PLAN_TOOLS, ...DICE_TOOLS, ...AGENT_TOOLS, ...SKILL_TOOLS, ...SCRIPT_TOOLS, ...STATE_TOOLS];
