/**
 * Runs one autocannon scenario in its own process (so the load generator does not share the
 * server's event loop) and prints autocannon's result as JSON on stdout, with the CPU time this
 * process spent (`clientCpuMs`: on a shared machine the load generator's share matters).
 * Input: one JSON argument `{url, connections, duration, headers, requests}`.
 */
// @ts-expect-error autocannon ships no type declarations and @types/autocannon is not installed.
import autocannon from 'autocannon';

const input = JSON.parse(process.argv[2] ?? '{}') as Record<string, unknown>;
const run = autocannon as (opts: Record<string, unknown>) => Promise<unknown>;
const cpu0 = process.cpuUsage();
const result = (await run({ ...input, timeout: 30 })) as Record<string, unknown>;
const cpu = process.cpuUsage(cpu0);
process.stdout.write(JSON.stringify({ ...result, clientCpuMs: (cpu.user + cpu.system) / 1000 }));
