import type { ToolDefinition } from '../tool';
import { skillListTool } from './list';
import { skillReadTool } from './read';
import { skillRunScriptTool } from './run-script';
import { skillSearchTool } from './search';

export const SKILL_TOOLS: readonly ToolDefinition[] = [skillListTool, skillSearchTool, skillReadTool, skillRunScriptTool];
