import os from 'node:os';

export interface MachineInfo {
    cpuModel: string;
    cores: number;
    memoryGiB: number;
    platform: string;
    node: string;
    chromium: string | null;
    /** 1-minute load average when the bench started: a busy shared machine makes every figure slower. */
    loadAverage1m: number;
    /** The same when the bench ended (filled in by run.ts). */
    loadAverage1mAtEnd?: number;
    date: string;
}

export function machineInfo(chromium: string | null): MachineInfo {
    const cpus = os.cpus();
    return {
        cpuModel: cpus[0]?.model.trim() ?? 'unknown',
        cores: cpus.length,
        memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
        platform: `${os.type()} ${os.release()} ${os.arch()}`,
        node: process.version,
        chromium,
        loadAverage1m: Math.round(os.loadavg()[0]! * 100) / 100,
        date: new Date().toISOString(),
    };
}

export function machineLine(info: MachineInfo): string {
    return [
        `${info.cpuModel}, ${info.cores} cores, ${info.memoryGiB} GiB`,
        info.platform,
        `Node ${info.node}`,
        `Chromium ${info.chromium ?? '?'} (headless)`,
        `load ${info.loadAverage1m} at start${info.loadAverage1mAtEnd === undefined ? '' : `, ${info.loadAverage1mAtEnd} at end`}`,
        info.date.slice(0, 16).replace('T', ' ') + ' UTC',
    ].join(' · ');
}
