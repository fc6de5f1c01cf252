import type { ToolDefinition } from '../tool';
import { applyPatchTool } from './apply-patch';
import { commitTool } from './commit';
import { finishTool } from './finish';
import { listFilesTool } from './list-files';
import { readFileTool } from './read-file';
import { searchFilesTool } from './search-files';
import { writeFileTool } from './write-file';

/** The workspace tools (SPEC §3), in the order providers are shown them. */
export const WORKSPACE_TOOLS: ToolDefinition[] = [
    listFilesTool,
    searchFilesTool,
    readFileTool,
    writeFileTool,
    applyPatchTool,
    commitTool,
    finishTool,
];
